package estimate

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The sketch file (CSV, version 2):
//
//	# pollfit sketch v2 holdout=0.3 seed=1
//	part,kind,bin,age_s,weight,sum_s,mixed
//	fit,settled,33418,9.8123,12,117.74,1
//
// One row a non-empty bin: the part (fit or heldout), the kind (settled,
// failed or pending),
// the bin (0 for ages below 1 ms, then 10000 a decade from 1 ms, so that
// bin i ≥ 1 starts at 10^((i−1)/10000) ms), the first age seen in it,
// the weight, the sum of the weighted ages, and 1 when the bin has seen
// more than one age (its items then stand at sum/weight, else at age_s).
// The header's fields are the split, and the item sample's size when
// the sketch keeps one: its rows follow the bins' (see the package doc,
// "The item sample").
//
// A grouped sketch (pollfit sketch --by COLUMN, NewGroupedSketch)
// names its column last in the first line, and its rows start with the
// row's value of that column, quoted as in CSV when it holds a comma or
// a quote (a value with a line break cannot be written):
//
//	# pollfit sketch v2 holdout=0.3 seed=1 by=method
//	segment,part,kind,bin,age_s,weight,sum_s,mixed
//	wallet,fit,settled,33418,9.8123,12,117.74,1
//
// The column's name is written as a Go string literal when it holds
// anything but letters, digits, '_', '.' and '-'. The rows of each value
// are that value's sketch, of the same split; the sketch without
// segments is their sum. Version 1, the same file without groups,
// reads as before.
//
// A sketch computed by a SQL engine (see SketchSQL) comes without the
// first line, as the CSV an engine exports: its header is
//
//	part,kind,bin,age_s,weight,sum_s,mixed,holdout,seed
//
// and every row carries the split in its last two columns (all rows the
// same split); grouped (SQLOptions.By), it is
//
//	segment,part,kind,bin,age_s,weight,sum_s,mixed,holdout,seed,segment_by
//
// with the column's name in the last. Its age_s is the least age in the
// bin, as in pollfit's own sketches. Rows of kind dropped (DroppedKind)
// count the rows the query left out: the reason in part, the count in
// weight, bin, age_s, sum_s and mixed 0 (Sketch.Dropped). An export with
// no rows is an empty sketch of no split, which merges into any. Header
// names are matched case-insensitively, after a UTF-8 byte-order mark,
// quoted or not, separated by commas or tabs (see IsSketch).
//
// A sketch with interval-censored items (AddInterval) is written as
// version 3, version 2 with an interval part (see
// SketchIntervalVersion).
//
// Package estimate/logs writes and reads the same rows as a Parquet file
// (logs.WriteParquetSketch).

// sketchMagic starts a sketch file.
const sketchMagic = "# pollfit sketch v"

// sketchHeader is the sketch file's column header.
const sketchHeader = "part,kind,bin,age_s,weight,sum_s,mixed"

// segHeader is a grouped sketch file's column header.
const segHeader = "segment," + sketchHeader

// sqlSketchHeader is the header of a sketch a SQL engine exported, and
// sqlSegHeader that of a segmented one.
const (
	sqlSketchHeader = sketchHeader + ",holdout,seed"
	// sqlPollerHeader heads the export of a poller log's query, with
	// interval rows (see SketchSQL).
	sqlPollerHeader = sketchHeader + ",hi_bin,sum_hi_s,holdout,seed"
	sqlSegHeader    = segHeader + ",holdout,seed,segment_by"
)

// IsSketch reports whether the start of a file (its first line, or
// enough of it to hold four column names) is a sketch's: pollfit's, or
// a SQL engine's export, told by its parsed header (see
// exportHeader: quoted or not, comma- or tab-separated, after a
// byte-order mark or not).
func IsSketch(head []byte) bool {
	h := bytes.TrimPrefix(head, []byte(utf8BOM))
	if bytes.HasPrefix(h, []byte(sketchMagic)) {
		return true
	}
	names, _, complete := exportHeader(h)
	return exportKind(names, complete) != 0
}

