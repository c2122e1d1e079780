package source

import (
	"cmp"
	"context"
	"slices"

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

// Hint returns the first column of the raw logs at paths, read with
// opt, that separates the answers, with its values' median ages,
// fastest first; "" when none does, the logs are sketches or histograms,
// or hold more than 2 million rows (rows, as a read counted them). Each
// column the read did not use (at most 4 of them; for Parquet only
// string, boolean and integer ones) is read again. A column separates
// the answers when it has 2 to 20 values, the values with at least
// fit.DefaultMinSegmentFinal final answers hold 90% of the final
// answers, and among those the slowest median age is at least 3 times
// the fastest.
func Hint(ctx context.Context, paths []string, opt logs.Options, rows int64) (string, []GroupAge) {
	if opt.Histogram || rows > hintMaxRows {
		return "", nil
	}
	for _, p := range paths {
		if IsSketch(p) {
			return "", nil
		}
	}
	cols, err := logs.OtherColumns(paths, opt)
	if err != nil {
		return "", nil
	}
	for _, c := range cols[:min(len(cols), hintColumns)] {
		if meds := columnMedians(ctx, paths, opt, c); meds != nil {
			return c, meds
		}
	}
	return "", nil
}

// columnMedians reads column col and returns its values' median ages
// when it separates the answers, else nil (see the rule above).
func columnMedians(ctx context.Context, paths []string, opt logs.Options, col string) []GroupAge {
	opt.By, opt.SkipBad, opt.Progress = col, true, nil
	var ages [][]float64
	var values []string
	_, err := logs.EachByContext(ctx, paths, opt, func(it estimate.Item, _ float64, seg int, v string) {
		if seg == len(values) {
			values = append(values, v)
			ages = append(ages, nil)
		}
		if it.Status.Final() && len(values) <= hintMaxValues {
			ages[seg] = append(ages[seg], it.Age)
		}
	})
	if err != nil || len(values) < 2 || len(values) > hintMaxValues {
		return nil
	}
	var meds []GroupAge
	total, kept := 0, 0
	for i, a := range ages {
		total += len(a)
		if len(a) >= fit.DefaultMinSegmentFinal {
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
