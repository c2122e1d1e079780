package main

import (
	"fmt"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
)

// maxEstimateGroups is the most values estimate --by summarises: each
// keeps an accumulator of up to 8 MB.
const maxEstimateGroups = 64

// estimateGroupJSON is one value's summary in estimate --by --json.
type estimateGroupJSON struct {
	Value   string          `json:"value"`
	Share   float64         `json:"share"`
	Summary *estimateReport `json:"summary"`
}

// estimateGroups is pollfit estimate --by: one summary per value of
// the column, read in one pass into an accumulator per value.
func estimateGroups(e *env, rf *readFlags, by string, args []string, qs []float64, atKeys []string, ages []float64, asJSON bool) error {
	var values []string
	var accs []*estimate.Accumulator
	so := source.Options{StreamBy: func(it estimate.Item, w float64, seg int, v string) {
		if seg == len(accs) {
			values = append(values, v)
			if len(accs) == maxEstimateGroups {
				return // said below
			}
			accs = append(accs, &estimate.Accumulator{})
		}
		if seg < len(accs) {
			accs[seg].AddWeighted(it, w)
		}
	}}
	so.Log.By = by
	in, err := rf.read(e, args, "estimate", so)
	if err != nil {
		return err
	}
	st := in.Stats
	if len(values) > maxEstimateGroups {
		return fmt.Errorf("estimate: --by %s: %d values; estimate summarises at most %d (fit and eval take up to 1000): pick a column with fewer values", by, len(values), maxEstimateGroups)
	}
	var out []estimateGroupJSON
	for i, acc := range accs {
		sum := summarize(acc, st, qs, atKeys, ages)
		if !rf.quiet {
			for _, w := range sum.warnings {
				fmt.Fprintf(e.stderr, "pollfit: warning: %s %s: %s\n", by, groupName(values[i]), w)
			}
		}
		if asJSON {
			out = append(out, estimateGroupJSON{Value: values[i], Share: acc.Items / float64(st.Items), Summary: &sum.report})
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s %s (%s of items):\n", by, groupName(values[i]), share(acc.Items/float64(st.Items)))
		if err := sum.writeText(e.stdout); err != nil {
			return err
		}
	}
	if !asJSON {
		return nil
	}
	return writeJSON(e.stdout, struct {
		By       string              `json:"by"`
		Segments []estimateGroupJSON `json:"segments"`
	}{by, out})
}
