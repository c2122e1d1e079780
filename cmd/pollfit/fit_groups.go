package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
	"github.com/pollfit/pollfit/cmd/pollfit/internal/report"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
)

// groupReport is a fit per group, for text, JSON and the exports.
type groupReport struct {
	by     string
	source string
	res    *fit.GroupStudy
	opt    fit.StudyOptions // the options the studies ran with
	// notes are what the input could not serve and the studies' notes,
	// each value's named.
	notes []string
}

// runGroups reads the logs split by --by and runs fit.StudyGroups.
func runGroups(e *env, rf *readFlags, v *fitFlagValues, bf *byFlags, args []string, cmd string) (*groupReport, error) {
	every, own, err := splitByBaselines(v.baselines)
	if err != nil {
		return nil, err
	}
	shared := *v
	shared.baselines, v = every, &shared // the one schedule's study compares every value's baselines
	switch {
	case v.model != "":
		return nil, usagef("%s: --by %s splits a log: give LOG files, not --model", cmd, bf.by)
	case len(args) == 0:
		return nil, usagef("%s: give LOG files to split --by %s", cmd, bf.by)
	case v.family != "":
		return nil, usagef("%s: --family fits one schedule: run without --by", cmd)
	case v.requests <= 0 && len(v.baselines) == 0 && len(own) > 0:
		return nil, usagef("%s: --by with baselines of single values only: give --requests-per-item, or a --baseline NAME=SPEC for every value, whose cost on all items is the budget", cmd)
	case v.requests <= 0 && (len(v.baselines) == 0 || v.asksBy != "" || v.price != 0 || v.maxAttempts != 0):
		return nil, usagef("%s: --by shares a --requests-per-item budget between the values: give one, or a --baseline whose cost it is", cmd)
	}
	opt, err := v.studyOptions(cmd)
	if err != nil {
		return nil, err
	}
	opt.Frontier = cmd == "report" // the report draws the one schedule's frontier
	in, err := rf.readGroups(e, args, cmd, bf.by, source.Needs{Signals: v.signals, Batches: v.batches}, opt)
	if err != nil {
		return nil, err
	}
	segs, notes := in.Groups, in.Notes
	if err := groupBaselines(bf.by, segs, own); err != nil {
		return nil, fmt.Errorf("%s: %w", cmd, err)
	}
	line := newStageLine(e, cmd+" --by "+bf.by, rf.quiet)
	opt.Progress = line.progress()
	res, err := fit.StudyGroups(e.context(), in.Whole(), segs, fit.GroupOptions{StudyOptions: opt, PerGroup: bf.perGroup, MinFinal: bf.minFinal, Full: cmd == "report"})
	line.stop()
	if err != nil {
		return nil, fmt.Errorf("%s: --by %s: %w", cmd, bf.by, err)
	}
	flagResult(res.Shared)
	for _, f := range res.Groups {
		if f.Study != nil {
			flagResult(f.Study)
		}
	}
	rep := &groupReport{by: bf.by, res: res, opt: opt, notes: groupNotes(bf.by, notes, res),
		source: groupsSource(args, in, bf.by)}
	if !rf.quiet {
		for _, n := range rep.notes {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", n)
		}
	}
	return rep, nil
}

// groupNotes are the input's notes, the one schedule's study's, and
// each value's own (named, those the one schedule's says already left
// out).
func groupNotes(by string, input []string, s *fit.GroupStudy) []string {
	out := append(slices.Clone(input), s.Shared.Notes...)
	for _, f := range s.Groups {
		if f.Study == nil {
			continue
		}
		for _, n := range f.Study.Notes {
			if !slices.Contains(s.Shared.Notes, n) {
				out = append(out, fmt.Sprintf("%s %s: %s", by, groupName(f.Value), n))
			}
		}
	}
	return out
}

// fitGroups is pollfit fit --by.
func fitGroups(e *env, rf *readFlags, v *fitFlagValues, bf *byFlags, args []string, format string, asJSON bool, plot string) error {
	if plot != "" {
		return usagef("fit: --plot draws one schedule: run without --by")
	}
	if format != "" && !slices.Contains(export.GroupFormats, strings.ToLower(format)) {
		return usagef("fit: --by writes -f %s (one schedule per value); for %s, export each value's schedule on its own", quote.List(export.GroupFormats, "or"), format)
	}
	rep, err := runGroups(e, rf, v, bf, args, "fit")
	if err != nil {
		return err
	}
	switch {
	case format != "":
		return export.WriteGroups(e.stdout, format, rep.exportGroups(), rep.meta(), export.GoOptions{Args: e.args})
	case asJSON:
		return rep.writeJSON(e.stdout)
	}
	rep.writeText(e.stdout)
	return nil
}

