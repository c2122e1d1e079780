package export

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Groups are one schedule per value of a categorical column (pollfit
// fit --by), with the schedule for values not among them.
type Groups struct {
	// By names the column, for example "method".
	By string
	// Values and Schedules are parallel: Schedules[i] is for Values[i].
	Values    []string
	Schedules []*schedule.Schedule
	// Fallback is the schedule for any other value: the one schedule
	// fitted to all items.
	Fallback *schedule.Schedule
}

func (s Groups) check() error {
	if len(s.Values) != len(s.Schedules) || s.Fallback == nil {
		return errors.New("export: groups need one schedule per value and a fallback")
	}
	seen := map[string]bool{}
	for i, v := range s.Values {
		if seen[v] {
			return fmt.Errorf("export: group value %q given twice", v)
		}
		seen[v] = true
		if err := s.Schedules[i].Validate(); err != nil {
			return fmt.Errorf("export: group %q: %w", v, err)
		}
	}
	if err := s.Fallback.Validate(); err != nil {
		return fmt.Errorf("export: fallback: %w", err)
	}
	return nil
}

// WriteGroups is Write for a schedule per group: "dsl" writes one
// line per value, VALUE: SCHEDULE (the value Go-quoted when it is empty,
// "*", or holds a colon, a quote, '#', spaces or control characters),
// then "*: FALLBACK"; "json" a document mapping each value to a version 1
// schedule document, with the fallback; "go" a map from value to
// schedule with a For(value) method that returns the fallback for a value
// not in it; "js" and "ts" the module of the fallback with groups (one
// API per value: schedule, next, asks, BackOff, ...) and scheduleFor(value);
// "kotlin" the object of the fallback and a class of the same API over
// any schedule, whose companion holds values (a map from value to
// schedule), fallback and scheduleFor(value) (goOpt's Package and Var
// name the package and the object); "python" the module of the fallback
// with SEGMENTS (a dict from value to Schedule, the module's API over
// it) and schedule_for(value). "asks" has no grouped form.
func WriteGroups(w io.Writer, format string, s Groups, meta *Meta, goOpt GoOptions) error {
	if err := s.check(); err != nil {
		return err
	}
	if goOpt.Explore.On() {
		return fmt.Errorf("export: exploring is written for one schedule, not a schedule per group: export each group's schedule with its own --explore")
	}
	return writeGroups(w, format, s, meta, goOpt)
}

// DSLValue is a group value as segmentsDSL writes it.
func DSLValue(v string) string {
	if v == "" || v == "*" || strings.ContainsAny(v, ":\"#\t ") || strconv.Quote(v) != `"`+v+`"` {
		return strconv.Quote(v)
	}
	return v
}

func segmentsDSL(w io.Writer, s Groups, meta *Meta) error {
	var b strings.Builder
	for _, l := range meta.lines() {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	if s.By != "" {
		b.WriteString("# by: " + commentLine(s.By) + "\n")
	}
	for i, v := range s.Values {
		b.WriteString(DSLValue(v) + ": " + schedule.Format(s.Schedules[i]) + "\n")
	}
	b.WriteString("*: " + schedule.Format(s.Fallback) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// segmentsDoc is the JSON form of Segments.
type segmentsDoc struct {
	Version  int                  `json:"version"`
	By       string               `json:"by"`
	Segments map[string]*document `json:"segments"`
	Fallback *document            `json:"fallback"`
	Meta     *Meta                `json:"meta,omitempty"`
}

func segmentsJSON(w io.Writer, s Groups, meta *Meta) error {
	if err := meta.check(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	d := segmentsDoc{Version: Version, By: s.By, Segments: map[string]*document{}, Fallback: toDocument(s.Fallback, nil), Meta: meta}
	for i, v := range s.Values {
		d.Segments[v] = toDocument(s.Schedules[i], nil)
	}
	b, err := json.MarshalIndent(d, "", "  ")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	_, err = w.Write(append(compactNumberLists(b), '\n'))
	return err
}

// goSeg is one segment of a Go file: its map key and schedule literal.
type goSeg struct{ Key, DSL, Lit string }

// goSegments writes s as Go: the types of Go, a SegmentsType (Segments,
// or TypeSegments for another Type) holding a map from value to schedule
// and the Fallback, and its For(value) method.
func goSegments(w io.Writer, s Groups, opt GoOptions) error {
	d, err := goDataFor(schedule.Canonical(s.Fallback), opt)
	if err != nil {
		return err
	}
	d.SegType = strings.TrimSuffix(d.Type, "Schedule") + "Segments"
	if d.Type != "Schedule" {
		d.SegType = d.Type + "Segments"
	}
	if d.Var == d.SegType {
		return nameError("Var", "variable name %s is taken by a generated type; pick another Var or Type", d.Var)
	}
	d.By, d.ByLit = commentLine(s.By), strconv.Quote(s.By)
	d.Lit = goLiteral(d, schedule.Canonical(s.Fallback))
	for i, v := range s.Values {
		c := schedule.Canonical(s.Schedules[i])
		d.Segs = append(d.Segs, goSeg{Key: strconv.Quote(v), DSL: commentLine(schedule.Format(c)), Lit: goLiteral(d, c)})
	}
	return writeGo(w, d)
}

// goLiteral is c as a composite literal of the file's types.
func goLiteral(d *goData, c *schedule.Schedule) string {
	var b strings.Builder
	b.WriteString("{")
	if len(c.Clauses) > 0 {
		b.WriteString("\nClauses: []" + d.Clause + "{\n")
		for _, cl := range c.Clauses {
			b.WriteString(goClause(cl) + ",\n")
		}
		b.WriteString("},")
	}
	if len(c.Aligned) > 0 {
		b.WriteString("\nAligned: []" + d.AlignedT + "{\n")
		for _, a := range c.Aligned {
			b.WriteString(goAligned(a) + ",\n")
		}
		b.WriteString("},")
	}
	if c.ResetOnSignal {
		b.WriteString("\nResetOnSignal: true,")
	}
	if b.Len() > 1 {
		b.WriteString("\n")
	}
	b.WriteString("}")
	return b.String()
}
