package main

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "fit",
		summary: "fit the best polling schedule to settle-time logs or a model",
		usage:   "pollfit fit (--requests-per-item N | --asks-by N@T | --price P | --max-attempts N) [--by COLUMN] [flags] (LOG... | --model M)",
		example: `  pollfit fit --requests-per-item 8 --horizon 15m payments.csv
  pollfit fit --baseline now='1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m' payments.csv
  pollfit fit --asks-by 40@15m --clauses 6 payments.csv
  pollfit fit --max-attempts 8 --horizon 3.5d --first-ask 10s outages.csv
  pollfit fit --price 0.5 --model 'lognormal(median=12s, sigma=0.5)' --json
  pollfit fit --requests-per-item 10 --format go payments.csv > poll_gen.go
  pollfit fit --by method --requests-per-item 8 mixed.csv

The fit minimises the mean lag (time from the answer to the ask that sees
it; --objective rms for the root-mean-square lag) at one budget:
--requests-per-item caps the mean requests per item (requests stop when the
answer is seen), --asks-by N@T caps the asks to an item that never settles
by age T (and stops there), --max-attempts caps all asks up to --horizon,
and --price P minimises lag + P seconds × requests per item. Without a
budget, the first --baseline's cost is the budget.

Every schedule gives up at one age (--horizon; by default the nice age by
which 99% of the answers land, said with its reason) and is replayed and
costed to it: answers after it are missed, and a stuck item (one that never
answers) costs every ask up to it. That stuck cost is capped (--stuck-asks;
by default a baseline's own when its cost is the budget, else 8 × the
requests budget).

It reports the schedule to ship (at most --clauses clauses of nice
intervals, an "at" list of explicit asks counting as one clause for up to
four asks; the first ask at --first-ask, 0 by default, and a line saying
what it buys; --clauses 0 for the exact ask ages; 'pollfit help fitting'
has the rules), the limit (the exact optimum on the very items the table
measures, at the fitted schedule's cost there), the exact optimum fitted on
the fitting items, and each baseline
with the fit at its cost, on a random --holdout share of the log it was not
fitted on. A model has no hold-out: its figures are exact.

On a log the exact optimum is fitted to the fitting items' density,
smoothed on a log-age axis with the kernel bandwidth that generalises
best: the exact fit at the budget on each half of the fitting items is
scored on the other half, at the density estimate's own bandwidth (ISJ)
times 0.5, 0.71, 1, 1.41 and 2, and another than ISJ's is taken only when
it does better by two standard errors (ISJ's stands below 1,000 fitting
items). --smooth=H sets the bandwidth, --smooth=false fits the raw items.

A log is read in one streaming pass (in parallel) into a sketch of the
--holdout split, made by a hash of each row as 'pollfit sketch' makes it,
and fitted from that: the same result as fitting its sketch file. When
the fit needs what the bins do not keep, because the log has signals
(unless --signals=false), its settle times show a batch period (unless
--batches=false) or a baseline asks by the wall clock, it is fitted and
measured on the sketch's item sample instead, made in the same pass:
the rows of each part with the least hash, each with its creation time
and signal, all of them up to 32768 rows a part, beyond that a uniform
sample by hash of 32768 rows, each weighted by the rows it stands for.
Memory stays flat in the rows; only --histogram reads the log into items.

--by COLUMN fits one schedule per value of a categorical column (at most
1000 values), each with its own hold-out, give-up age and shapes. It opens
with each value's decision ("method card: shipping fitted vs prod: ..."):
what shipping its schedule changes against its first baseline, measured
on the value's held-out items, or without one against the one schedule,
in requests per item and mean lag, each with its bootstrap interval.
--baseline NAME=SPEC is every value's baseline; --baseline
VALUE:NAME=SPEC (card:prod='2s until 1m', a value with other characters
quoted: '"bank transfer":prod=...') is one value's, compared before
every value's. The requests budget (without one, what the first
baseline for every value spends on all fitting items; with baselines of
single values only, give --requests-per-item) is the mean over all
items, shared where the next request
buys the most lag: each value's lag-versus-cost curve is fitted on its
fitting items and the budget goes to the value whose next request saves
the most, until the last request buys the same lag everywhere
(--budget-per-group gives each value the budget instead). A value with
fewer than --min-group final answers (default 200) to fit on follows the
one schedule fitted to all items, its cost coming out of the budget first.
The table gives each value's share, held-out lag, cost, budget, stuck cost,
give-up age and schedule, the totals, the one schedule at the same budget
on the same items, and "segmenting: N% less mean lag". -f dsl prints
VALUE: SCHEDULE lines, then "*: " and the one schedule for other values;
-f go a Segments value with For(value); -f js and ts a module whose
scheduleFor(value) returns the API (asks, next, BackOff, ...) of the
value's schedule; -f kotlin the object Poll and a class PollSchedule of
the same API, whose PollSchedule.scheduleFor(value) returns the value's
schedule; -f json a map from value to schedule document; each gives the
one schedule for a value not fitted. --by reads logs, and sketches made
with pollfit sketch --by (or pollfit sql --by) the same column, not
histograms. A log is read into a sketch per value in one pass, as
pollfit sketch --by writes it, unless it has signals or settles in
batches; each value's bins (or items) are then split into fitting and
held-out ones by --holdout and --seed, bins thinned binomially, so that
a log and its sketch --by fit alike.

Without --by, a column the read did not use is named on stderr when its
values answer at clearly different ages: medians at least 3× apart among
the values with 200 final answers or more, which hold 90% of them (at most
4 columns of at most 20 values, logs of up to 2 million rows).`,
		flags: fitFlags,
	})
}

