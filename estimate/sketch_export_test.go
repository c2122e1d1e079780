package estimate

import (
	"strings"
	"testing"
)

// engineForms rewrites a SQL sketch export (plain CSV, LF) as engines
// write it: ClickHouse's CSVWithNames (names and strings quoted),
// values quoted, a byte-order mark with CRLF, TSV, TSV with a BOM.
func engineForms(plain string) map[string]string {
	lines := strings.Split(strings.TrimSuffix(plain, "\n"), "\n")
	quoteAll := func(l string, all bool) string {
		f := strings.Split(l, ",")
		for i, v := range f {
			if all || strings.ContainsAny(v, "abcdefghijklmnopqrstuvwxyz") && !strings.ContainsAny(v[:1], "0123456789") {
				f[i] = `"` + v + `"`
			}
		}
		return strings.Join(f, ",")
	}
	each := func(fn func(i int, l string) string, sep string) string {
		out := make([]string, len(lines))
		for i, l := range lines {
			out[i] = fn(i, l)
		}
		return strings.Join(out, sep) + sep
	}
	return map[string]string{
		"clickhouse CSVWithNames": each(func(_ int, l string) string { return quoteAll(l, false) }, "\n"),
		"all quoted":              each(func(_ int, l string) string { return quoteAll(l, true) }, "\n"),
		"values quoted only": each(func(i int, l string) string {
			if i == 0 {
				return l
			}
			return quoteAll(l, false)
		}, "\n"),
		"bom crlf":  utf8BOM + each(func(_ int, l string) string { return l }, "\r\n"),
		"tsv":       each(func(_ int, l string) string { return strings.ReplaceAll(l, ",", "\t") }, "\n"),
		"bom tsv":   utf8BOM + each(func(_ int, l string) string { return strings.ReplaceAll(l, ",", "\t") }, "\r\n"),
		"bom upper": utf8BOM + each(func(i int, l string) string { return map[bool]string{true: strings.ToUpper(l), false: l}[i == 0] }, "\n"),
	}
}

// A SQL sketch reads alike in each form engines export CSV in, and is
// recognised by its parsed header in the first bytes a reader looks at.
func TestReadEngineCSVForms(t *testing.T) {
	s := mustSketch(t, sketchItems(2000, 9), 0.3, 1)
	plain := strings.ReplaceAll(sqlForm(t, s), "\r\n", "\n")
	plain = strings.Replace(plain, strings.ToUpper(sqlSketchHeader), sqlSketchHeader, 1)
	for form, in := range engineForms(plain) {
		if !IsSketch([]byte(in[:min(len(in), 40)])) || !IsSketch([]byte(in)) {
			t.Errorf("%s: not recognised as a sketch: %.80q", form, in)
		}
		got, err := ReadSketch(strings.NewReader(in), "e.csv")
		if err != nil {
			t.Errorf("%s: %v (%.120q)", form, err, in)
			continue
		}
		sameSketch(t, s, got)
	}
	for _, head := range []string{"created_at,settled_at,status\n", "part,kind\n", `"part","kind","bin","age_s"` + "\n", "part;kind;bin;age_s;weight\n", "# a comment\n"} {
		if IsSketch([]byte(head)) {
			t.Errorf("%q is recognised as a sketch", head)
		}
	}
}

// A segmented export with a quoted segment holding a comma and a quote,
// as ClickHouse and DuckDB quote it.
func TestReadEngineSegmentedQuoted(t *testing.T) {
	in := utf8BOM + `"segment","part","kind","bin","age_s","weight","sum_s","mixed","holdout","seed","segment_by"` + "\r\n" +
		`"a,""b""","fit","settled",30001,1,3,3,0,0.3,1,"method"` + "\r\n" +
		`"card","heldout","failed",40001,10,1,10,0,0.3,1,"method"` + "\r\n"
	got, err := ReadSketch(strings.NewReader(in), "e.csv")
	if err != nil {
		t.Fatal(err)
	}
	if got.By != "method" || got.Group(`a,"b"`) == nil || got.Group(`a,"b"`).Fit.Final != 3 || got.Group("card").HeldOut.Failed != 1 {
		t.Errorf("by %q, values %q", got.By, got.Values())
	}
}
