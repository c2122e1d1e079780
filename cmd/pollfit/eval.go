package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "eval",
		summary: "replay settle-time logs under one or more schedules",
		usage:   "pollfit eval --schedule [NAME=]SPEC... [--count-asks-by 30s,2m,15m] [--horizon D] [--by COLUMN] [--json] LOG...",
		example: `  pollfit eval --schedule before='at 0s 3s 8s 16s 29s, 15s until 2m, 30s' \
               --schedule now='1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m' \
               --count-asks-by 30s,2m,15m testdata/payments.csv

An item whose answer comes at age t is seen by the first ask at an age ≥ t;
its lag is the difference and it costs every ask up to that one. A pending
item costs the asks up to its censoring age; an answer after the last ask or
the horizon is missed. Lag percentiles are nearest-rank over seen items.
The "detected" column (as in --json) counts the items whose answer an ask
saw.
With --histogram each bin's items count, at the bin's midpoint; a histogram
has no creation times or signals, so aligned asks, reset on signal and --plot
stop with an error.
--by COLUMN adds the table for each value of a categorical column
(--json: "by" and "segments", each value's "schedules").
A log is replayed from a sketch of it made in one streaming pass (age bins
0.023% wide, each at its mean age: requests per item to 0.01%, mean lag
to 0.1%), unless a schedule needs the items: one with wall-clock aligned
asks, one that resets on signal when the log has signals, a strategy with
jitter, or --plot.
SPEC is a schedule in the schedule language ('pollfit help schedule'), a
strategy such as 'exponential(initial=1s, factor=2, max=1m)', or @FILE
holding either or an exported JSON document; fit and frontier --baseline,
simulate --strategy and export --schedule read SPEC alike.`,
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			specs := fs.StringArrayP("schedule", "s", nil, "schedule to replay, [NAME=]SPEC: a schedule, a retry strategy or @FILE (repeatable)")
			asksBy := fs.String("count-asks-by", "30s,2m,15m", "ages at which to count the asks to an item that never settles")
			oldAsksBy := fs.String("asks-by", "", "")
			asksByAlias := renamed{"eval", "asks-by", "count-asks-by"}
			asksByAlias.hide(fs)
			horizon := fs.String("horizon", "", "give-up age: stop asking at this age (default: the end of a stopping schedule; for one that never stops, the nice age by which 99% of the log's answers land)")
			asJSON := fs.Bool("json", false, "print JSON")
			seed := fs.Uint64("jitter-seed", 1, "seed of the draws of a strategy with jitter (fit's --seed is the hold-out split)")
			oldSeed := fs.Uint64("seed", 1, "")
			seedAlias := renamed{"eval", "seed", "jitter-seed"}
			seedAlias.hide(fs)
			runs := fs.Int("runs", 20, "realisations of a strategy with jitter (Monte Carlo)")
			plotPath := addPlotFlag(fs)
			force := fs.Bool("force", false, "overwrite an existing --plot file")
			rf := addReadFlags(fs)
			rf.iv = addIntervalReadFlags(fs)
			bf := addByFlag(fs, false)
			return func(e *env, args []string) error {
				if len(*specs) == 0 {
					return usagef("eval: give at least one --schedule")
				}
				if bf.by != "" && *plotPath != "" {
					return usagef("eval: --plot draws all items: run without --by")
				}
				if err := checkPlots(*force, *plotPath); err != nil {
					return err
				}
				if err := seedAlias.take(e, fs, func() { *seed = *oldSeed }); err != nil {
					return err
				}
				if err := asksByAlias.take(e, fs, func() { *asksBy = *oldAsksBy }); err != nil {
					return err
				}
				if len(args) == 0 {
					return usagef("eval: give at least one LOG")
				}
				if *runs < 1 || *runs > fit.MaxStrategyRuns {
					return usagef("eval: --runs must be from 1 to %d, not %d", fit.MaxStrategyRuns, *runs)
				}
				opt := fit.ReplayOptions{}
				var err error
				if opt.AsksBy, err = parseDurationList(*asksBy); err != nil {
					return usagef("eval: --count-asks-by: %v", err)
				}
				if *horizon != "" {
					if opt.Horizon, err = schedule.ParseDuration(*horizon); err != nil || opt.Horizon <= 0 {
						return usagef("eval: --horizon: %v", orPositive(err, *horizon))
					}
				}
				named, err := parseSpecs(*specs)
				if err != nil {
					return err
				}
				if rf.histogram {
					if err := histogramLimits(args, named, *plotPath != ""); err != nil {
						return err
					}
				}
				var in *source.Input
				var notes []string // on interval-censored input
				if bf.by != "" {
					in, err = rf.readGroups(e, args, "eval", bf.by, source.Needs{Always: "a replay per value"}, fit.StudyOptions{Seed: 1})
				} else {
					in, notes, err = rf.evalInput(e, args, evalNeeds(named, *plotPath != ""))
				}
				if err != nil {
					return err
				}
				segs, smp, stats := in.Groups, in.All, in.Stats
				var giveUp *fit.GiveUp
				if opt.Horizon == 0 && neverStops(named) {
					g := fit.SampleGiveUp(smp, 0, "the log")
					giveUp, opt.Horizon = &g, g.Age
				}
				ms, err := replayAll(e.context(), named, smp, opt, *horizon != "", *seed, *runs)
				if err != nil {
					return err
				}
				if *plotPath != "" {
					if err := writePlot(*plotPath, *force, e.stdout, evalPlot(smp, named, ms)); err != nil {
						return err
					}
				}
				rows := evalRows(named, ms)
				if bf.by != "" {
					return evalGroups(e, segs, named, opt, rows, stats, giveUp, evalRun{*horizon != "", *seed, *runs, *asJSON, bf.by})
				}
				if *asJSON {
					return printEvalJSON(e, opt.Horizon, rows)
				}
				printEvalTable(e, rows, stats, giveUp, notes)
				return nil
			}
		},
	})
}