// fitFlagValues are the fit and frontier flags shared.
type fitFlagValues struct {
	requests, price                          float64
	asksBy                                   string
	maxAttempts, clauses, oldClauses         int
	horizon, firstAsk, minIval, maxIval, obj string
	nice                                     bool
	model                                    string
	baselines                                []string
	holdout                                  float64
	seed                                     uint64
	countBy                                  string
	smooth                                   smoothFlag
	signals                                  bool
	stuckAsks, bootstrap                     int
	family, grpcClient                       string
	deadlines, batches                       bool
	fs                                       *pflag.FlagSet
}

// splitGiven reports whether --holdout or --seed was given: a sketch's
// own split must then be the one asked for.
func (v *fitFlagValues) splitGiven() bool {
	return v.fs.Changed("holdout") || v.fs.Changed("seed")
}

func addFitFlags(fs *pflag.FlagSet) *fitFlagValues {
	v := &fitFlagValues{fs: fs}
	fs.Float64Var(&v.requests, "requests-per-item", 0, "budget: mean requests per item at most N")
	fs.StringVar(&v.asksBy, "asks-by", "", "budget: at most N asks by age T to an item that never settles, as N@T (e.g. 40@15m)")
	fs.Float64Var(&v.price, "price", 0, "budget: minimise mean lag + P seconds × requests per item")
	fs.IntVar(&v.maxAttempts, "max-attempts", 0, "budget: at most N asks in all, the last at --horizon")
	fs.StringVar(&v.horizon, "horizon", "", "give-up age: the poller stops asking there and every schedule is costed to it (default: the nice age by which 99% of answers land; never: a schedule that never stops)")
	fs.StringVar(&v.family, "family", "", "also fit the best member of a retry library's family at the budget: exponential or grpc (export it with -f grpc)")
	fs.StringVar(&v.grpcClient, "grpc-client", "", "with --family grpc: "+grpcClientHelp)
	fs.IntVar(&v.bootstrap, "bootstrap", 200, "resamples of the held-out items for 95% intervals on the figures (0: none)")
	fs.IntVar(&v.stuckAsks, "stuck-asks", 0, "cap on the asks by the give-up age to an item that never answers (default: a baseline's own when its cost is the budget, else 8 × the requests budget)")
	fs.StringVar(&v.firstAsk, "first-ask", "0", "age of the first ask")
	fs.StringVar(&v.minIval, "min-interval", "", "shortest gap between asks")
	fs.StringVar(&v.maxIval, "max-interval", "", "longest gap between asks")
	fs.StringVar(&v.obj, "objective", "mean", "what to minimise: mean or rms lag")
	fs.IntVar(&v.clauses, "clauses", 4, "most clauses of constant interval; 0 for the exact ask ages")
	fs.IntVar(&v.oldClauses, "segments", 4, "")
	clausesRenamed.hide(fs)
	fs.BoolVar(&v.nice, "nice", true, "nice intervals and boundaries, as pollfit help fitting lists them (false: about two significant digits)")
	fs.StringVar(&v.model, "model", "", "fit to a model such as 'lognormal(median=12s, sigma=0.5)' instead of logs")
	fs.StringArrayVar(&v.baselines, "baseline", nil, "a schedule to compare with, NAME=SPEC: a schedule, a deterministic retry strategy or @FILE (repeatable)")
	fs.Float64Var(&v.holdout, "holdout", 0.3, "share of a log held out to measure on (0: measure on the fitting items)")
	fs.Uint64Var(&v.seed, "seed", 1, "seed of the hold-out split")
	fs.StringVar(&v.countBy, "count-asks-by", "30s,2m,15m", "ages at which to count the asks to an item that never settles")
	fs.BoolVar(&v.signals, "signals", true, "add \"reset on signal\" when the log's signals make it pay on the fitting items")
	fs.BoolVar(&v.deadlines, "deadlines", true, "add a burst of asks just after a deadline the log shows (a spike of answers at a timeout) when it pays on the fitting items")
	fs.BoolVar(&v.batches, "batches", true, "add wall-clock aligned asks just after each batch boundary the log shows when they pay on the fitting items")
	addSmoothFlag(fs, &v.smooth)
	return v
}

