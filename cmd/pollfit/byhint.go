package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit/schedule"
)

// byHint is the note for the logs at args naming a column the read did
// not use, or "": the first column that holds status words (read it with
// --status-col) or separates the answers (try --by), as source.Hint
// finds it, named once, on stderr, with at most four of its values.
func (r *readFlags) byHint(ctx context.Context, args []string, st logs.Stats) string {
	if r.quiet || r.noHint || r.histogram {
		return ""
	}
	opt, err := r.options()
	if err != nil {
		return ""
	}
	h := source.Hint(ctx, args, opt, st.Rows)
	switch {
	case h == nil:
		return ""
	case h.Status != nil:
		return statusHint(h)
	}
	var parts []string
	for _, m := range h.Ages {
		parts = append(parts, groupName(m.Value)+" "+schedule.FormatAge(m.Median))
	}
	return fmt.Sprintf("%s separates answers (median %s): try --by %s", h.Column, listSome(parts), h.Column)
}

// statusHint says that h's column holds status words, naming the values
// that are not known, which need --pending-status or --final-status.
func statusHint(h *source.ColumnHint) string {
	s := fmt.Sprintf("column %s holds status words (%s): read it with --status-col %s to take each row's outcome from it (without, a row is pending only when it has no settle time)", h.Column, listSome(h.Status), h.Column)
	if len(h.Other) > 0 {
		s += fmt.Sprintf("; its other values (%s) need --pending-status or --final-status", listSome(h.Other))
	}
	return s
}

// listSome joins up to four values, then "…".
func listSome(vs []string) string {
	if len(vs) > 4 {
		return strings.Join(vs[:4], ", ") + ", …"
	}
	return strings.Join(vs, ", ")
}
