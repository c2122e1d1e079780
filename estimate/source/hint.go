package source

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// The limits of Hint.
const (
	hintColumns   = 4
	hintMaxRows   = 2_000_000
	hintMaxValues = 20
	hintRatio     = 3.0
)

// GroupAge is a value of a column and the median age of its final
// answers.
type GroupAge struct {
	Value  string
	Median float64
}

// ColumnHint is a column of a log that the read did not use but could:
// one that holds status words (Status set) or one that separates the
// answers (Ages set).
type ColumnHint struct {
	Column string
	// Status, when the column holds status words: the values that are
	// known status words, and the Other values, which are not.
	Status, Other []string
	// Ages are the values' median ages, fastest first, when the column
	// separates the answers.
	Ages []GroupAge
}

// Hint returns the first column of the raw logs at paths, read with
// opt, that holds status words or separates the answers; nil when none
// does, the logs are sketches or histograms, or hold more than 2 million
// rows (rows, as a read counted them). Each column the read did not use
// (at most 4 of them, those named like a status first; for Parquet only
// string, boolean and integer ones) is read again. Without
// opt.StatusCol, a column holds status words when its values known as
// status words (the defaults and opt's own) cover at least half of its
// rows. A column separates the answers when it has 2 to 20 values, the
// values with at least fit.DefaultMinGroupFinal final answers hold
// 90% of the final answers, and among those the slowest median age is
// at least 3 times the fastest.
func Hint(ctx context.Context, paths []string, opt logs.Options, rows int64) *ColumnHint {
	if opt.Histogram || rows > hintMaxRows {
		return nil
	}
	for _, p := range paths {
		if IsSketch(p) {
			return nil
		}
	}
	cols, err := logs.OtherColumns(paths, opt)
	if err != nil {
		return nil
	}
	// A column named like a status is read first, so that its hint is
	// not missed behind another column's.
	slices.SortStableFunc(cols, func(a, b string) int { return cmp.Compare(statusLike(b), statusLike(a)) })
	for _, c := range cols[:min(len(cols), hintColumns)] {
		if h := columnHint(ctx, paths, opt, c); h != nil {
			return h
		}
	}
	return nil
}

// statusLike is 1 for a column name that reads like a status, else 0.
func statusLike(col string) int {
	c := strings.ToLower(col)
	if strings.Contains(c, "status") || strings.Contains(c, "state") || strings.Contains(c, "outcome") {
		return 1
	}
	return 0
}

// columnHint reads column col and says what it holds, or nil (see the
// rule above).
func columnHint(ctx context.Context, paths []string, opt logs.Options, col string) *ColumnHint {
	opt.By, opt.SkipBad, opt.Progress = col, true, nil
	var ages [][]float64
	var values []string
	var rows []int
	_, err := logs.EachByContext(ctx, paths, opt, func(it estimate.Item, _ float64, seg int, v string) {
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
		return nil
	}
	if opt.StatusCol == "" {
		if known, other, ok := statusWords(values, rows, opt); ok {
			return &ColumnHint{Column: col, Status: known, Other: other}
		}
	}
	if meds := medians(values, ages); meds != nil {
		return &ColumnHint{Column: col, Ages: meds}
	}
	return nil
}

// statusWords splits values into known status words (the defaults and
// opt's own) and others; ok when the known ones cover at least half of
// the rows.
func statusWords(values []string, rows []int, opt logs.Options) (known, other []string, ok bool) {
	words := estimate.NewStatusWords(opt.FinalStatus, opt.PendingStatus)
	kept, total := 0, 0
	for i, v := range values {
		total += rows[i]
		if _, ok := words.Lookup([]byte(v)); ok {
			kept += rows[i]
			known = append(known, v)
		} else {
			other = append(other, v)
		}
	}
	return known, other, 2*kept >= total
}

// medians are the values' median ages, fastest first, when they
// separate the answers, else nil (see the rule above).
func medians(values []string, ages [][]float64) []GroupAge {
	var meds []GroupAge
	total, kept := 0, 0
	for i, a := range ages {
		total += len(a)
		if len(a) >= fit.DefaultMinGroupFinal {
			kept += len(a)
			slices.Sort(a)
			meds = append(meds, GroupAge{values[i], a[len(a)/2]})
		}
	}
	if len(meds) < 2 || float64(kept) < 0.9*float64(total) {
		return nil
	}
	slices.SortFunc(meds, func(a, b GroupAge) int { return cmp.Compare(a.Median, b.Median) })
	if meds[len(meds)-1].Median < hintRatio*meds[0].Median {
		return nil
	}
	return meds
}
