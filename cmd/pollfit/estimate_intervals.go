package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/spf13/pflag"
)

// intervalFlags are estimate's flags for interval-censored inputs: a
// poller's own log and latency metrics.
type intervalFlags struct {
	idCol, askedCol, since, metric string
	pending, never, identify       float64
	boot                           int
	grid                           string // estimate's --grid and --force
	force, quiet                   bool
}

func addIntervalFlags(fs *pflag.FlagSet) *intervalFlags {
	f := addIntervalReadFlags(fs)
	fs.IntVar(&f.boot, "bootstrap", 200, "a poller log or a metric: bootstrap samples for the survival's 95% bands (0: none)")
	fs.Float64Var(&f.identify, "identify", 0.9, "the share of answers whose widest interval the identifiability line reports")
	return f
}

// addIntervalReadFlags registers the flags that read interval-censored
// input, for every command that takes it.
func addIntervalReadFlags(fs *pflag.FlagSet) *intervalFlags {
	f := &intervalFlags{}
	fs.StringVar(&f.idCol, "id-col", "", `item id column of a poller log of one row per ask (default "id")`)
	fs.StringVar(&f.askedCol, "asked-col", "", `ask time column of a poller log of one row per ask (default "asked_at")`)
	fs.StringVar(&f.since, "since", "", "a metric: an earlier read of the same histogram, subtracted for the window between the two")
	fs.StringVar(&f.metric, "metric", "", "a metric: the histogram's name, when the file holds several")
	fs.Float64Var(&f.pending, "pending", 0, "a metric: this many items never answered (metrics count only answers)")
	fs.Float64Var(&f.never, "never", 0, "a metric: this share of all items never answered (instead of --pending)")
	return f
}

// intervalInput tells whether args are interval-censored: a metric file,
// a poller log or sketches with an interval part.
func (f *intervalFlags) intervalInput(args []string, opt logs.Options) source.IntervalKind {
	return source.IntervalInput(args, f.options(opt))
}

// options are the flags as source.ReadIntervals' options, a poller log
// read with opt.
func (f *intervalFlags) options(opt logs.Options) source.IntervalOptions {
	return source.IntervalOptions{Log: opt, IDCol: f.idCol, AskedCol: f.askedCol,
		Metric: f.metric, Since: f.since, Pending: f.pending, Never: f.never}
}

// intervalSummary is what estimate reports of interval-censored input.
type intervalSummary struct {
	Input      string                `json:"input"`
	Items      float64               `json:"items"`
	Final      float64               `json:"final"`
	Pending    float64               `json:"pending"`
	Beyond     float64               `json:"answered_beyond_last_bound,omitempty"`
	Assumed    string                `json:"assumed,omitempty"`
	Intervals  int                   `json:"turnbull_intervals"`
	Steps      int                   `json:"em_steps"`
	KKT        float64               `json:"kuhn_tucker_gap"`
	Never      float64               `json:"never"`
	Share      float64               `json:"identify_share"`
	Widest     *float64              `json:"identify_width_s"`
	Quantiles  map[string]*float64   `json:"quantiles_s"`
	Survival   map[string]float64    `json:"survival_at"`
	SurvBounds map[string][2]float64 `json:"survival_range_at"`
	SurvCI     map[string][2]float64 `json:"survival_ci95_at,omitempty"`
	Bandwidth  float64               `json:"bandwidth_log"`
	tb         *estimate.Turnbull
	qs         []float64
	atKeys     []string
	warnings   []string
}

// estimateIntervals is estimate on interval-censored input.
func (f *intervalFlags) estimateIntervals(e *env, opt logs.Options, args []string, qs []float64, atKeys []string, ages []float64, asJSON bool) error {
	if !(f.identify > 0 && f.identify <= 1) {
		return usagef("estimate: --identify %v: want a share in (0, 1], such as 0.9", f.identify)
	}
	if f.boot < 0 {
		return usagef("estimate: --bootstrap %d: want a number of samples >= 0", f.boot)
	}
	rd, err := source.ReadIntervals(e.context(), args, f.options(opt))
	if err != nil {
		return readError("estimate", source.Options{}, err)
	}
	sum := &intervalSummary{qs: qs, atKeys: atKeys, Share: f.identify, Input: rd.Input,
		Final: rd.Final, Pending: rd.Pending, Beyond: rd.Beyond, Assumed: assumedText(rd.Assumed), warnings: rd.Warnings}
	tb, err := f.summarize(rd.Set, ages, sum)
	if err != nil {
		return err
	}
	dist := tb.Density(estimate.DensityOptions{})
	sum.Bandwidth, _ = dist.Bandwidth()
	sum.warnings = append(sum.warnings, dist.Warnings...)
	for _, w := range sum.warnings {
		if !f.quiet {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", w)
		}
	}
	if f.grid != "" {
		if err := writeOutput(f.grid, f.force, e.stdout, dist.WriteGrid); err != nil {
			return err
		}
	}
	if asJSON {
		return writeJSON(e.stdout, sum)
	}
	return sum.writeText(e.stdout)
}