// options turns the flags into fit options (the budget may stay empty
// for the caller to fill from a baseline).
func (v *fitFlagValues) options() (fit.Options, error) {
	var opt fit.Options
	dur := func(name, s string) (time.Duration, error) {
		if s == "" {
			return 0, nil
		}
		d, err := schedule.ParseDuration(s)
		if err != nil || d < 0 {
			return 0, usagef("--%s %q: %v", name, quote.Clip(s), orPositive(err, s))
		}
		return d, nil
	}
	var err error
	if strings.EqualFold(strings.TrimSpace(v.horizon), "never") {
		opt.Horizon = fit.Never
	} else if opt.Horizon, err = dur("horizon", v.horizon); err != nil {
		return opt, err
	}
	if opt.FirstAsk, err = dur("first-ask", v.firstAsk); err != nil {
		return opt, err
	}
	if opt.MinInterval, err = dur("min-interval", v.minIval); err != nil {
		return opt, err
	}
	if opt.MaxInterval, err = dur("max-interval", v.maxIval); err != nil {
		return opt, err
	}
	switch strings.ToLower(v.obj) {
	case "mean":
	case "rms":
		opt.Objective = fit.RMS
	default:
		return opt, usagef("--objective %q: want mean or rms", quote.Clip(v.obj))
	}
	switch {
	case v.clauses < 0 || v.clauses > maxClauses:
		return opt, usagef("--clauses must be from 0 to %d, not %d", maxClauses, v.clauses)
	case v.clauses == 0:
		opt.Exact = true
	default:
		opt.Clauses = v.clauses
	}
	opt.AnyValues = !v.nice
	opt.Budget = fit.Budget{RequestsPerItem: v.requests, Price: v.price, MaxAttempts: v.maxAttempts}
	if v.asksBy != "" {
		k, d, err := parseAsksBy(v.asksBy)
		if err != nil {
			return opt, err
		}
		opt.Budget.AsksBy, opt.Budget.AsksByAge = k, d
	}
	return opt, nil
}

// positiveBudget refuses a budget flag given as zero or less, which
// would otherwise read as no budget at all.
func (v *fitFlagValues) positiveBudget(cmd string) error {
	if v.fs == nil {
		return nil
	}
	for _, f := range []struct {
		name string
		x    float64
	}{{"requests-per-item", v.requests}, {"price", v.price}, {"max-attempts", float64(v.maxAttempts)}} {
		if v.fs.Changed(f.name) && !(f.x > 0) {
			return usagef("%s: --%s %g: must be positive", cmd, f.name, f.x)
		}
	}
	return nil
}

// parseAsksBy reads --asks-by N@T: N ≥ 1 asks by a positive age T (the
// library refuses more than fit.MaxBudgetAsks).
func parseAsksBy(s string) (int, time.Duration, error) {
	n, t, ok := strings.Cut(s, "@")
	k, err := strconv.Atoi(strings.TrimSpace(n))
	d, derr := schedule.ParseDuration(strings.TrimSpace(t))
	if !ok || err != nil || derr != nil || k < 1 || d <= 0 {
		return 0, 0, usagef("--asks-by %q: want N@T, as in 40@15m", quote.Clip(s))
	}
	return k, d, nil
}

