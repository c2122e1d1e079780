package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "estimate",
		summary: "estimate the settle-time distribution of logs: quantiles, survival, deadlines, batches",
		usage:   "pollfit estimate [--by COLUMN] [flags] LOG...",
		example: `  pollfit estimate payments.csv
  pollfit estimate --quantiles 0.5,0.99 --survival-at 30s,2m logs/
  pollfit estimate --json --grid density.csv payments.parquet
  pollfit estimate --plot density.svg payments.csv

Quantiles and survival are Kaplan–Meier estimates, so pending items count
as censored rather than being dropped; a quantile the data do not reach
is shown as "not reached". --grid writes the smoothed density f, survival
S and hazard f/S on a log-spaced age grid (see package estimate); --plot
draws the density with deadlines and their shares marked. --by COLUMN
prints one summary per value of a categorical column (at most 64 values).

A poller's own log (one row per ask: id, created_at, asked_at, status;
or one row per item: created_at, last_pending_at, first_final_at,
status) or a latency metric (a Prometheus histogram in the text format,
--since an earlier scrape for a window, or an OpenTelemetry exponential
histogram in OTLP JSON) is read as interval-censored ages and estimated
by Turnbull's NPMLE; metrics count only answers, so --pending N or
--never SHARE says how many never answered.`,
		flags: func(fs *pflag.FlagSet) func(*env, []string) error {
			rf := addReadFlags(fs)
			asJSON := fs.Bool("json", false, "print the summary as JSON")
			qflag := fs.StringSlice("quantiles", []string{"0.5", "0.9", "0.95", "0.99"}, "quantiles to report (shares of items answered)")
			at := fs.StringSlice("survival-at", []string{"10s", "60s", "300s"}, "ages at which to report the share still unanswered (durations such as 90s, 5m or 1d, or seconds)")
			grid := fs.String("grid", "", "write the density grid (t,f,S,hazard) as CSV to this file")
			plotPath := addPlotFlag(fs)
			force := fs.Bool("force", false, "overwrite an existing --grid or --plot file")
			bf := addByFlag(fs, false)
			iv := addIntervalFlags(fs)
			return func(e *env, args []string) error {
				if len(args) == 0 {
					return usagef("estimate: no log given (pollfit estimate [flags] LOG...)")
				}
				if err := checkOutput(*grid, *force); err != nil {
					return err
				}
				if err := checkPlots(*force, *plotPath); err != nil {
					return err
				}
				ages, err := parseAges(*at)
				if err != nil {
					return err
				}
				qs := make([]float64, len(*qflag))
				for i, q := range *qflag {
					v, err := strconv.ParseFloat(strings.TrimSpace(q), 64)
					if err != nil || !(v > 0 && v < 1) {
						return usagef("estimate: --quantiles %q: want shares between 0 and 1, such as 0.5,0.99", quote.Clip(q))
					}
					qs[i] = v
				}
				if opt, err := rf.options(); err != nil {
					return err
				} else if kind := iv.intervalInput(args, opt); kind != "" {
					if bf.by != "" || *plotPath != "" {
						return usagef("estimate: --by and --plot do not take a poller log or a metric yet")
					}
					iv.grid, iv.force, iv.quiet = *grid, *force, rf.quiet
					return iv.estimateIntervals(e, opt, args, qs, *at, ages, *asJSON)
				}
				if bf.by != "" {
					if *grid != "" || *plotPath != "" {
						return usagef("estimate: --grid and --plot describe all items: run without --by")
					}
					return estimateGroups(e, rf, bf.by, args, qs, *at, ages, *asJSON)
				}
				var accs []*estimate.Accumulator
				in, err := rf.read(e, args, "estimate", source.Options{Stream: func() func([]estimate.Item, []float64) {
					a := &estimate.Accumulator{}
					accs = append(accs, a)
					return a.AddRun
				}})
				if err != nil {
					return err
				}
				st := in.Stats
				acc := accs[0]
				for _, a := range accs[1:] {
					acc.Merge(a)
				}
				sum := summarize(acc, st, qs, *at, ages)
				if !rf.quiet {
					for _, w := range sum.warnings {
						fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", w)
					}
					if h := rf.byHint(e.context(), args, st); h != "" {
						fmt.Fprintf(e.stderr, "pollfit: note: %s\n", h)
					}
				}
				if *grid != "" {
					if err := writeOutput(*grid, *force, e.stdout, sum.dist.WriteGrid); err != nil {
						return err
					}
				}
				if *plotPath != "" {
					if err := writePlot(*plotPath, *force, e.stdout, estimatePlot(sum.dist)); err != nil {
						return err
					}
				}
				if *asJSON {
					return writeJSON(e.stdout, sum.report)
				}
				return sum.writeText(e.stdout)
			}
		},
	})
}

// parseAges reads --survival-at values: durations as the schedule
// language writes them (schedule.ParseDuration, with d for a day), or
// bare seconds.
func parseAges(in []string) ([]float64, error) {
	out := make([]float64, len(in))
	for i, s := range in {
		v, err := parseAge(s)
		if err != nil {
			return nil, usagef("estimate: --survival-at %q: want a duration such as 90s, 5m or 1d, or seconds", quote.Clip(s))
		}
		out[i] = v
	}
	return out, nil
}

func parseAge(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		if !(v >= 0 && v <= schedule.MaxAge.Seconds()) {
			return 0, fmt.Errorf("age %q out of range", quote.Clip(s))
		}
		return v, nil
	}
	d, err := schedule.ParseDuration(s)
	if err != nil {
		return 0, err
	}
	return d.Seconds(), nil
}

