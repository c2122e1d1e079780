package fit

import (
	"context"
	"fmt"
	"github.com/pollfit/pollfit/internal/testenv"
	"math"
	"strings"
	"testing"
)

// The invariants test: what every figure of a study must satisfy on
// any log, checked on seeded realistic logs of every shape (see
// loggen.Realistic: 1–4 channels of 1–4 lognormal modes, a PSP timeout,
// wall-clock batches, 0–10% stuck, declines, Berlin offsets across the
// change to winter time), under requests-per-item budgets from 1.5 to
// 40, asks-by and max-attempts budgets, each beside a baseline. None of
// the expected values is the code's own: each is a bound that holds by
// definition (a lag is not negative, a reduction is below 100%, the
// limit is an optimum, the frontier is fit at each budget).
//
// POLLFIT_LONG_TESTS=1 runs more and larger logs. One log alone:
// go test ./fit -run 'TestInvariants/seed=17$' -v.

// invSize is the number of logs and the rows of each: sketch-sized
// logs, one budget each, so that the long run covers 200 shapes.
func invSize() (logs, minRows, maxRows int) {
	if testenv.Long() {
		return 200, 120, 360
	}
	return 4, 120, 360
}

// invRegressions are logs of the long run that once broke an invariant,
// run in the short one too: 111's fit waited no longer than its
// baseline for less than the same-lag search found.
var invRegressions = []uint64{111}

func TestInvariants(t *testing.T) {
	n, lo, hi := invSize()
	dir := t.TempDir()
	seeds := make([]uint64, 0, n+len(invRegressions))
	for seed := uint64(1); seed <= uint64(n); seed++ {
		seeds = append(seeds, seed)
	}
	for _, s := range invRegressions {
		if s > uint64(n) {
			seeds = append(seeds, s)
		}
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprintf("seed=%d", seed), func(t *testing.T) {
			t.Parallel()
			rows := lo + int(seed*2654435761%uint64(hi-lo+1))
			c := newInvCase(t, dir, seed, rows)
			checkCase(t, c)
		})
	}
}

// invReport collects a case's broken invariants, each message naming
// the case.
type invReport struct {
	t    *testing.T
	desc string
}

func (r invReport) fail(what string, format string, args ...any) {
	r.t.Helper()
	r.t.Errorf("%s: %s: %s", r.desc, what, fmt.Sprintf(format, args...))
}

// checkCase runs the study and the frontier of one case and checks them.
func checkCase(t *testing.T, c invCase) {
	rep := invReport{t, c.desc}
	res, err := Study(context.Background(), c.smp, nil, c.opt)
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, "fits the budget") || strings.Contains(msg, "within the budget") {
			t.Logf("%s: %v (a budget too small for this log: nothing to check)", c.desc, err)
			return
		}
		rep.fail("study", "%v", err)
		return
	}
	rows := studyRows(res)
	checkLags(rep, rows)
	checkChanges(rep, res)
	checkLimit(rep, res, rows)
	if c.opt.Budget.Kind() == BudgetRequests {
		checkFrontier(rep, c, res)
		for i := range res.Baselines {
			checkEqualCost(rep, c, &res.Baselines[i])
			checkSameLag(rep, res, &res.Baselines[i])
		}
	}
}

// studyRows are every row a study prints.
func studyRows(res *StudyResult) []Row {
	rows := []Row{res.Fitted, res.Limit}
	if res.ExactFit != nil {
		rows = append(rows, *res.ExactFit)
	}
	for _, c := range res.Baselines {
		rows = append(rows, c.Baseline, c.Fitted)
		if c.SameLag != nil {
			rows = append(rows, *c.SameLag)
		}
	}
	if res.Library != nil {
		rows = append(rows, res.Library.Fitted)
	}
	return rows
}

// checkLags: no lag, percentile or interval end is negative.
func checkLags(rep invReport, rows []Row) {
	for _, r := range rows {
		l := r.Lag
		for i, v := range []float64{l.Mean, l.P50, l.P90, l.P95, l.P99, l.Max, r.LagCI[0], r.LagCI[1], r.P95CI[0]} {
			if v < 0 {
				names := []string{"mean", "p50", "p90", "p95", "p99", "max", "mean's interval low", "mean's interval high", "p95's interval low"}
				rep.fail("lag ≥ 0", "row %q: %s lag %.6gs (schedule %s)", r.Name, names[i], v, r.Schedule)
			}
		}
	}
}

// checkChanges: every change against a baseline is a physical one (a
// reduction below 100%), its interval too, and it lies inside its
// interval.
func checkChanges(rep invReport, res *StudyResult) {
	for _, c := range res.Baselines {
		what := fmt.Sprintf("baseline %s: equal-cost lag %.6gs against the baseline's %.6gs at %.4g requests per item, fitted@ at %.4g", c.Name, c.EqualCostLag, c.Baseline.Lag.Mean, c.Baseline.RequestsPerItem, c.Fitted.RequestsPerItem)
		if c.EqualCostLag < 0 {
			rep.fail("equal-cost lag ≥ 0", "%s", what)
		}
		if !(c.Change > -1) {
			rep.fail("change in (−100%, +∞)", "change %.1f%%; %s", 100*c.Change, what)
		}
		lo, hi := c.ChangeCI[0], c.ChangeCI[1]
		if math.IsNaN(lo) || math.IsNaN(hi) {
			continue
		}
		if !(lo > -1) {
			rep.fail("change's interval in (−100%, +∞)", "interval [%.1f%%, %.1f%%]; %s", 100*lo, 100*hi, what)
		}
		if !(lo <= c.Change+1e-12 && c.Change <= hi+1e-12) {
			rep.fail("change inside its interval", "change %.2f%% outside [%.2f%%, %.2f%%]; %s", 100*c.Change, 100*lo, 100*hi, what)
		}
	}
}