// evalNeeds says what per-item data replaying the named schedules needs:
// every row for a strategy with jitter (each item draws its own waits)
// and --plot (withPlot); creation times for wall-clock aligned asks and
// signals for reset on signal, which the item sample keeps.
func evalNeeds(named []namedSchedule, withPlot bool) source.Needs {
	var n source.Needs
	if withPlot {
		n.Always = "--plot"
	}
	for _, s := range named {
		switch {
		case s.sched == nil:
			n.Always = "a strategy with jitter"
		case len(s.sched.Aligned) > 0:
			n.Aligned = "schedule " + s.name + "'s wall-clock aligned asks"
		case s.sched.ResetOnSignal:
			n.Signals, n.Resets = true, "schedule "+s.name
		}
	}
	return n
}

// evalInput reads eval's input: sketches as they are (saying what their
// item sample cannot serve), raw logs into a sketch holding nothing out
// (its bins, or its item sample when n needs it), or into items when n
// needs every row; interval-censored input spread, with the notes to
// print beside the table.
func (r *readFlags) evalInput(e *env, args []string, n source.Needs) (*source.Input, []string, error) {
	if in, notes, ok, err := r.intervalEvalInput(e.context(), args); ok {
		return in, notes, err
	}
	in, err := r.read(e, args, "eval", source.Options{Seed: 1, Needs: n, SampleRows: sampleRows})
	if err != nil {
		return in, nil, err
	}
	if in.Sketch != nil && !in.FromLog && !r.quiet {
		for _, note := range in.Notes {
			fmt.Fprintf(e.stderr, "pollfit: note: %s\n", note)
		}
	}
	var notes []string
	if in.Sketch != nil && in.Sketch.HasIntervals() {
		notes = []string{sketchExpected(in.Sketch)}
	}
	return in, notes, nil
}

// neverStops reports whether any schedule never stops: those give up at
// the default give-up age.
func neverStops(named []namedSchedule) bool {
	for _, n := range named {
		if n.sched != nil && !n.sched.Stops() {
			return true
		}
	}
	return false
}

// evalRows are the replays with each schedule's stuck cost: its asks by
// the age it gave up at (for a strategy with jitter, the median over the
// realisations, as its other figures).
func evalRows(named []namedSchedule, ms []fit.Metrics) []fit.Row {
	rows := make([]fit.Row, len(ms))
	for i, m := range ms {
		switch s := named[i].sched; {
		case s != nil:
			rows[i] = fit.ScheduleRow(s, m)
		case m.Spread != nil:
			rows[i] = fit.RowOf(m, m.Spread.StuckAsks)
		default:
			rows[i] = fit.RowOf(m, math.NaN())
		}
	}
	return rows
}

// replayAll replays each named schedule or strategy on smp: a stopping
// schedule to its own end unless a horizon is given.
func replayAll(ctx context.Context, named []namedSchedule, smp fit.Sample, opt fit.ReplayOptions, given bool, seed uint64, runs int) ([]fit.Metrics, error) {
	var ms []fit.Metrics
	for _, n := range named {
		o := opt
		if n.sched != nil && n.sched.Stops() && !given {
			o.Horizon = 0 // its own end
		}
		m, err := n.replay(ctx, smp, o, seed, runs)
		if err != nil {
			return nil, fmt.Errorf("eval: %s: %w", n.name, err)
		}
		ms = append(ms, m)
	}
	return ms, nil
}

// histogramLimits stops eval on histograms (paths) when a schedule needs
// what a histogram does not have, creation times for wall-clock aligned
// asks and signals for reset on signal, or --plot (withPlot), whose lag
// curves take the items one by one.
func histogramLimits(paths []string, named []namedSchedule, withPlot bool) error {
	what := strings.Join(paths, ", ") + " is a histogram"
	if len(paths) > 1 {
		what = strings.Join(paths, ", ") + " are histograms"
	}
	for _, n := range named {
		switch {
		case n.sched == nil:
		case len(n.sched.Aligned) > 0:
			return usagef("eval: %s: it has no creation times, which wall-clock aligned asks need (schedule %s)", what, n.name)
		case n.sched.ResetOnSignal:
			return usagef("eval: %s: it has no signals, which reset on signal needs (schedule %s)", what, n.name)
		}
	}
	if withPlot {
		return usagef("eval: --plot: %s: the lag curves take items one by one; give the raw log", what)
	}
	return nil
}