// estimateReport is the --json output.
type estimateReport struct {
	Items      int64                  `json:"items"`
	Final      int64                  `json:"final"`
	Settled    float64                `json:"settled"`
	Failed     float64                `json:"failed"`
	Pending    int64                  `json:"pending"`
	Skipped    int64                  `json:"skipped"`
	Never      float64                `json:"never"`
	Quantiles  map[string]*float64    `json:"quantiles_s"`
	QuantileCI map[string][2]*float64 `json:"quantiles_ci95_s"`
	Survival   map[string]float64     `json:"survival_at"`
	Deadlines  []deadlineJSON         `json:"deadlines"`
	Period     *periodJSON            `json:"periodicity"`
	// PeriodTested is false when no final item has a creation time, so
	// that no test for batches ran (Period is then null for that, not
	// for a test that found none).
	PeriodTested bool      `json:"periodicity_tested"`
	Modes        []float64 `json:"modes_s"`
	Bandwidth    float64   `json:"bandwidth_log"`
	Resolution   float64   `json:"age_resolution_s"`
}

type deadlineJSON struct {
	Age    float64  `json:"age_s"`
	Spread float64  `json:"spread_s,omitempty"` // omitted for an exact atom
	Share  float64  `json:"share"`
	Failed *float64 `json:"failed_share,omitempty"`
}

type periodJSON struct {
	Period float64 `json:"period_s"`
	Phase  float64 `json:"phase_s"`
	Share  float64 `json:"share"`
	PValue float64 `json:"p_value"`
}

// quantileKey names a quantile as in the JSON: 0.5 → p50, 0.999 → p99.9.
// The percentage is rounded to 10 digits: 100·0.95 is not 95 in floating
// point.
func quantileKey(q float64) string {
	pc, _ := strconv.ParseFloat(strconv.FormatFloat(100*q, 'g', 10, 64), 64)
	return "p" + strconv.FormatFloat(pc, 'f', -1, 64)
}

// summary is what estimate reports, with the distribution for --grid.
type summary struct {
	report   estimateReport
	qs       []float64
	atKeys   []string
	ci       map[string][2]float64
	dist     *estimate.Dist
	warnings []string
}

func summarize(acc *estimate.Accumulator, st logs.Stats, qs []float64, atKeys []string, ages []float64) *summary {
	period := make(chan *estimate.Period, 1) // beside the rest, which only reads acc too
	go func() { period <- estimate.Periodicity(acc, estimate.PeriodOptions{}) }()
	s := acc.Survival()
	d := estimate.Density(s, estimate.DensityOptions{})
	sum := &summary{qs: qs, atKeys: atKeys, dist: d, ci: map[string][2]float64{}, warnings: d.Warnings}
	r := &sum.report
	// Counts from the accumulator: for histogram inputs they are the
	// summed counts, not the rows.
	r.Items, r.Final, r.Pending = int64(math.Round(acc.Items)), int64(math.Round(acc.Final)), int64(math.Round(acc.Pending))
	r.Settled, r.Failed = acc.Settled, acc.Failed
	for _, n := range st.Skipped {
		r.Skipped += n
	}
	r.Never = s.Never()
	r.Resolution = s.Resolution
	r.Bandwidth, _ = d.Bandwidth()
	r.Quantiles, r.QuantileCI = map[string]*float64{}, map[string][2]*float64{}
	for _, q := range qs {
		lo, hi := s.QuantileBand(q, 0.95, estimate.ConfLog)
		r.Quantiles[quantileKey(q)] = fit.JSONNumber(s.Quantile(q))
		r.QuantileCI[quantileKey(q)] = [2]*float64{fit.JSONNumber(lo), fit.JSONNumber(hi)}
	}
	r.Survival = map[string]float64{}
	for i, k := range atKeys {
		r.Survival[k] = s.At(ages[i])
		lo, hi := s.Band(ages[i], 0.95, estimate.ConfLog)
		sum.ci[k] = [2]float64{lo, hi}
	}
	r.Deadlines = []deadlineJSON{}
	for _, dl := range d.Atoms() {
		lo, hi := dl.Lo(), dl.Hi()
		if 6*dl.Spread >= dl.Width { // a spread spike: its middle 95%
			lo, hi = dl.Age-2*dl.Spread, dl.Age+2*dl.Spread
		}
		r.Deadlines = append(r.Deadlines, deadlineJSON{Age: dl.Age, Spread: dl.Spread, Share: dl.Share,
			Failed: fit.JSONNumber(acc.FailedShare(lo, hi))})
	}
	if p := <-period; p != nil {
		r.Period = &periodJSON{p.Period, p.Phase, p.Share, p.PValue}
	}
	r.Modes = d.Modes(0.05)
	if r.Modes == nil {
		r.Modes = []float64{}
	}
	if acc.Dropped > 0 {
		sum.warnings = append(sum.warnings, fmt.Sprintf("%d items ignored for a negative or invalid age", acc.Dropped))
	}
	r.PeriodTested = acc.Dated() > 0
	switch {
	case r.Items > 0 && acc.Dated() == 0:
		sum.warnings = append(sum.warnings, "no final item has a creation time (a sketch or a histogram keeps none): no test for batches")
	case !st.HasCreated && r.Items > 0:
		sum.warnings = append(sum.warnings, "not every item has a creation time: periodicity uses those that do")
	}
	return sum
}
