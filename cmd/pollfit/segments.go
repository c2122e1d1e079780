package main

import (
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/spf13/pflag"
)

// byFlags are the segment flags of the commands that fit or describe one
// distribution per value of a column.
type byFlags struct {
	by         string
	perSegment bool
	minFinal   int
}

// addByFlag registers --by on fs; withBudget adds the budget-sharing
// flags of fit.
func addByFlag(fs *pflag.FlagSet, withBudget bool) *byFlags {
	b := &byFlags{}
	fs.StringVar(&b.by, "by", "", "one distribution and one schedule per value of this categorical column (e.g. method), at most 1000 values")
	if withBudget {
		fs.BoolVar(&b.perSegment, "budget-per-segment", false, "with --by, give every segment the budget itself instead of sharing it where the next request buys the most lag")
		fs.IntVar(&b.minFinal, "min-segment", fit.DefaultMinSegmentFinal, "with --by, the fewest final answers a segment needs among its fitting items for a schedule of its own (smaller ones follow the shared schedule)")
	}
	return b
}

// readSegments reads the logs at args split by the values of column by,
// one sample per value in the order the values first came.
func (r *readFlags) readSegments(e *env, args []string, by, cmd string) ([]fit.Segment, logs.Stats, error) {
	var segs []fit.Segment
	st, err := r.eachBy(e, args, by, cmd, func(it estimate.Item, seg int, v string) {
		if seg == len(segs) {
			segs = append(segs, fit.Segment{Value: v})
		}
		segs[seg].Sample.Items = append(segs[seg].Sample.Items, it)
	})
	return segs, st, err
}

// eachBy streams the logs at args to fn with each item's value of
// column by and its index (logs.EachBy), with progress and warnings as
// each shows them.
func (r *readFlags) eachBy(e *env, args []string, by, cmd string, fn func(it estimate.Item, seg int, v string)) (logs.Stats, error) {
	if r.histogram {
		return logs.Stats{}, usagef("%s: --by %s: a histogram has no segment column: give the raw log", cmd, by)
	}
	for _, a := range args {
		if isSketchFile(a) {
			return logs.Stats{}, usagef("%s: --by %s: %s is a sketch, which keeps no segment column: give the log itself", cmd, by, a)
		}
	}
	return r.readLogs(e, args, func(opt logs.Options) (logs.Stats, error) {
		opt.By = by
		return logs.EachBy(args, opt, func(it estimate.Item, _ float64, seg int, v string) { fn(it, seg, v) })
	})
}

// segmentName is a segment's value for people, as -f dsl writes it:
// quoted when it is empty or holds spaces, quotes, colons or control
// characters.
func segmentName(v string) string { return export.DSLValue(v) }
