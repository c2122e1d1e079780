package estimate

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/opterr"
	"github.com/pollfit/pollfit/internal/quote"
)

// parseSketchHeader reads the first line: the version and the fields,
// the segment column last.
func parseSketchHeader(line, name string) (*Sketch, error) {
	line = strings.TrimSuffix(line, "\r")
	by, segmented := "", false
	if i := strings.Index(line, " by="); i >= 0 {
		by, line, segmented = line[i+len(" by="):], line[:i], true
		if strings.HasPrefix(by, `"`) {
			u, err := strconv.Unquote(by)
			if err != nil {
				return nil, fmt.Errorf("%s:1: bad field by=%s (want by=a column name, quoted as in Go)", name, quote.Clip(by))
			}
			by = u
		}
		if by == "" {
			return nil, fmt.Errorf("%s:1: empty field by= (want the segment column's name)", name)
		}
	}
	fields := strings.Fields(strings.TrimPrefix(line, sketchMagic))
	if len(fields) == 0 || fields[0] != "1" && fields[0] != strconv.Itoa(SketchVersion) && fields[0] != strconv.Itoa(SketchIntervalVersion) {
		return nil, fmt.Errorf("%s:1: sketch version %q: this pollfit reads versions 1 to %d", name, quote.Clip(strings.Join(fields[:min(len(fields), 1)], "")), SketchIntervalVersion)
	}
	if segmented && fields[0] == "1" {
		return nil, fmt.Errorf("%s:1: a version 1 sketch has no groups (by=%s): the file is damaged", name, quote.Clip(by))
	}
	s := &Sketch{By: by}
	for _, f := range fields[1:] {
		k, v, ok := strings.Cut(f, "=")
		if k == "seed" { // all 64 bits, which a float64 would round
			n, err := strconv.ParseUint(v, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:1: bad field %q (want seed=an integer ≥ 0)", name, quote.Clip(f))
			}
			s.Seed = n
			continue
		}
		x, err := strconv.ParseFloat(v, 64)
		if !ok || err != nil || math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return nil, fmt.Errorf("%s:1: bad field %q (want key=number)", name, quote.Clip(f))
		}
		switch k {
		case "holdout":
			s.Holdout = x
		case "sample":
			if x != math.Trunc(x) || x > MaxSample {
				return nil, fmt.Errorf("%s:1: bad field %q (want sample=a whole number of rows, at most %d)", name, quote.Clip(f), MaxSample)
			}
			s.Sample = int(x)
		}
	}
	if opterr.Holdout(s.Holdout) != nil { // a file's value, not an option: not the option's error
		return nil, fmt.Errorf("%s:1: hold-out share %g: want 0 ≤ share < 1", name, s.Holdout)
	}
	return s, nil
}

// splitSketchRow splits a row into its want fields; in a segmented
// sketch the first, the segment, may be quoted as in CSV.
func splitSketchRow(row string, segmented bool, want int, name string, line int) ([]string, error) {
	row = strings.TrimSuffix(row, "\r")
	var f []string
	if segmented {
		seg, rest, err := cutCSVField(row)
		if err != nil {
			return nil, fmt.Errorf("%s:%d:1: column segment: %v", name, line, err)
		}
		f = append([]string{seg}, strings.Split(rest, ",")...)
		if rest == "" {
			f = f[:1]
		}
	} else {
		f = strings.Split(row, ",")
	}
	if len(f) != want {
		header := sketchHeader
		switch {
		case segmented && want > 8:
			header = sqlSegHeader
		case segmented:
			header = segHeader
		case want > 7:
			header = sqlSketchHeader
		}
		return nil, fmt.Errorf("%s:%d: %d fields, want %d (%s)", name, line, len(f), want, header)
	}
	return f, nil
}

// cutCSVField cuts the first field of a CSV row, unquoting it.
func cutCSVField(row string) (field, rest string, err error) {
	if !strings.HasPrefix(row, `"`) {
		field, rest, _ = strings.Cut(row, ",")
		return field, rest, nil
	}
	var b strings.Builder
	for i := 1; i < len(row); i++ {
		if row[i] != '"' {
			b.WriteByte(row[i])
			continue
		}
		if i+1 < len(row) && row[i+1] == '"' {
			b.WriteByte('"')
			i++
			continue
		}
		if i+1 < len(row) && row[i+1] != ',' {
			return "", "", fmt.Errorf("%q: a quote inside a quoted field, not doubled", quote.Clip(row))
		}
		return b.String(), row[min(i+2, len(row)):], nil
	}
	return "", "", fmt.Errorf("%q: a quoted field without its closing quote", quote.Clip(row))
}

