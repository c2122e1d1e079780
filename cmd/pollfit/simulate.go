package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"text/tabwriter"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/fit/simulate"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "simulate",
		summary: "simulate a crowd of clients retrying against a server of limited capacity",
		usage:   "pollfit simulate --capacity N/PERIOD --strategy SPEC [--strategy SPEC...] [flags]",
		example: `  # The retry-storm study: 200 agents at once, 20 calls/s, answers in 1.07 s.
  pollfit simulate --clients 200 --capacity 20/s --answer 1.07s --runs 50 \
      --strategy 'constant(100ms)' \
      --strategy 'exponential(initial=100ms, factor=2, max=20s)' \
      --strategy 'exponential(initial=100ms, factor=2, max=20s, jitter=full)'

  # Arrivals as a Poisson stream, a polling schedule as the policy.
  pollfit simulate --clients 1000 --arrivals 50/s --capacity 40/s --strategy '1s until 30s, 5s'

  # The load of a polling fleet on its status endpoint: 50 items/s
  # settling at 40 s, and a burst of 1000 created together.
  pollfit simulate --fleet --arrivals 50/s --settle 40s --burst 1000 \
      --strategy 'exponential(initial=1s, max=10s)' \
      --strategy 'exponential(initial=1s, max=10s, jitter=full)'

Each cell is the median over the runs, with the 10th-90th percentile
range in brackets when the runs differ. Served times are from a
client's arrival to its answer, in seconds. See the documentation of
package fit/simulate for the exact model.`,
		flags: simulateFlags,
	})
}

type simFlags struct {
	clients, runs, burst        int
	rf                          *readFlags // how --arrivals-log and --answer-log are read
	arrivals, capacity, horizon string
	arrivalsLog, answerLog      string
	settle, maxAge, duration    string
	answer                      string
	strategies                  []string
	seed                        uint64
	asJSON, fleet               bool
}

func simulateFlags(fs *pflag.FlagSet) func(*env, []string) error {
	f := &simFlags{}
	fs.IntVar(&f.clients, "clients", 100, "number of clients")
	fs.StringVar(&f.arrivals, "arrivals", "all", `"all" (every client at time 0) or a Poisson rate N/PERIOD, e.g. 50/s`)
	fs.StringVar(&f.arrivalsLog, "arrivals-log", "", "clients arrive at the creation times of this log (its --created-col), from its first")
	fs.StringVar(&f.capacity, "capacity", "", "calls the server accepts per window, N/PERIOD: 20/s is at most 20 in each second [k, k+1) (required)")
	fs.StringVar(&f.answer, "answer", "1s", "time from an accepted call to its answer")
	fs.StringVar(&f.answerLog, "answer-log", "", "draw each answer time from the settle times of this log instead")
	f.rf = addReadFlags(fs) // the logs' columns, time format and bad rows, read as the other commands read them
	fs.StringArrayVar(&f.strategies, "strategy", nil, "retry strategy spec (e.g. 'exponential(initial=100ms, factor=2, max=20s)'), a schedule or @FILE; repeat to compare")
	fs.IntVar(&f.runs, "runs", 50, "repetitions per strategy")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of arrivals and jitter")
	fs.StringVar(&f.horizon, "horizon", "24h", "stop simulating at this time; clients still retrying count as unfinished")
	fs.BoolVar(&f.asJSON, "json", false, "write JSON: one object per strategy")
	fs.BoolVar(&f.fleet, "fleet", false, "simulate the load of a polling fleet on its status endpoint instead (no capacity)")
	fs.IntVar(&f.burst, "burst", 0, "fleet: items created together at time 0, on top of the --arrivals stream")
	fs.StringVar(&f.settle, "settle", "", "fleet: every item settles at this age (default: never, it asks until --max-age)")
	fs.StringVar(&f.maxAge, "max-age", "1h", "fleet: an item stops asking at this age")
	fs.StringVar(&f.duration, "duration", "10m", "fleet: the measured span, in the steady state")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usagef("simulate: unexpected argument %q", quote.Clip(args[0]))
		}
		if len(f.strategies) == 0 {
			return usagef("simulate: give at least one --strategy")
		}
		if f.runs < 1 || f.runs > simulate.MaxRuns {
			return usagef("simulate: --runs must be from 1 to %d, not %d", simulate.MaxRuns, f.runs)
		}
		named, err := parseSpecs(f.strategies)
		if err != nil {
			return usagef("simulate: --strategy: %v", err)
		}
		var policies []simulate.Policy
		for _, n := range named {
			policies = append(policies, n.policy())
		}
		if f.fleet {
			return runFleet(e, f, policies)
		}
		return runCrowd(e, f, policies)
	}
}

// simRow is one strategy's summary for the output.
type simRow struct {
	strategy string
	sum      json.Marshaler
	cells    []string
}

