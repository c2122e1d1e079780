package main

import (
	"context"
	"fmt"
	"io"
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

// hintNote is byHint looked for on a goroutine of its own, beside the
// study and what follows it (the report's figures and page), and said
// once the command has its result; nil says nothing.
type hintNote struct {
	done chan struct{}
	note string
}

// lookForHint starts byHint for the logs at args (nil when quiet, or
// when no hint is looked for: see byHint).
func (r *readFlags) lookForHint(ctx context.Context, args []string, st logs.Stats) *hintNote {
	if r.quiet || r.noHint || r.histogram {
		return nil
	}
	h := &hintNote{done: make(chan struct{})}
	go func() {
		defer close(h.done)
		h.note = r.byHint(ctx, args, st)
	}()
	return h
}

// wait waits for the hint (nothing for nil) and returns it.
func (h *hintNote) wait() string {
	if h == nil {
		return ""
	}
	<-h.done
	return h.note
}

// say writes the hint, once found, as a note to w.
func (h *hintNote) say(w io.Writer) {
	if n := h.wait(); n != "" {
		fmt.Fprintf(w, "pollfit: note: %s\n", n)
	}
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
