package estimate

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// The sketch file (CSV, version 1):
//
//	# pollfit sketch v1 holdout=0.3 seed=1
//	part,kind,bin,age_s,weight,sum_s,mixed
//	fit,settled,33418,9.8123,12,117.74,1
//
// One row a non-empty bin: the part (fit or heldout), the kind (settled,
// failed or pending),
// the bin (0 for ages below 1 ms, then 10000 a decade from 1 ms, so that
// bin i ≥ 1 starts at 10^((i−1)/10000) ms), the first age seen in it,
// the weight, the sum of the weighted ages, and 1 when the bin has seen
// more than one age (its items then stand at sum/weight, else at age_s).
// The header's fields are the split.
//
// A sketch computed by a SQL engine (see SketchSQL) comes without the
// first line, as the CSV an engine exports: its header is
//
//	part,kind,bin,age_s,weight,sum_s,mixed,holdout,seed
//
// and every row carries the split in its last two columns (all rows the
// same split). Its age_s is the least age in the bin, as in pollfit's own
// sketches. Header names are matched case-insensitively.

// sketchMagic starts a sketch file.
const sketchMagic = "# pollfit sketch v"

// sketchHeader is the sketch file's column header.
const sketchHeader = "part,kind,bin,age_s,weight,sum_s,mixed"

// sqlSketchHeader is the header of a sketch a SQL engine exported.
const sqlSketchHeader = sketchHeader + ",holdout,seed"

// IsSketch reports whether the start of a file (its first 20 bytes or
// more) is a sketch's, pollfit's or a SQL engine's.
func IsSketch(head []byte) bool {
	const n = len("part,kind,bin,age_s,")
	h := string(head)
	return strings.HasPrefix(h, sketchMagic) || len(h) >= n && strings.EqualFold(h[:n], sqlSketchHeader[:n])
}

// WriteSketch writes s as a sketch file.
func WriteSketch(w io.Writer, s *Sketch) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s%d holdout=%s seed=%d", sketchMagic, SketchVersion, num(s.Holdout), s.Seed)
	fmt.Fprintf(bw, "\n%s\n", sketchHeader)
	for _, p := range s.parts() {
		for i := range p.a.settled {
			for _, k := range p.a.kinds(i) {
				writeBin(bw, p.name, k.name, i, k.b)
			}
		}
	}
	return bw.Flush()
}

type sketchPart struct {
	name string
	a    *SketchPart
}

func (s *Sketch) parts() []sketchPart {
	return []sketchPart{{"fit", &s.Fit}, {"heldout", &s.HeldOut}}
}

func writeBin(w io.Writer, part, kind string, i int, b *binStat) {
	if b.w > 0 {
		fmt.Fprintf(w, "%s,%s,%d,%s,%s,%s,%d\n", part, kind, i, num(b.first), num(b.w), num(b.sum), b2i(b.mixed))
	}
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// ReadSketch reads a sketch file, pollfit's or a SQL engine's; name is
// for errors, which give the line and column.
func ReadSketch(r io.Reader, name string) (*Sketch, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	if !sc.Scan() || !IsSketch(sc.Bytes()) {
		return nil, fmt.Errorf("%s:1: not a pollfit sketch (its first line is not %q)", name, sketchMagic+"1 ...")
	}
	if strings.EqualFold(strings.TrimSpace(sc.Text()), sqlSketchHeader) {
		return readSQLSketch(sc, name)
	}
	s, err := parseSketchHeader(sc.Text(), name)
	if err != nil {
		return nil, err
	}
	if !sc.Scan() || sc.Text() != sketchHeader {
		return nil, fmt.Errorf("%s:2: want the header %q", name, sketchHeader)
	}
	for line := 3; sc.Scan(); line++ {
		if err := s.readRow(sc.Text(), name, line); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return s, nil
}

// readSQLSketch reads the rows of a SQL engine's sketch after its header.
func readSQLSketch(sc *bufio.Scanner, name string) (*Sketch, error) {
	var s *Sketch
	var split string // the first row's holdout,seed
	for line := 2; sc.Scan(); line++ {
		f := strings.Split(strings.TrimSuffix(sc.Text(), "\r"), ",")
		if len(f) != 9 {
			return nil, fmt.Errorf("%s:%d: %d fields, want 9 (%s)", name, line, len(f), sqlSketchHeader)
		}
		switch here := f[7] + "," + f[8]; {
		case s == nil:
			var err error
			if s, err = parseSketchHeader(fmt.Sprintf("%s%d holdout=%s seed=%s", sketchMagic, SketchVersion, f[7], f[8]), name); err != nil {
				return nil, fmt.Errorf("%s:%d:8: split %s: %v", name, line, quote.Clip(here), strings.TrimPrefix(err.Error(), name+":1: "))
			}
			split = here
		case here != split:
			return nil, fmt.Errorf("%s:%d:8: split %s differs from the first row's (%s)", name, line, quote.Clip(here), quote.Clip(split))
		}
		if err := s.readRow(strings.Join(f[:7], ","), name, line); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if s == nil {
		s = &Sketch{} // no rows: an empty table
	}
	return s, nil
}
