package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// The --by hint. After a fit or estimate of a log without --by, each
// column the read did not use (at most hintColumns of them; for Parquet
// only string, boolean and integer ones) is read again, for logs of at
// most hintMaxRows rows. A column separates the answers when it has 2 to
// hintMaxValues values, the values with at least
// fit.DefaultMinSegmentFinal final answers hold 90% of the final answers,
// and among those the slowest median age is at least hintRatio times the
// fastest. The first such column is named once, on stderr.
const (
	hintColumns   = 4
	hintMaxRows   = 2_000_000
	hintMaxValues = 20
	hintRatio     = 3.0
)

// byHint is the note suggesting --by for the logs at args, or "".
func (r *readFlags) byHint(ctx context.Context, args []string, st logs.Stats) string {
	if r.quiet || r.noHint || r.histogram || st.Rows > hintMaxRows {
		return ""
	}
	for _, a := range args {
		if isSketchFile(a) {
			return ""
		}
	}
	opt, err := r.options()
	if err != nil {
		return ""
	}
	cols, err := logs.OtherColumns(args, opt)
	if err != nil {
		return ""
	}
	// A column named like a status is read first, so that its hint is
	// not missed behind another column's.
	slices.SortStableFunc(cols, func(a, b string) int { return cmp.Compare(statusLike(b), statusLike(a)) })
	for _, c := range cols[:min(len(cols), hintColumns)] {
		if h := columnHint(ctx, args, opt, c); h != "" {
			return h
		}
	}
	return ""
}

// statusLike is 1 for a column name that reads like a status, else 0.
func statusLike(col string) int {
	c := strings.ToLower(col)
	if strings.Contains(c, "status") || strings.Contains(c, "state") || strings.Contains(c, "outcome") {
		return 1
	}
	return 0
}

// columnHint reads column col and says how it separates the answers, or
// "" when it does not (see the rule above).
func columnHint(ctx context.Context, args []string, opt logs.Options, col string) string {
	opt.By, opt.SkipBad, opt.Progress = col, true, nil
	var ages [][]float64
	var values []string
	var rows []int
	_, err := logs.EachByContext(ctx, args, opt, func(it estimate.Item, _ float64, seg int, v string) {
		if seg == len(values) {
			values = append(values, v)
			ages = append(ages, nil)
			rows = append(rows, 0)
		}
		if len(values) <= hintMaxValues {
			rows[seg]++
			if it.Status.Final() {
				ages[seg] = append(ages[seg], it.Age)
			}
		}
	})
	if err != nil || len(values) < 2 || len(values) > hintMaxValues {
		return ""
	}
	if opt.StatusCol == "" {
		if h := statusHint(col, values, rows, opt); h != "" {
			return h
		}
	}
	type med struct {
		v string
		m float64
	}
	var meds []med
	total, kept := 0, 0
	for i, a := range ages {
		total += len(a)
		if len(a) >= fit.DefaultMinSegmentFinal {
			kept += len(a)
			slices.Sort(a)
			meds = append(meds, med{values[i], a[len(a)/2]})
		}
	}
	if len(meds) < 2 || float64(kept) < 0.9*float64(total) {
		return ""
	}
	slices.SortFunc(meds, func(a, b med) int { return cmp.Compare(a.m, b.m) })
	if meds[len(meds)-1].m < hintRatio*meds[0].m {
		return ""
	}
	var parts []string
	for i, m := range meds {
		if i == 4 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, segmentName(m.v)+" "+schedule.FormatAge(m.m))
	}
	return fmt.Sprintf("%s separates answers (median %s): try --by %s", col, strings.Join(parts, ", "), col)
}

// statusHint says that col holds status words, when the values known as
// status words (the defaults and the options' own) cover at least half
// of the rows; it names the values that are not known, which need
// --pending-status or --final-status. "" otherwise.
func statusHint(col string, values []string, rows []int, opt logs.Options) string {
	words := estimate.NewStatusWords(opt.FinalStatus, opt.PendingStatus)
	known, total := 0, 0
	var knownVals, unknown []string
	for i, v := range values {
		total += rows[i]
		if _, ok := words.Lookup([]byte(v)); ok {
			known += rows[i]
			knownVals = append(knownVals, v)
		} else {
			unknown = append(unknown, v)
		}
	}
	if 2*known < total {
		return ""
	}
	h := fmt.Sprintf("column %s holds status words (%s): read it with --status-col %s to take each row's outcome from it (without, a row is pending only when it has no settle time)", col, listSome(knownVals), col)
	if len(unknown) > 0 {
		h += fmt.Sprintf("; its other values (%s) need --pending-status or --final-status", listSome(unknown))
	}
	return h
}

// listSome joins up to four values, then "…".
func listSome(vs []string) string {
	if len(vs) > 4 {
		return strings.Join(vs[:4], ", ") + ", …"
	}
	return strings.Join(vs, ", ")
}