func runCrowd(e *env, f *simFlags, policies []simulate.Policy) error {
	c, err := crowdFromFlags(e, f)
	if err != nil {
		return err
	}
	var rows []simRow
	for _, p := range policies {
		c.Policy = p
		s, err := c.Repeat(e.context(), f.seed, f.runs)
		if err != nil {
			return fmt.Errorf("simulate: %s: %w", p, err)
		}
		if s.GaveUp.P90 > 0 {
			simWarn(e, f.rf.quiet, "%s: clients gave up (median %g per run); served times count served clients only", p, s.GaveUp.Median)
		}
		if s.Unfinished.P90 > 0 {
			simWarn(e, f.rf.quiet, "%s: clients still retrying at the horizon (median %g per run)", p, s.Unfinished.Median)
		}
		rows = append(rows, simRow{p.String(), s, []string{spreadCell(s.LastServed, "s"), spreadCell(s.CallsSent, ""),
			spreadCell(s.CallsRefused, ""), spreadCell(s.TypicalServed, "s"), spreadCell(s.PeakCallsPerSecond, "")}})
	}
	return writeSimRows(e.stdout, f.asJSON, rows, "last served", "calls sent", "calls refused", "typical served", "peak calls/s")
}

func crowdFromFlags(e *env, f *simFlags) (simulate.Crowd, error) {
	c := simulate.Crowd{Clients: f.clients}
	if f.clients < 1 || f.clients > simulate.MaxClients {
		return c, usagef("simulate: --clients must be from 1 to %d, not %d", simulate.MaxClients, f.clients)
	}
	var err error
	if c.Answer, err = schedule.ParseDuration(f.answer); err != nil {
		return c, usagef("simulate: --answer: %v", err)
	}
	if f.arrivals != "all" {
		r, err := simulate.ParseRate(f.arrivals)
		if err != nil {
			return c, usagef("simulate: --arrivals: %v", err)
		}
		c.Arrivals = r
	}
	if f.capacity == "" {
		return c, usagef("simulate: --capacity N/PERIOD is required, e.g. 20/s")
	}
	r, err := simulate.ParseRate(f.capacity)
	if err != nil {
		return c, usagef("simulate: --capacity: %v", err)
	}
	if r.N != math.Trunc(r.N) || r.N > math.MaxInt32 {
		return c, usagef("simulate: --capacity %s: the count per window must be a whole number", f.capacity)
	}
	c.Capacity, c.Window = int(r.N), r.Per
	if c.Horizon, err = simDuration("horizon", f.horizon); err != nil {
		return c, err
	}
	opt, err := f.rf.options()
	if err != nil {
		return c, fmt.Errorf("simulate: %w", err)
	}
	if f.rf.histogram {
		return c, usagef("simulate: --histogram: --arrivals-log and --answer-log take a log's rows, not a histogram")
	}
	if f.arrivalsLog != "" {
		if c.ArrivalTimes, err = logArrivals(e, f.arrivalsLog, opt, f.rf.quiet); err != nil {
			return c, err
		}
	}
	if f.answerLog != "" {
		if c.AnswerSample, err = logAnswers(e, f.answerLog, opt, f.rf.quiet); err != nil {
			return c, err
		}
	}
	return c, nil
}

// simulateLog reads the items of the log at path for the flag named
// flag, warning of the bad rows skipped (--skip-bad) unless quiet.
func simulateLog(e *env, flag, path string, opt logs.Options, quiet bool) ([]estimate.Item, error) {
	items, st, err := logs.ReadContext(e.context(), []string{path}, opt)
	if err != nil {
		return nil, fmt.Errorf("simulate: --%s: %w", flag, err)
	}
	if len(st.Skipped) > 0 {
		simWarn(e, quiet, "--%s %s: skipped %s", flag, path, logs.SkippedText(st.Skipped))
	}
	return items, nil
}

// simWarn writes a warning of simulate's on stderr, unless quiet (-q).
func simWarn(e *env, quiet bool, format string, args ...any) {
	if !quiet {
		fmt.Fprintf(e.stderr, "pollfit: warning: simulate: "+format+"\n", args...)
	}
}

func simDuration(flag, s string) (time.Duration, error) {
	d, err := schedule.ParseDuration(s)
	switch {
	case err != nil: // says why: no unit, too long, ...
		return 0, usagef("simulate: --%s: %v", flag, err)
	case d <= 0:
		return 0, usagef("simulate: --%s %q is not a positive duration", flag, quote.Clip(s))
	}
	return d, nil
}

// logArrivals reads the creation times of a log, from its first.
func logArrivals(e *env, path string, opt logs.Options, quiet bool) ([]time.Duration, error) {
	items, err := simulateLog(e, "arrivals-log", path, opt, quiet)
	if err != nil {
		return nil, err
	}
	var ts []int64
	for _, it := range items {
		if it.HasCreated() {
			ts = append(ts, it.Created)
		}
	}
	if len(ts) == 0 {
		return nil, fmt.Errorf("simulate: --arrivals-log %s: no creation times in column %s (--created-col)", path, cmp.Or(opt.CreatedCol, "created_at"))
	}
	if n := len(items) - len(ts); n > 0 {
		simWarn(e, quiet, "%s: %d items without a creation time left out", path, n)
	}
	slices.Sort(ts)
	out := make([]time.Duration, len(ts))
	for i, t := range ts {
		out[i] = time.Duration(t - ts[0])
	}
	return out, nil
}