func orPositive(err error, s string) error {
	if err != nil {
		return err
	}
	return fmt.Errorf("must be positive, not %s", s)
}

// parseDurationList reads "30s,2m,15m"; "" is an empty list.
func parseDurationList(s string) ([]time.Duration, error) {
	var out []time.Duration
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		d, err := schedule.ParseDuration(f)
		if err != nil {
			return nil, err
		}
		out = append(out, d)
	}
	return out, nil
}

func printEvalJSON(e *env, horizon time.Duration, ms []fit.Row) error {
	out := struct {
		Horizon   float64   `json:"horizon_s"`
		Schedules []fit.Row `json:"schedules"`
	}{horizon.Seconds(), ms}
	return writeJSON(e.stdout, out)
}

func printEvalTable(e *env, ms []fit.Row, stats logs.Stats, g *fit.GiveUp, notes []string) {
	fmt.Fprintf(e.stdout, "%d items: %d final, %d pending", stats.Final+stats.Pending, stats.Final, stats.Pending)
	if n := skippedTotal(stats); n > 0 {
		fmt.Fprintf(e.stdout, ", %d rows skipped", n)
	}
	fmt.Fprintln(e.stdout)
	for _, n := range notes {
		fmt.Fprintf(e.stdout, "note: %s\n", n)
	}
	if g != nil {
		fmt.Fprintf(e.stdout, "a schedule that never stops gives up at %s (%s; --horizon to change)\n", schedule.FormatDuration(g.Age), g.Reason)
	}
	fmt.Fprintln(e.stdout)
	writeEvalRows(e.stdout, ms)
	fmt.Fprintln(e.stdout)
	labels := evalLabels(ms)
	for i, m := range ms {
		switch {
		case labels[i] != m.Name && m.Name != m.Schedule: // a long strategy: #i, its spec and its asks
			fmt.Fprintf(e.stdout, "%s: %s: %s\n", labels[i], m.Name, m.Schedule)
		case labels[i] != m.Schedule: // a short unnamed schedule's name is its text already
			fmt.Fprintf(e.stdout, "%s: %s\n", labels[i], m.Schedule)
		case m.Spread != nil:
			fmt.Fprintf(e.stdout, "%s:\n", labels[i])
		}
		if sp := m.Spread; sp != nil {
			fmt.Fprintf(e.stdout, "  medians of %d realisations; 10th-90th percentile: lag mean %s-%s, req/item %.2f-%.2f\n",
				sp.Runs, schedule.FormatAge(sp.LagMean[0]), schedule.FormatAge(sp.LagMean[1]), sp.RequestsPerItem[0], sp.RequestsPerItem[1])
		}
	}
}

// writeEvalRows is eval's table of replays.
func writeEvalRows(w io.Writer, ms []fit.Row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "name\tdetected\tmissed\tpending\tlag mean\tp50\tp90\tp95\tp99\tmax\treq/item\tstuck"
	if len(ms) > 0 {
		for _, d := range ms[0].AsksByAges {
			head += "\tby " + schedule.FormatDuration(d)
		}
	}
	fmt.Fprintln(tw, head+"\thorizon\t")
	labels := evalLabels(ms)
	for i, m := range ms {
		l := m.Lag
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%.2f\t%s", labels[i], count(m.Detected), count(m.Missed), count(m.Pending),
			schedule.FormatAge(l.Mean), schedule.FormatAge(l.P50), schedule.FormatAge(l.P90), schedule.FormatAge(l.P95), schedule.FormatAge(l.P99), schedule.FormatAge(l.Max), m.RequestsPerItem, count(m.Stuck))
		for _, a := range m.AsksBy {
			fmt.Fprintf(tw, "\t%s", count(a))
		}
		fmt.Fprintf(tw, "\t%s\t\n", schedule.FormatDuration(m.Horizon.Round(time.Millisecond)))
	}
	tw.Flush()
}

// maxEvalName is the widest name eval's table shows; a longer one (an
// unnamed schedule or strategy, named by its text) is shown as #1, #2,
// ... (its place on the command line) and spelled out under the table.
const maxEvalName = 24

// evalLabels are the table's names: each row's, or #i for one longer
// than maxEvalName.
func evalLabels(ms []fit.Row) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
		if len(m.Name) > maxEvalName {
			out[i] = fmt.Sprintf("#%d", i+1)
		}
	}
	return out
}

func skippedTotal(stats logs.Stats) int64 {
	var n int64
	for _, c := range stats.Skipped {
		n += c
	}
	return n
}

// count formats a count that may be fractional (expected aligned asks).
func count(x float64) string {
	if x == math.Trunc(x) {
		return fmt.Sprintf("%.0f", x)
	}
	return fmt.Sprintf("%.1f", x)
}
