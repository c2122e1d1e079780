package estimate

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// The item sample in a sketch file (the package doc, "The item sample",
// says the same). A sketch with a sample says how many rows a part keeps
// in its first line (sample=32768), and after the bin rows come a
// second header and one row a distinct sampled row, in the order of
// their keys, fitting part first:
//
//	part,status,age_s,created_ns,signal_s,weight
//	fit,settled,9.8123,1793534400123456789,4.5,1
//
// The part, the status (settled, failed or pending), the age in seconds,
// the creation time in Unix nanoseconds (empty when unknown), the age at
// the signal in seconds (empty when none came) and the number of times
// the row was added (the rows it stands for while the part's sample is
// exact). The row's hash is the split's, computed again on reading. A
// part's sample is exact when its weights add up to the part's count in
// the bins. A file without sample= in its first line has no sample, as a
// SQL engine's.

// sampleHeader is the header of a sketch file's sample rows.
const sampleHeader = "part,status,age_s,created_ns,signal_s,weight"

// sampleField is the first line's field giving the sample size.
func sampleField(s *Sketch) string {
	if !s.HasSample() {
		return ""
	}
	return fmt.Sprintf(" sample=%d", s.Sample)
}

// writeSample writes the sample rows of s, with their header.
func writeSample(w io.Writer, s *Sketch) {
	if !s.HasSample() {
		return
	}
	fmt.Fprintf(w, "%s\n", sampleHeader)
	for _, p := range s.parts() {
		sm := &p.a.sample
		if sm.k > 0 {
			sm.compact(sm.k)
		}
		for _, r := range sm.rows {
			writeSampleRow(w, p.name, r)
		}
	}
}

func writeSampleRow(w io.Writer, part string, r sampleRow) {
	created, signal := "", ""
	if r.dated {
		created = strconv.FormatInt(r.created, 10)
	}
	if r.signalled {
		signal = num(r.signal)
	}
	fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s\n", part, r.status, num(r.age), created, signal, num(r.n))
}

// readSampleRows reads the sample rows after their header, on line.
func (s *Sketch) readSampleRows(sc *bufio.Scanner, name string, line int) error {
	if !s.HasSample() {
		return fmt.Errorf("%s:%d: sample rows in a sketch whose first line has no sample= field: the sketch is damaged; write it again with pollfit sketch", name, line)
	}
	for line++; sc.Scan(); line++ {
		p, r, err := s.parseSampleRow(sc.Text(), name, line)
		if err != nil {
			return err
		}
		p.sample.add(r, s.Sample)
	}
	for _, p := range s.parts() {
		if err := p.a.settleSample(s.Sample); err != nil {
			return fmt.Errorf("%s: part %s: %v", name, p.name, err)
		}
	}
	return nil
}

// settleSample compacts a part's sample read from a file and tells
// whether it holds every row: it does when its weights add up to the
// part's count.
func (p *SketchPart) settleSample(k int) error {
	sm := &p.sample
	if sm.k > 0 {
		sm.compact(k)
	}
	t := sm.total()
	switch {
	case t > p.Items*(1+1e-9):
		return fmt.Errorf("the sample's weights add up to %g, more than the %g rows of the bins: the sketch is damaged; write it again with pollfit sketch", t, p.Items)
	case t < p.Items*(1-1e-9) && len(sm.rows) > 0:
		sm.capped, sm.cut = true, sm.rows[len(sm.rows)-1]
	}
	return nil
}

// parseSampleRow reads one sample row: its part and the row, hashed.
func (s *Sketch) parseSampleRow(row, name string, line int) (*SketchPart, sampleRow, error) {
	var r sampleRow
	f := strings.Split(strings.TrimSuffix(row, "\r"), ",")
	if len(f) != 6 {
		return nil, r, fmt.Errorf("%s:%d: %d fields, want 6 (%s)", name, line, len(f), sampleHeader)
	}
	bad := func(col int, want string) error {
		return fmt.Errorf("%s:%d:%d: column %s: %q (want %s)", name, line, col+1, strings.Split(sampleHeader, ",")[col], quote.Clip(f[col]), want)
	}
	p := pickPart(&s.Fit, &s.HeldOut, f[0])
	if p == nil {
		return nil, r, bad(0, "fit or heldout")
	}
	var it Item
	var ok bool
	if it.Status, ok = kindStatus(f[1]); !ok {
		return nil, r, bad(1, "settled, failed or pending")
	}
	var err error
	if it.Age, err = strconv.ParseFloat(f[2], 64); err != nil || !(it.Age >= 0) || it.Age > maxAgeSeconds {
		return nil, r, bad(2, "an age in seconds, from 0 to 100 years")
	}
	if f[3] != "" {
		if it.Created, err = strconv.ParseInt(f[3], 10, 64); err != nil {
			return nil, r, bad(3, "Unix nanoseconds, or empty")
		}
		it.Dated = true
	}
	if f[4] != "" {
		if it.Signal, err = strconv.ParseFloat(f[4], 64); err != nil || !(math.Abs(it.Signal) <= maxAgeSeconds) {
			return nil, r, bad(4, "an age in seconds, at most 100 years, or empty")
		}
		it.Signalled = true
	}
	w, err := strconv.ParseFloat(f[5], 64)
	if err != nil || !(w > 0) || math.IsInf(w, 0) {
		return nil, r, bad(5, "a number > 0")
	}
	return p, newSampleRow(rowHash(s.Seed, it), it, w), nil
}
