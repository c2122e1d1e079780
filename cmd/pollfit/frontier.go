package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"text/tabwriter"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "frontier",
		summary: "sweep the budget: expected wait against requests per item",
		usage:   "pollfit frontier [--budgets N,N,... | --from N --to N --steps K] [--by COLUMN] [--csv | --json] (LOG... | --model M)",
		example: `  pollfit frontier --horizon 15m --baseline now='1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m' payments.csv
  pollfit frontier --model 'lognormal(median=12s, sigma=0.5)' --from 2 --to 30 --steps 50 --csv > frontier.csv

For each budget (mean requests per item) it prints the mean lag of the exact
optimum, the best schedule of --clauses nice clauses, a fixed interval,
exponential backoff (gaps doubling) and backoff with full jitter (each gap
uniform below the doubled one, averaged over 100 seeded draws), each at the
interval or base that spends the budget. Baselines are single points at
their own cost. Figures are on the items held out (--holdout, split by
--seed), or exact on a model. Each fitted row is the schedule pollfit fit
ships at that budget with the same flags, its deadline burst, batch asks
and reset on signal included where they pay (--deadlines, --batches,
--signals). The knee is the first budget from which on one more request
per item buys less than 5% of the mean lag at every budget of the table;
the report draws the fit's own frontier at 7 budgets log-even over
1.5–40 requests per item plus the fit's own (see pollfit help report),
and frontier --budgets at those budgets finds the same knee. --csv and
--json give each fitted row its clauses: what its schedule counts
against the --clauses cap, by the rule of pollfit help fitting.
--count-asks-by, --bootstrap, --smooth and --family do not apply
and are refused. A log is read as fit reads it: into a sketch in one
pass, fitted from its bins, or from its item sample when it has signals
or settles in batches. --by COLUMN prints the frontier of each value of a
categorical column on its own items: each row is fit --by
--budget-per-group's schedule for that value at that budget.`,
		flags: frontierFlags,
	})
}

func frontierFlags(fs *pflag.FlagSet) func(*env, []string) error {
	v := addFitFlags(fs)
	for _, name := range append([]string{"requests-per-item", "asks-by", "price", "max-attempts"}, frontierIgnores...) {
		fs.MarkHidden(name) // the budget is swept; the rest do not apply
	}
	fs.Lookup("seed").Usage = "seed of the hold-out split and of the jitter draws"
	budgets := fs.String("budgets", "", "requests-per-item budgets, comma-separated (instead of --from/--to/--steps)")
	from := fs.Float64("from", fit.DefaultFrontierFrom, "smallest budget")
	to := fs.Float64("to", fit.DefaultFrontierTo, "largest budget")
	steps := fs.Int("steps", fit.DefaultFrontierSteps, "number of budgets, spaced geometrically")
	asCSV := fs.Bool("csv", false, "print CSV")
	asJSON := fs.Bool("json", false, "print JSON")
	plotPath := addPlotFlag(fs)
	force := fs.Bool("force", false, "overwrite an existing --plot file")
	rf := addReadFlags(fs)
	rf.iv = addIntervalReadFlags(fs)
	bf := addByFlag(fs, false)
	return func(e *env, args []string) error {
		if err := v.useRenamed(e, "frontier"); err != nil {
			return err
		}
		if err := checkPlots(*force, *plotPath); err != nil {
			return err
		}
		if !(fit.Budget{RequestsPerItem: v.requests, Price: v.price, MaxAttempts: v.maxAttempts}).IsZero() || v.asksBy != "" {
			return usagef("frontier: the budget is swept; give --budgets or --from/--to/--steps instead")
		}
		for _, name := range frontierIgnores {
			if fs.Changed(name) {
				return usagef("frontier: --%s does not apply (the frontier reports no asks-by counts, intervals, exact optimum or library fit): drop it", name)
			}
		}
		if v.clauses == 0 {
			return usagef("frontier: --clauses must be at least 1")
		}
		bs, err := frontierBudgets(*budgets, *from, *to, *steps)
		if err != nil {
			return err
		}
		v.requests = bs[0] // a budget for the options check; the sweep sets each
		opt, err := v.studyOptions("frontier")
		if err != nil {
			return err
		}
		opt.Bootstrap = 0 // the frontier reports no intervals
		if bf.by != "" {
			if *plotPath != "" || *asCSV || v.model != "" {
				return usagef("frontier: --by prints a frontier per value as text or --json; --plot, --csv and --model take all items")
			}
			return frontierGroups(e, rf, bf.by, args, opt, studyNeeds(v, opt.Baselines), bs, *asJSON)
		}
		in, model, err := frontierInput(e, rf, v, args, opt)
		if err != nil {
			return err
		}
		opt = in.studyOptions(opt)
		notes := in.Notes
		if !rf.quiet {
			for _, n := range notes {
				fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", n)
			}
		}
		line := newStageLine(e, "frontier", rf.quiet)
		opt.Progress = line.progress()
		pts, base, err := fit.StudyFrontier(e.context(), in.FitOn, in.HeldOut, model, opt, bs)
		line.stop()
		if err != nil {
			return fmt.Errorf("frontier: %w", err)
		}
		if *plotPath != "" {
			if err := writePlot(*plotPath, *force, e.stdout, plot.FrontierOf(pts, plot.RowPoints(base), opt.Clauses)); err != nil {
				return err
			}
		}
		switch {
		case *asJSON:
			return writeFrontierJSON(e.stdout, pts, base, notes)
		case *asCSV:
			return writeFrontierCSV(e.stdout, pts, base)
		}
		writeFrontierText(e.stdout, pts, base, opt.Clauses)
		if opt.NoLimit != "" {
			fmt.Fprintf(e.stdout, "\n%s\n", opt.NoLimit)
		}
		return nil
	}
}

