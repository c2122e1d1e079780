package export

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Version is the version of the JSON document JSON writes and ReadJSON
// reads.
const Version = 1

//go:embed schedule.schema.json
var schemaJSON []byte

// JSONSchema returns the JSON Schema (draft 2020-12) of the document
// JSON writes. The caller may keep the slice; it is a copy.
func JSONSchema() []byte { return bytes.Clone(schemaJSON) }

// document is the JSON form of a schedule, version 1. Key order here
// is the order in the output.
type document struct {
	Version       int          `json:"version"`
	Schedule      string       `json:"schedule"`
	Clauses       []clauseDoc  `json:"clauses"`
	Aligned       []alignedDoc `json:"aligned"`
	ResetOnSignal bool         `json:"reset_on_signal"`
	Stops         bool         `json:"stops"`
	EndMS         json.Number  `json:"end_ms,omitempty"`
	Meta          *Meta        `json:"meta,omitempty"`
}

type clauseDoc struct {
	Kind    string        `json:"kind"`
	AtMS    []json.Number `json:"at_ms,omitempty"`
	EveryMS json.Number   `json:"every_ms,omitempty"`
	UntilMS json.Number   `json:"until_ms,omitempty"`
	Forever bool          `json:"forever,omitempty"`
}

type alignedDoc struct {
	PeriodMS  json.Number   `json:"period_ms"`
	OffsetsMS []json.Number `json:"offsets_ms"`
	UntilMS   json.Number   `json:"until_ms,omitempty"`
	Forever   bool          `json:"forever,omitempty"`
}

// JSON writes s as a version 1 JSON document (see the package
// documentation and JSONSchema): the canonical clauses with durations
// in milliseconds, the canonical DSL string, whether and when it
// stops, and meta when not nil. The output ends in a new line.
func JSON(w io.Writer, s *schedule.Schedule, meta *Meta) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := meta.check(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	b, err := json.MarshalIndent(toDocument(s, meta), "", "  ")
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	b = compactNumberLists(b)
	_, err = w.Write(append(b, '\n'))
	return err
}

func toDocument(s *schedule.Schedule, meta *Meta) *document {
	c := schedule.Canonical(s)
	d := &document{
		Version:       Version,
		Schedule:      schedule.Format(c),
		Clauses:       []clauseDoc{},
		Aligned:       []alignedDoc{},
		ResetOnSignal: c.ResetOnSignal,
		Meta:          meta,
	}
	for _, cl := range c.Clauses {
		switch {
		case cl.IsAt():
			d.Clauses = append(d.Clauses, clauseDoc{Kind: "at", AtMS: msList(cl.At)})
		case cl.Forever:
			d.Clauses = append(d.Clauses, clauseDoc{Kind: "every", EveryMS: ms(cl.Every), Forever: true})
		default:
			d.Clauses = append(d.Clauses, clauseDoc{Kind: "every", EveryMS: ms(cl.Every), UntilMS: ms(cl.Until)})
		}
	}
	for _, a := range c.Aligned {
		ad := alignedDoc{PeriodMS: ms(a.Period), OffsetsMS: msList(a.Offsets), Forever: a.Until == 0}
		if a.Until > 0 {
			ad.UntilMS = ms(a.Until)
		}
		d.Aligned = append(d.Aligned, ad)
	}
	if end, ok := c.End(); ok {
		d.Stops, d.EndMS = true, ms(end)
	}
	return d
}

// numberList matches an indented array of numbers, one per line.
var numberList = regexp.MustCompile(`\[\n\s*(?:[-0-9.eE+]+,\n\s*)*[-0-9.eE+]+\n\s*\]`)

// compactNumberLists puts each array of numbers in b, as MarshalIndent
// writes them, on one line: [0, 3000, 8000]. JSON strings hold no raw
// new lines, so no string is touched.
func compactNumberLists(b []byte) []byte {
	return numberList.ReplaceAllFunc(b, func(m []byte) []byte {
		fields := strings.Fields(strings.Trim(string(m), "[]"))
		return []byte("[" + strings.Join(fields, " ") + "]")
	})
}

// ms writes d in milliseconds as an exact decimal: "1500" for 1.5s,
// "0.25" for 250µs, "0.000001" for 1ns.
func ms(d time.Duration) json.Number {
	neg := d < 0
	if neg {
		d = -d // only reached for a duration that failed validation
	}
	q, r := int64(d/time.Millisecond), int64(d%time.Millisecond)
	s := strconv.FormatInt(q, 10)
	if r != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%06d", r), "0")
	}
	if neg {
		s = "-" + s
	}
	return json.Number(s)
}

func msList(ds []time.Duration) []json.Number {
	out := make([]json.Number, len(ds))
	for i, d := range ds {
		out[i] = ms(d)
	}
	return out
}