// readRow adds one row's fields (the segment first in a segmented
// sketch) to s.
func (s *Sketch) readRow(f []string, name string, line int) error {
	r, o := SketchRow{}, 0
	if s.By != "" {
		r.Group, o = f[0], 1
	}
	r.Part, r.Kind, r.Mixed = f[o], f[o+1], f[o+6] == "1"
	if m := f[o+6]; m != "0" && m != "1" {
		return fmt.Errorf("%s:%d:%d: column mixed: %q (want 0 or 1)", name, line, o+7, quote.Clip(m))
	}
	bin, err := strconv.Atoi(f[o+2])
	if err != nil || bin < 0 || bin >= nSketchBins {
		return fmt.Errorf("%s:%d:%d: column bin: %q (want 0 to %d)", name, line, o+3, quote.Clip(f[o+2]), nSketchBins-1)
	}
	r.Bin = bin
	for k, x := range []*float64{&r.Age, &r.Weight, &r.Sum} {
		if *x, err = parseSketchNumber(f[o+3+k], SketchColumns[3+k]); err != nil {
			return rowError(err, name, line, o)
		}
	}
	return rowError(s.AddRow(r), name, line, o)
}

// rowError places a SketchRowError at its line and column.
func rowError(err error, name string, line, offset int) error {
	var re *SketchRowError
	if !errors.As(err, &re) {
		return err
	}
	col := 1
	if i := slices.Index(SketchColumns, re.Column); i >= 0 {
		col = i + 1 + offset
	}
	return fmt.Errorf("%s:%d:%d: %v", name, line, col, re)
}

// readSQLSketch reads the records of a SQL engine's sketch after its
// header, of the export kind (see exportKind).
func readSQLSketch(next recordSource, name string, kind int) (*Sketch, error) {
	var s *Sketch
	// want fields a row, o the segment's before the bins' and sp the
	// split's first field.
	want, o, sp := 9, 0, 7
	switch kind {
	case 2:
		want, o, sp = 11, 1, 8
	case 3:
		want, sp = 11, 9
	}
	var split string // the first row's holdout,seed(,segment_by)
	for {
		f, line, err := next()
		switch {
		case err == io.EOF:
			if s == nil {
				s = &Sketch{noSplit: true} // no rows: an empty table, of no split
			}
			return s, nil
		case err != nil && line > 0:
			return nil, fmt.Errorf("%s:%d: %v", name, line, err)
		case err != nil:
			return nil, fmt.Errorf("%s: %v", name, err)
		case len(f) != want:
			return nil, fmt.Errorf("%s:%d: %d fields, want %d (%s)", name, line, len(f), want, exportHeaders[kind])
		}
		here := strings.Join(f[sp:], ",")
		switch {
		case s == nil:
			head := fmt.Sprintf("%s%d holdout=%s seed=%s", sketchMagic, SketchVersion, f[sp], f[sp+1])
			if kind == 2 {
				head += " by=" + byField(f[10])
			}
			if s, err = parseSketchHeader(head, name); err != nil {
				return nil, fmt.Errorf("%s:%d:%d: split %s: %v", name, line, sp+1, quote.Clip(here), strings.TrimPrefix(err.Error(), name+":1: "))
			}
			split = here
		case here != split:
			return nil, fmt.Errorf("%s:%d:%d: split %s differs from the first row's (%s)", name, line, sp+1, quote.Clip(here), quote.Clip(split))
		}
		switch {
		case f[o+1] == DroppedKind:
			err = s.readDropped(f[o:o+7], name, line)
		case kind == 3 && f[1] == IntervalKind: // bin and hi_bin, sum_s and sum_hi_s: the ends'
			err = s.readIntervalRow([]string{f[0], f[2], f[7], f[4], f[5], f[8]}, name, line)
		default:
			err = s.readRow(f[:o+7], name, line)
		}
		if err != nil {
			return nil, err
		}
	}
}

// readDropped reads a row of kind dropped (its part, kind, bin, age_s,
// weight, sum_s and mixed fields): a count of rows the query left out,
// its reason in the part field.
func (s *Sketch) readDropped(f []string, name string, line int) error {
	n, err := strconv.ParseFloat(f[4], 64)
	if err != nil || !(n >= 1) || n != math.Trunc(n) || n > 1<<53 {
		return fmt.Errorf("%s:%d: column weight: %q (want the count of dropped rows, a whole number ≥ 1)", name, line, quote.Clip(f[4]))
	}
	if f[0] == pollerReasons[reasonPendingFinal] {
		return fmt.Errorf("%s:%d: the poller log has items seen pending by an ask after one saw them final (%s rows): check the status words (--final-status, --pending-status)", name, line, f[4])
	}
	if f[0] == "" || len(s.Dropped) >= len(sqlReasons)+len(pollerReasons) && s.Dropped[f[0]] == 0 {
		return fmt.Errorf("%s:%d: column part: %q (want the reason rows were dropped)", name, line, quote.Clip(f[0]))
	}
	s.addDropped(map[string]float64{f[0]: n})
	return nil
}