// frontierIgnores are fit's flags that the frontier has no use for: it
// prints no asks-by counts (--count-asks-by) nor intervals (--bootstrap),
// ships no exact optimum, so the smoothing of the density it is fitted
// to never shows (--smooth), and fits no library family (--family,
// --grpc-client).
var frontierIgnores = []string{"count-asks-by", "bootstrap", "smooth", "family", "grpc-client"}

// frontierInput reads the logs, or parses the model; notes say what the
// input could not serve.
func frontierInput(e *env, rf *readFlags, v *fitFlagValues, args []string, opt fit.StudyOptions) (*studied, fit.Distribution, error) {
	if v.model != "" {
		if len(args) > 0 {
			return &studied{Input: &source.Input{}}, nil, usagef("frontier: give --model or LOG files, not both")
		}
		m, err := estimate.ParseModel(v.model)
		if err != nil {
			return &studied{Input: &source.Input{}}, nil, usagef("frontier: --model: %v", err)
		}
		return &studied{Input: &source.Input{}}, m, nil
	}
	if len(args) == 0 {
		return &studied{Input: &source.Input{}}, nil, usagef("frontier: give LOG files or --model")
	}
	in, err := rf.studyInput(e, args, "frontier", v, opt.Baselines)
	if err != nil {
		return nil, nil, err
	}
	if in.intervals != "" {
		in.Notes = append([]string{"input: " + in.intervals}, in.Notes...)
	}
	return in, nil, nil
}

// maxSteps is the most budgets a frontier sweeps (each is a fit).
const maxSteps = 200

func frontierBudgets(list string, from, to float64, steps int) ([]float64, error) {
	if list != "" {
		var out []float64
		for _, f := range splitComma(list) {
			x, err := strconv.ParseFloat(f, 64)
			if err != nil || x < 1 {
				return nil, usagef("frontier: --budgets: %q is not a number ≥ 1", quote.Clip(f))
			}
			out = append(out, x)
		}
		if len(out) > maxSteps {
			return nil, usagef("frontier: --budgets: %d budgets, more than the %d a frontier sweeps", len(out), maxSteps)
		}
		return out, nil
	}
	if from < 1 || to < from || steps < 1 || steps > maxSteps {
		return nil, usagef("frontier: want 1 ≤ --from ≤ --to and 1 ≤ --steps ≤ %d", maxSteps)
	}
	return fit.FrontierBudgets(from, to, steps), nil
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if f := trimSpace(s[start:i]); f != "" {
				out = append(out, f)
			}
			start = i + 1
		}
	}
	return out
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t') {
		s = s[:len(s)-1]
	}
	return s
}

func writeFrontierText(w io.Writer, pts []fit.FrontierPoint, base []fit.Row, k int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	limits := slices.ContainsFunc(pts, func(p fit.FrontierPoint) bool { return !math.IsNaN(p.Limit.Lag.Mean) })
	limitCol := func(s string) string { // no column where no limit was computed (interval-censored input)
		if !limits {
			return ""
		}
		return s + "\t"
	}
	fmt.Fprintf(tw, "req/item\t%sfitted (--clauses %d)\tgain/req\tfixed\t(interval)\tbackoff\t(base)\tjitter\t(base)\t\n", limitCol(fit.FrontierLimitLabel(pts)), k)
	var knee *fit.FrontierPoint
	for i, p := range pts {
		mark := ""
		if p.Knee {
			mark, knee = " knee", &pts[i]
		}
		fmt.Fprintf(tw, "%.3g%s\t%s%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.RequestsPerItem, mark, limitCol(schedule.FormatAge(p.Limit.Lag.Mean)), schedule.FormatAge(p.Fitted.Lag.Mean), schedule.FormatAge(p.Gain),
			schedule.FormatAge(p.Fixed.Lag.Mean), schedule.FormatAge(p.FixedInterval), schedule.FormatAge(p.Backoff.Lag.Mean), schedule.FormatAge(p.BackoffBase), schedule.FormatAge(p.Jitter.Lag.Mean), schedule.FormatAge(p.JitterBase))
	}
	tw.Flush()
	if note := fit.FrontierLimitNote(pts); note != "" && limits {
		fmt.Fprintf(w, "\n%s: %s\n", fit.FrontierLimitLabel(pts), note)
	}
	if knee != nil {
		fmt.Fprintf(w, "\nknee at %.3g requests per item: from it on, one more request per item buys less than %.0f%% of the mean lag at every budget of the table (there %s of the %s it waits; gain/req: the lag the next request buys, on the fitted schedules)\n",
			knee.RequestsPerItem, 100*fit.KneeShare, schedule.FormatAge(knee.Gain), schedule.FormatAge(knee.Fitted.Lag.Mean))
	}
	if len(base) > 0 {
		fmt.Fprintln(w)
		for _, m := range base {
			fmt.Fprintf(w, "%s: %.3g req/item, mean lag %s: %s\n", m.Name, m.RequestsPerItem, schedule.FormatAge(m.Lag.Mean), m.Schedule)
		}
	}
}