// writeText is the fit per group for people: each value's decision
// first, then the table.
func (r *groupReport) writeText(w io.Writer) {
	s := r.res
	for _, f := range s.Groups {
		fmt.Fprintln(w, f.Decision.String())
	}
	fmt.Fprintln(w)
	if s.PerGroup {
		fmt.Fprintf(w, "one schedule per value of %s, each at %.4g requests per item (--budget-per-group)\n", r.by, s.Budget)
	} else {
		fmt.Fprintf(w, "one schedule per value of %s, %.4g requests per item on average shared where the next request buys the most lag\n", r.by, s.Budget)
	}
	sh := s.Shared
	fmt.Fprintf(w, "fitted to %.0f items of %s, measured on the %.0f held out (--holdout %g, --seed %d)\n\n",
		sh.FitOn.Total(), r.source, sh.HeldOut.Total(), sh.Holdout, sh.Seed)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\tshare\tlag mean\tp95\treq/item\tbudget\tstuck\tmissed\tgive up\tschedule\n", r.by)
	fallback := false
	for _, f := range s.Groups {
		name := groupName(f.Value)
		if f.Fallback {
			name, fallback = name+" *", true
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t%s\t%s\t%s\n", name, share(f.Share), schedule.FormatAge(f.Row.Lag.Mean), schedule.FormatAge(f.Row.Lag.P95),
			f.Row.RequestsPerItem, f.Budget, count(f.Row.Stuck), share(f.Row.MissedShare), giveUpAge(f.Row), schedule.Format(f.Schedule))
	}
	t := s.Total
	fmt.Fprintf(tw, "total\t%s\t%s\t\t%.2f\t%.2f\t%.1f\t%s\t\t\n", share(1), schedule.FormatAge(t.LagMean), t.RequestsPerItem, s.BudgetSpent(), t.Stuck, share(t.MissedShare))
	o := sh.Fitted
	fmt.Fprintf(tw, "one schedule\t%s\t%s\t%s\t%.2f\t%.2f\t%s\t%s\t%s\t%s\n", share(1), schedule.FormatAge(o.Lag.Mean), schedule.FormatAge(o.Lag.P95), o.RequestsPerItem, s.Budget,
		count(o.Stuck), share(o.MissedShare), giveUpAge(o), schedule.Format(sh.Schedule))
	tw.Flush()
	fmt.Fprintln(w)
	if fallback {
		fmt.Fprintf(w, "* fewer than %d final answers to fit on (--min-group): follows the one schedule\n", s.MinFinal)
	}
	switch a := s.Allocation; {
	case !s.PerGroup && a.Costs != nil && s.Unspent():
		fmt.Fprintf(w, "budget not all given out: within its stuck cap, every value's dearest fit spends less than its share; together they take %.2f of the %.4g requests per item (--stuck-asks to raise the caps)\n", s.BudgetSpent(), s.Budget)
	case !s.PerGroup && a.Costs != nil:
		fmt.Fprintf(w, "budget shared at one price: the last request per item buys %.3g s of lag per item in every value above its cheapest fit (--budget-per-group for %.4g each)\n", a.Price, s.Budget)
	}
	fmt.Fprintln(w, segmentingText(s))
}

// giveUpAge is the age a row was replayed to.
func giveUpAge(r fit.Row) string {
	if r.Horizon <= 0 {
		return "never"
	}
	return schedule.FormatDuration(r.Horizon)
}

// segmentingText is the one sentence comparing the groups' schedules
// with the one schedule for all.
func segmentingText(s *fit.GroupStudy) string {
	t, o := s.Total, s.Shared.Fitted
	return fmt.Sprintf("segmenting: %s at the same budget (%s vs %s at %.2f vs %.2f requests per item, on the same %.0f held-out items)",
		s.Changes(), schedule.FormatAge(t.LagMean), schedule.FormatAge(o.Lag.Mean), t.RequestsPerItem, o.RequestsPerItem, t.Items)
}

// The JSON of pollfit fit --by is fitjson.Segments, whose doc comments
// are its manual:
//
//	{"decisions": [{"value", "against", "requests_change", "requests_change_ci", "lag_change", "lag_change_ci", "sentence",
//	                "fitted": <row>, "other": <row>}],
//	 "by": "method", "budget": {"per_segment", "price", "requests_per_item", "spent"},
//	 "min_segment": 200,
//	 "segments": [{"value", "share", "fit_items", "final", "budget", "fallback", "schedule", "metrics": <row>}],
//	 "total": {"items", "lag_mean_s", "requests_per_item", "stuck_asks", "missed_share"},
//	 "shared": {"schedule", "metrics": <row>}, "change": -0.65,
//	 "holdout": {"share", "seed", "fit_items", "test_items"},
//	 "notes": [...]}
func (r *groupReport) writeJSON(w io.Writer) error {
	return writeJSON(w, fitjson.NewGroups(r.by, r.res, r.notes))
}

// exportGroups are the groups' schedules for export.
func (r *groupReport) exportGroups() export.Groups {
	s := r.res
	out := export.Groups{By: r.by, Fallback: s.Shared.Schedule}
	for _, f := range s.Groups {
		out.Values = append(out.Values, f.Value)
		out.Schedules = append(out.Schedules, f.Schedule)
	}
	return out
}

// meta is the export header of a fit per group.
func (r *groupReport) meta() *export.Meta {
	s := r.res
	return &export.Meta{Source: r.source, Budget: fmt.Sprintf("%.4g requests per item on average, by %s", s.Budget, r.by),
		Metrics: map[string]float64{"mean_lag_s": s.Total.LagMean, "requests_per_item": s.Total.RequestsPerItem}}
}

// facts are the fit per group as the report's facts: one per value,
// then the comparison with the one schedule.
func (r *groupReport) facts() []report.Fact {
	var out []report.Fact
	for _, f := range r.res.Groups {
		v := fmt.Sprintf("%s of items, %s mean lag at %.2f requests per item: %s", share(f.Share), schedule.FormatAge(f.Row.Lag.Mean), f.Row.RequestsPerItem, schedule.Format(f.Schedule))
		if f.Fallback {
			v += fmt.Sprintf(" (the one schedule: fewer than %d final answers)", r.res.MinFinal)
		}
		out = append(out, report.Fact{Label: r.by + " " + groupName(f.Value), Value: v})
	}
	return append(out, report.Fact{Label: "segments", Value: segmentingText(r.res)})
}
