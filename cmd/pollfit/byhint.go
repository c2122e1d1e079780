package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit/schedule"
)

// byHint is the note suggesting --by for the logs at args, or "": the
// first column that separates the answers (source.Hint), named once, on
// stderr, with at most four of its values' median ages.
func (r *readFlags) byHint(ctx context.Context, args []string, st logs.Stats) string {
	if r.quiet || r.noHint || r.histogram {
		return ""
	}
	opt, err := r.options()
	if err != nil {
		return ""
	}
	col, meds := source.Hint(ctx, args, opt, st.Rows)
	if col == "" {
		return ""
	}
	var parts []string
	for i, m := range meds {
		if i == 4 {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, segmentName(m.Value)+" "+schedule.FormatAge(m.Median))
	}
	return fmt.Sprintf("%s separates answers (median %s): try --by %s", col, strings.Join(parts, ", "), col)
}