// logAnswers reads the settle times of the final items of a log.
func logAnswers(e *env, path string, opt logs.Options, quiet bool) ([]time.Duration, error) {
	items, err := simulateLog(e, "answer-log", path, opt, quiet)
	if err != nil {
		return nil, err
	}
	var out []time.Duration
	for _, it := range items {
		if it.Status.Final() {
			out = append(out, time.Duration(math.Round(it.Age*1e9)))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("simulate: --answer-log %s: no settled items", path)
	}
	if n := len(items) - len(out); n > 0 {
		simWarn(e, quiet, "%s: %d pending items left out of the answer times", path, n)
	}
	return out, nil
}

// runFleet is "pollfit simulate --fleet": the load a polling schedule
// puts on the status endpoint.
func runFleet(e *env, f *simFlags, policies []simulate.Policy) error {
	fl := simulate.Fleet{Burst: f.burst}
	for _, c := range [][2]string{{"arrivals-log", f.arrivalsLog}, {"answer-log", f.answerLog}} {
		if name, v := c[0], c[1]; v != "" { // the crowd's flags: a fleet has a rate and a schedule
			return usagef("simulate: --%s is for a crowd of clients, not --fleet: give the fleet an --arrivals rate", name)
		}
	}
	if f.arrivals != "all" {
		r, err := simulate.ParseRate(f.arrivals)
		if err != nil {
			return usagef("simulate: --arrivals: %v", err)
		}
		fl.Arrivals = r
	}
	if fl.Arrivals == (simulate.Rate{}) && f.burst <= 0 {
		return usagef("simulate: --fleet needs an --arrivals rate or a --burst")
	}
	if f.burst < 0 {
		return usagef("simulate: --burst must not be negative")
	}
	var err error
	if fl.MaxAge, err = simDuration("max-age", f.maxAge); err != nil {
		return err
	}
	if fl.Duration, err = simDuration("duration", f.duration); err != nil {
		return err
	}
	if f.settle != "" {
		d, err := simDuration("settle", f.settle)
		if err != nil {
			return err
		}
		fl.Settle = []float64{d.Seconds()}
	}
	var rows []simRow
	for _, p := range policies {
		fl.Policy = p
		s, err := fl.Repeat(e.context(), f.seed, f.runs)
		if err != nil {
			return fmt.Errorf("simulate: %s: %w", p, err)
		}
		rows = append(rows, simRow{p.String(), s, []string{spreadCell(s.Mean, ""), spreadCell(s.Peak, ""), spreadCell(s.Echo, ""), spreadCell(s.Item, "")}})
	}
	return writeSimRows(e.stdout, f.asJSON, rows, "requests/s", "peak requests/s", "peak after 1st s", "asks per item")
}

// spreadCell writes a spread: the median, and [p10–p90] when they differ.
func spreadCell(s backoff.Spread, unit string) string {
	f := func(x float64) string {
		if math.IsNaN(x) {
			return "-"
		}
		return fmt.Sprintf("%.4g", x)
	}
	if s.P10 == s.P90 {
		return f(s.Median) + unit
	}
	return fmt.Sprintf("%s%s [%s–%s]", f(s.Median), unit, f(s.P10), f(s.P90))
}

// simRowJSON is one strategy's summary as JSON: {"strategy": SPEC}
// followed by the summary's own keys (simulate.Summary.MarshalJSON or
// simulate.FleetSummary.MarshalJSON, which define them).
type simRowJSON struct {
	Strategy string
	Summary  json.Marshaler
}

func (r simRowJSON) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Strategy string `json:"strategy"`
	}{r.Strategy})
	if err != nil {
		return nil, err
	}
	sum, err := r.Summary.MarshalJSON()
	if err != nil {
		return nil, err
	}
	if len(sum) < 2 || sum[0] != '{' {
		return nil, fmt.Errorf("simulate: the summary of %s is not a JSON object", r.Strategy)
	}
	if string(sum) == "{}" {
		return head, nil
	}
	return append(append(head[:len(head)-1], ','), sum[1:]...), nil
}

// writeSimRows writes a table with the given columns after "strategy", or
// with asJSON an array of the summaries with a "strategy" key added.
func writeSimRows(w io.Writer, asJSON bool, rows []simRow, cols ...string) error {
	if asJSON {
		out := make([]simRowJSON, len(rows))
		for i, r := range rows {
			out[i] = simRowJSON{r.strategy, r.sum}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "strategy")
	for _, c := range cols {
		fmt.Fprint(tw, "\t"+c)
	}
	fmt.Fprintln(tw)
	for _, r := range rows {
		fmt.Fprint(tw, r.strategy)
		for _, c := range r.cells {
			fmt.Fprint(tw, "\t"+c)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