// WriteSketch writes s as a sketch file (version 2, grouped when s
// is). A segment value holding a line break is an error.
func WriteSketch(w io.Writer, s *Sketch) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s%d holdout=%s seed=%d%s", sketchMagic, fileVersion(s), num(s.Holdout), s.Seed, sampleField(s))
	header := sketchHeader
	if s.By != "" {
		fmt.Fprintf(bw, " by=%s", byField(s.By))
		header = segHeader
	}
	fmt.Fprintf(bw, "\n%s\n", header)
	err := s.Rows(func(r SketchRow) error {
		if s.By != "" {
			if strings.Contains(r.Group, "\n") {
				return fmt.Errorf("sketch: %s value %q holds a line break, which a sketch file cannot keep", s.By, r.Group)
			}
			bw.WriteString(csvField(r.Group) + ",")
		}
		_, err := fmt.Fprintf(bw, "%s,%s,%d,%s,%s,%s,%d\n", r.Part, r.Kind, r.Bin, num(r.Age), num(r.Weight), num(r.Sum), b2i(r.Mixed))
		return err
	})
	if err != nil {
		return err
	}
	writeIntervals(bw, s)
	writeSample(bw, s)
	return bw.Flush()
}

type sketchPart struct {
	name string
	a    *SketchPart
}

// parts are the sketch's two parts (of all values together) by name.
func (s *Sketch) parts() []sketchPart {
	return []sketchPart{{"fit", &s.Fit}, {"heldout", &s.HeldOut}}
}

// byField is a column name as the first line writes it.
func byField(by string) string {
	for _, c := range by {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			return strconv.Quote(by)
		}
	}
	return by
}

// csvField is v as a CSV field: quoted when it holds a comma, a quote
// or a carriage return.
func csvField(v string) string {
	if strings.ContainsAny(v, ",\"\r") {
		return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
	}
	return v
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ReadSketch reads a sketch file, pollfit's (version 1 or 2) or a SQL
// engine's export (see IsSketch); name is for errors, which give the
// line and column.
func ReadSketch(r io.Reader, name string) (*Sketch, error) {
	br := bufio.NewReaderSize(r, 64*1024)
	first, err := firstLine(br)
	if err != nil {
		return nil, fmt.Errorf("%s:1: %v", name, err)
	}
	first = bytes.TrimRight(bytes.TrimPrefix(first, []byte(utf8BOM)), "\r\n")
	names, comma, _ := exportHeader(append(first, '\n'))
	if kind := exportKind(names, true); kind != 0 {
		return readSQLSketch(csvRecords(br, comma), name, kind)
	}
	if !bytes.HasPrefix(first, []byte(sketchMagic)) {
		return nil, fmt.Errorf("%s:1: not a pollfit sketch (its first line is not %q, nor a SQL export's header %s)", name, sketchMagic+"2 ...", sqlSketchHeader)
	}
	s, err := parseSketchHeader(string(first), name)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(br)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	header, want := sketchHeader, 7
	if s.By != "" {
		header, want = segHeader, 8
	}
	if !sc.Scan() || strings.TrimSuffix(sc.Text(), "\r") != header {
		return nil, fmt.Errorf("%s:2: want the header %q", name, header)
	}
	for line := 3; sc.Scan(); line++ {
		if strings.TrimSuffix(sc.Text(), "\r") == intervalHeader && s.By == "" {
			end, sample, err := s.readIntervalRows(sc, name, line+1)
			if err != nil {
				return nil, err
			}
			if !sample {
				break
			}
			line = end
		}
		if strings.TrimSuffix(sc.Text(), "\r") == sampleHeader {
			if err := s.readSampleRows(sc, name, line); err != nil {
				return nil, err
			}
			break
		}
		f, err := splitSketchRow(sc.Text(), s.By != "", want, name, line)
		if err != nil {
			return nil, err
		}
		if err := s.readRow(f, name, line); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return s, nil
}