// summarize fills sum with the Turnbull estimate of set and returns it.
func (f *intervalFlags) summarize(set *estimate.IntervalSet, ages []float64, sum *intervalSummary) (*estimate.Turnbull, error) {
	tb, err := set.Turnbull(estimate.TurnbullOptions{})
	if err != nil {
		return nil, err
	}
	sum.tb, sum.warnings = tb, append(sum.warnings, tb.Warnings...)
	sum.Items = sum.Final + sum.Pending
	sum.Intervals, sum.Steps, sum.KKT, sum.Never = len(tb.Lo), tb.Iter, tb.KKT, tb.Never()
	sum.Widest = fit.JSONNumber(set.WidestShare(f.identify))
	sum.Quantiles, sum.Survival, sum.SurvBounds = map[string]*float64{}, map[string]float64{}, map[string][2]float64{}
	for _, q := range sum.qs {
		sum.Quantiles[quantileKey(q)] = fit.JSONNumber(tb.Quantile(q))
	}
	for i, k := range sum.atKeys {
		lo, hi := tb.Bounds(ages[i])
		sum.Survival[k], sum.SurvBounds[k] = tb.At(ages[i]), [2]float64{lo, hi}
	}
	if f.boot > 0 {
		lo, hi, err := set.Bootstrap(ages, estimate.BootOptions{Reps: f.boot, Seed: 1})
		if err != nil {
			return nil, err
		}
		sum.SurvCI = map[string][2]float64{}
		for i, k := range sum.atKeys {
			sum.SurvCI[k] = [2]float64{lo[i], hi[i]}
		}
	}
	return tb, nil
}

func (s *intervalSummary) writeText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "input:        %s\n", s.Input)
	fmt.Fprintf(&b, "items:        %s: %s final, %s pending", count(s.Items), count(s.Final), count(s.Pending))
	if s.Beyond > 0 {
		fmt.Fprintf(&b, " (%s final beyond the last bound, at an unknown age)", count(s.Beyond))
	}
	b.WriteByte('\n')
	if s.Assumed != "" {
		fmt.Fprintf(&b, "assumed:      %s\n", s.Assumed)
	}
	fmt.Fprintf(&b, "estimate:     Turnbull NPMLE on %d intervals (EM steps %d, Kuhn–Tucker gap %.2g)\n", s.Intervals, s.Steps, s.KKT)
	fmt.Fprintf(&b, "identifiable: %s of the answers lie in intervals at most %s wide\n", share(s.Share), widthText(s.Widest))
	fmt.Fprintf(&b, "never:        %s with no final answer by the last observed age\n", share(s.Never))
	b.WriteString("quantiles:    (each interval's mass at its middle)\n")
	for _, q := range s.qs {
		if v := s.Quantiles[quantileKey(q)]; v != nil {
			fmt.Fprintf(&b, "  %-6s %s\n", quantileKey(q), schedule.FormatAge(*v))
		} else {
			fmt.Fprintf(&b, "  %-6s not reached\n", quantileKey(q))
		}
	}
	b.WriteString("survival:     (share still waiting")
	if s.SurvCI != nil {
		b.WriteString(", 95% bootstrap interval")
	}
	b.WriteString("; inside an interval, the range the data allow there)\n")
	for _, k := range s.atKeys {
		fmt.Fprintf(&b, "  S(%s) %.4f", k, s.Survival[k])
		if ci, ok := s.SurvCI[k]; ok {
			fmt.Fprintf(&b, " [%.4f, %.4f]", ci[0], ci[1])
		}
		if r := s.SurvBounds[k]; r[1]-r[0] > 5e-5 {
			fmt.Fprintf(&b, " inside: %.4f to %.4f", r[0], r[1])
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "density:      bandwidth %.3g on the log-age axis; each interval's mass spread evenly in age within it first\n", s.Bandwidth)
	_, err := io.WriteString(w, b.String())
	return err
}

func widthText(w *float64) string {
	switch {
	case w == nil:
		return "-"
	case *w == 0:
		return "0s (exact)"
	}
	return schedule.FormatAge(*w)
}
