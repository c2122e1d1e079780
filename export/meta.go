package export

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Meta says where a schedule came from. Every field is optional; the
// zero Meta (or a nil *Meta) says nothing. DSL writes it as a "#"
// comment header, JSON as the "meta" object, Go in the variable's doc
// comment.
type Meta struct {
	// Comment is free text, for example why the schedule was chosen.
	// It may span lines.
	Comment string `json:"comment,omitempty"`
	// Source names the input the schedule was fitted from, for example
	// "payments.csv (12,345 items, 2026-11-01..2026-11-28)".
	Source string `json:"source,omitempty"`
	// Budget is the budget it was fitted under, as given, for example
	// "8 asks per item".
	Budget string `json:"budget,omitempty"`
	// Metrics are fitted figures by name, for example "mean_asks" or
	// "p95_delay_s". They must be finite.
	Metrics map[string]float64 `json:"metrics,omitempty"`
	// Extra holds anything else for the JSON document; DSL and Go
	// output leave it out.
	Extra map[string]any `json:"extra,omitempty"`
}

// empty reports whether m says nothing DSL or Go would show.
func (m *Meta) empty() bool {
	return m == nil || m.Comment == "" && m.Source == "" && m.Budget == "" && len(m.Metrics) == 0
}

// check reports non-finite metrics, which JSON cannot hold.
func (m *Meta) check() error {
	if m == nil {
		return nil
	}
	for _, k := range sortedKeys(m.Metrics) {
		if v := m.Metrics[k]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("meta.metrics.%s: %v is not a finite number", k, v)
		}
	}
	return nil
}

// lines is m as comment lines without the comment marker: the comment
// line by line, then "fitted from: ...", "budget: ...", and one
// "name: value" line per metric in name order. Every line is
// sanitised by commentLine.
func (m *Meta) lines() []string {
	if m.empty() {
		return nil
	}
	var out []string
	if m.Comment != "" {
		out = append(out, commentLines(m.Comment)...)
	}
	if m.Source != "" {
		out = append(out, "fitted from: "+commentLine(m.Source))
	}
	if m.Budget != "" {
		out = append(out, "budget: "+commentLine(m.Budget))
	}
	for _, k := range sortedKeys(m.Metrics) {
		out = append(out, commentLine(k)+": "+strconv.FormatFloat(m.Metrics[k], 'g', 6, 64))
	}
	return out
}

// commentLines splits text at its line breaks (\n, \r\n, \r, U+2028,
// U+2029) and sanitises each line, so that no line of text can end a
// comment early.
func commentLines(text string) []string {
	text = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u2028", "\n", "\u2029", "\n").Replace(text)
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = commentLine(l)
	}
	return lines
}

// commentLine makes s safe inside a one-line comment of any of the
// output languages: control characters and line or paragraph
// separators become spaces, "*/" (which would end a Go or JavaScript
// block comment) becomes "* /", and trailing space is trimmed.
func commentLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			return ' '
		}
		return r
	}, s)
	for strings.Contains(s, "*/") {
		s = strings.ReplaceAll(s, "*/", "* /")
	}
	return strings.TrimRight(s, " ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