// clausesRenamed is --clauses' old spelling: "segment" is a value of
// --by's column, a clause a part of a schedule.
var clausesRenamed = renamed{"", "segments", "clauses"}

// useRenamed takes the old spellings of renamed flags given, warning on
// stderr; cmd names the command in the warning.
func (v *fitFlagValues) useRenamed(e *env, cmd string) error {
	return clausesRenamed.in(cmd).take(e, v.fs, func() { v.clauses = v.oldClauses })
}

// studyOptions are the flags as fit.StudyOptions.
func (v *fitFlagValues) studyOptions(cmd string) (fit.StudyOptions, error) {
	o, err := v.options()
	if err != nil {
		return fit.StudyOptions{}, err
	}
	o.StuckAsks = v.stuckAsks
	if v.bootstrap < 0 || v.bootstrap > maxBootstrap {
		return fit.StudyOptions{}, usagef("%s: --bootstrap must be from 0 to %d, not %d", cmd, maxBootstrap, v.bootstrap)
	}
	countBy, err := parseDurationList(v.countBy)
	if err != nil {
		return fit.StudyOptions{}, usagef("%s: --count-asks-by: %v", cmd, err)
	}
	baselines, err := parseBaselines(v.baselines)
	if err != nil {
		return fit.StudyOptions{}, err
	}
	if err := v.positiveBudget(cmd); err != nil {
		return fit.StudyOptions{}, err
	}
	if v.grpcClient != "" {
		if v.family != "grpc" {
			return fit.StudyOptions{}, usagef("%s: --grpc-client applies to --family grpc only", cmd)
		}
		if _, err := backoff.GRPCClientNamed(v.grpcClient); err != nil {
			return fit.StudyOptions{}, usagef("%s: --grpc-client: %v", cmd, err)
		}
	}
	so := fit.StudyOptions{Options: o, Holdout: v.holdout, Seed: v.seed, Rough: v.smooth.off, Bandwidth: v.smooth.bandwidth, Bootstrap: v.bootstrap, Family: v.family, GRPCClient: v.grpcClient,
		NoDeadlines: !v.deadlines, NoBatches: !v.batches, NoSignals: !v.signals, AsksBy: countBy}
	for _, b := range baselines {
		so.Baselines = append(so.Baselines, fit.Baseline{Name: b.name, Schedule: b.sched})
	}
	if err := so.Validate(); err != nil {
		return fit.StudyOptions{}, fmt.Errorf("%s: %w", cmd, err) // before any log is read
	}
	return so, nil
}

// maxClauses is the most clauses --clauses takes: the quantiser's
// programme grows with them, and no one reads a schedule of more.
const maxClauses = 12

// maxBootstrap is the most resamples --bootstrap takes.
const maxBootstrap = 10000

