package main

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/spf13/pflag"
)

// byFlags are the group flags of the commands that fit or describe one
// distribution per value of a column.
type byFlags struct {
	by       string
	perGroup bool
	minFinal int
	fs       *pflag.FlagSet
	// the values of the old spellings (perGroupRenamed, minGroupRenamed)
	oldPerGroup bool
	oldMinFinal int
}

// The group flags' old spellings: a value of --by's column is a group,
// as in the library; "segment" was also a clause.
var (
	perGroupRenamed = renamed{"", "budget-per-segment", "budget-per-group"}
	minGroupRenamed = renamed{"", "min-segment", "min-group"}
)

// addByFlag registers --by on fs; withBudget adds the budget-sharing
// flags of fit.
func addByFlag(fs *pflag.FlagSet, withBudget bool) *byFlags {
	b := &byFlags{}
	fs.StringVar(&b.by, "by", "", "one distribution and one schedule per value of this categorical column (e.g. method), at most 1000 values")
	if withBudget {
		b.fs = fs
		fs.BoolVar(&b.perGroup, "budget-per-group", false, "with --by, give every value the budget itself instead of sharing it where the next request buys the most lag")
		fs.IntVar(&b.minFinal, "min-group", fit.DefaultMinGroupFinal, "with --by, the fewest final answers a value needs among its fitting items for a schedule of its own (smaller ones follow the shared schedule)")
		fs.BoolVar(&b.oldPerGroup, "budget-per-segment", false, "")
		fs.IntVar(&b.oldMinFinal, "min-segment", fit.DefaultMinGroupFinal, "")
		perGroupRenamed.hide(fs)
		minGroupRenamed.hide(fs)
	}
	return b
}

// useRenamed takes the old spellings of the group flags given, warning
// on stderr; cmd names the command in the warning.
func (b *byFlags) useRenamed(e *env, cmd string) error {
	if b.fs == nil {
		return nil
	}
	if err := perGroupRenamed.in(cmd).take(e, b.fs, func() { b.perGroup = b.oldPerGroup }); err != nil {
		return err
	}
	return minGroupRenamed.in(cmd).take(e, b.fs, func() { b.minFinal = b.oldMinFinal })
}

// readGroups reads the logs at args split by the values of column by
// for command cmd (source.Read with a group column): one sample per
// value, in the order the values first came, for a command that needs
// what needs says of the items, split as opt says (a raw log is read in
// one pass into a sketch per value unless it needs the items).
func (r *readFlags) readGroups(e *env, args []string, cmd, by string, needs source.Needs, opt fit.StudyOptions) (*source.Input, error) {
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

// groupName is a group's value for people, as -f dsl writes it:
// quoted when it is empty or holds spaces, quotes, colons or control
// characters.
func groupName(v string) string { return export.DSLValue(v) }
