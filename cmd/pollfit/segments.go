package main

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate/source"
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
		fs.IntVar(&b.minFinal, "min-segment", fit.DefaultMinGroupFinal, "with --by, the fewest final answers a segment needs among its fitting items for a schedule of its own (smaller ones follow the shared schedule)")
	}
	return b
}

// readSegments reads the logs at args split by the values of column by
// for command cmd (source.Read with a group column): one sample per
// value, in the order the values first came, for a command that needs
// what needs says of the items, split as opt says (a raw log is read in
// one pass into a sketch per value unless it needs the items).
func (r *readFlags) readSegments(e *env, args []string, cmd, by string, needs source.Needs, opt fit.StudyOptions) (*source.Input, error) {
	so := source.Options{Holdout: opt.Holdout, Seed: opt.Seed, Needs: needs}
	so.Log.By = by
	return r.read(e, args, cmd, so)
}

// groupsSource describes the input of a study by column by, for the
// header of its table: how many items and values, and when the values
// are fitted on their item samples, how many rows those hold and why.
func groupsSource(args []string, in *source.Input, by string) string {
	s := fmt.Sprintf("%s (%d items, %d values of %s", strings.Join(args, ", "), in.Stats.Items, len(in.Groups), by)
	if in.Sampled != "" {
		rows := 0
		for _, g := range in.Groups {
			rows += g.Sample.Len()
			if g.HeldOut != nil {
				rows += g.HeldOut.Sample.Len()
			}
		}
		s += fmt.Sprintf(", fitted and measured on each value's item sample by hash, %d rows in all, as %s", rows, in.Sampled)
	}
	return s + ")"
}

// segmentName is a segment's value for people, as -f dsl writes it:
// quoted when it is empty or holds spaces, quotes, colons or control
// characters.
func segmentName(v string) string { return export.DSLValue(v) }