func fitFlags(fs *pflag.FlagSet) func(*env, []string) error {
	v := addFitFlags(fs)
	format := fs.StringP("format", "f", "", "print only the schedule, as "+strings.Join(export.Formats, ", "))
	asJSON := fs.Bool("json", false, "print the result as JSON")
	plotPath := addPlotFlag(fs)
	itemsPath := fs.String("plot-items", "", "also draw thirty held-out items under the fitted schedule and the first baseline to this file, .svg or .png")
	force := fs.Bool("force", false, "overwrite an existing --plot or --plot-items file")
	explore := fs.Float64("explore", 0, "also print what exploring F of each gap costs (pollfit export --explore F): its expected mean lag and requests per item on the held-out items")
	rf := addReadFlags(fs)
	rf.iv = addIntervalReadFlags(fs)
	bf := addByFlag(fs, true)
	return func(e *env, args []string) error {
		if err := v.useRenamed(e, "fit"); err != nil {
			return err
		}
		if err := bf.useRenamed(e, "fit"); err != nil {
			return err
		}
		if err := checkExploreFlag(*explore, *format, bf.by, v.model); err != nil {
			return err
		}
		grpc := strings.EqualFold(*format, "grpc")
		if *format != "" && !grpc && !slices.Contains(export.Formats, strings.ToLower(*format)) {
			return usagef("fit: unknown --format %q (want %s or grpc)", quote.Clip(*format), strings.Join(export.Formats, ", "))
		}
		if grpc && v.family != "grpc" {
			return usagef("fit: --format grpc writes a gRPC retry policy: give --family grpc")
		}
		if *format != "" && *asJSON {
			return usagef("fit: give --format or --json, not both")
		}
		if *itemsPath != "" && v.model != "" {
			return usagef("fit: --plot-items: the items picture needs a log, not --model")
		}
		if err := checkPlots(*force, *plotPath, *itemsPath); err != nil {
			return err
		}
		if bf.by != "" {
			if *itemsPath != "" {
				return usagef("fit: --plot-items draws one schedule's items: leave out --by")
			}
			return fitGroups(e, rf, v, bf, args, *format, *asJSON, *plotPath)
		}
		rep, err := runStudy(e, rf, v, args, "fit")
		if err != nil {
			return err
		}
		rep.hint.say(e.stderr)
		if *explore > 0 {
			c, err := fit.StudyExplored(rep.res, *explore)
			if err != nil {
				return fmt.Errorf("fit: --explore: %w", err)
			}
			rep.explore = &c
		}
		if *plotPath != "" {
			if err := writePlot(*plotPath, *force, e.stdout, plot.HazardOf(rep.res)); err != nil {
				return err
			}
		}
		if *itemsPath != "" {
			f := plot.ItemsOf(rep.res)
			if f == nil {
				return usagef("fit: --plot-items: the items picture needs a log's items, not a histogram or a sketch")
			}
			if err := writePlot(*itemsPath, *force, e.stdout, f); err != nil {
				return err
			}
		}
		switch {
		case grpc:
			if rep.res.Library == nil {
				return fmt.Errorf("fit: no gRPC retry policy fits the budget and the stuck cap")
			}
			return writeGRPC(e, "fit", "", false, rep.res.Library.Strategy, export.GRPCOptions{Client: v.grpcClient})
		case *format != "":
			return export.Write(e.stdout, *format, rep.res.Schedule, rep.meta(), export.GoOptions{Args: e.args})
		case *asJSON:
			return rep.writeJSON(e.stdout)
		}
		rep.writeText(e.stdout)
		return nil
	}
}

// runStudy reads the input the flags name and runs fit.Study on it.
func runStudy(e *env, rf *readFlags, v *fitFlagValues, args []string, cmd string) (*fitReport, error) {
	opt, err := v.studyOptions(cmd)
	if err != nil {
		return nil, err
	}
	opt.Frontier = cmd == "report" // the report draws the fit's frontier
	rep := &fitReport{}
	if v.model != "" {
		if len(args) > 0 {
			return nil, usagef("%s: give --model or LOG files, not both", cmd)
		}
		m, err := estimate.ParseModel(v.model)
		if err != nil {
			return nil, usagef("%s: --model: %v", cmd, err)
		}
		rep.source = "model " + m.String()
		if rep.res, err = fit.StudyModel(e.context(), m, opt); err != nil {
			return nil, fmt.Errorf("%s: %w", cmd, err)
		}
		flagResult(rep.res)
		return rep, nil
	}
	if len(args) == 0 {
		return nil, usagef("%s: give LOG files or --model", cmd)
	}
	in, err := rf.studyInput(e, args, cmd, v, opt.Baselines)
	if err != nil {
		return nil, err
	}
	opt = in.studyOptions(opt)
	rep.sample, rep.heldOut, rep.opt = in.FitOn, in.HeldOut, opt
	rep.source = inputSource(args, in)
	line := newStageLine(e, cmd, rf.quiet)
	opt.Progress = line.progress()
	// The hint reads the logs again, on one core: beside the study, which
	// leaves one idle now and then, rather than after it.
	rep.hint = rf.lookForHint(e.context(), args, in.Stats)
	rep.res, err = fit.Study(e.context(), in.FitOn, in.HeldOut, opt)
	line.stop()
	if err != nil {
		rep.hint.wait()
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	flagResult(rep.res)
	rep.res.Notes = append(in.Notes, rep.res.Notes...)
	if !rf.quiet {
		for _, n := range rep.res.Notes {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", n)
		}
	}
	return rep, nil
}
