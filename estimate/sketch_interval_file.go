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

// SketchIntervalVersion is the version of a sketch file with an
// interval part: version 2 and, after the bins' rows (before the item
// sample's), the interval part's under its own header,
//
//	# pollfit sketch v3 holdout=0.3 seed=1
//	part,kind,bin,age_s,weight,sum_s,mixed
//	fit,pending,60001,900,3,2700,0
//	part,lo_bin,hi_bin,weight,sum_lo_s,sum_hi_s
//	fit,30102,33011,12,24.000,60.000
//
// one row a pair of bins (of the interval's ends, as the bins' column
// bin): the weight and the weighted sums of the lower and upper ends.
// WriteSketch writes version 3 only for a sketch with intervals, so
// every other sketch file is as before; ReadSketch reads versions 1 to
// 3.
const SketchIntervalVersion = 3

// intervalHeader heads the interval part's rows.
const intervalHeader = "part,lo_bin,hi_bin,weight,sum_lo_s,sum_hi_s"

// fileVersion is the version WriteSketch writes for s.
func fileVersion(s *Sketch) int {
	if s.HasIntervals() {
		return SketchIntervalVersion
	}
	return SketchVersion
}

// writeIntervals writes the interval part's rows, if any.
func writeIntervals(w io.Writer, s *Sketch) {
	if !s.HasIntervals() {
		return
	}
	fmt.Fprintf(w, "%s\n", intervalHeader)
	for _, p := range s.parts() {
		keys := make([][2]int, 0, len(p.a.intervals))
		for k := range p.a.intervals {
			keys = append(keys, k)
		}
		sortPairs(keys)
		for _, k := range keys {
			v := p.a.intervals[k]
			fmt.Fprintf(w, "%s,%d,%d,%s,%s,%s\n", p.name, k[0], k[1], num(v.w), num(v.sumLo), num(v.sumHi))
		}
	}
}

func sortPairs(keys [][2]int) {
	for i := 1; i < len(keys); i++ { // insertion sort keeps the file stable
		for j := i; j > 0 && (keys[j][0] < keys[j-1][0] || keys[j][0] == keys[j-1][0] && keys[j][1] < keys[j-1][1]); j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
}

// readIntervalRows reads the interval part's rows after their header,
// on line, up to the item sample's header (returned true) or the end.
func (s *Sketch) readIntervalRows(sc *bufio.Scanner, name string, line int) (int, bool, error) {
	for ; sc.Scan(); line++ {
		text := strings.TrimSuffix(sc.Text(), "\r")
		if text == sampleHeader {
			return line, true, nil
		}
		if err := s.readIntervalRow(strings.Split(text, ","), name, line); err != nil {
			return line, false, err
		}
	}
	return line, false, nil
}

// readIntervalRow adds one row of the interval part.
func (s *Sketch) readIntervalRow(f []string, name string, line int) error {
	if len(f) != 6 {
		return fmt.Errorf("%s:%d: %d columns, want the 6 of %s", name, line, len(f), intervalHeader)
	}
	var p *SketchPart
	switch f[0] {
	case "fit":
		p = &s.Fit
	case "heldout":
		p = &s.HeldOut
	default:
		return fmt.Errorf("%s:%d:1: column part: %q (want fit or heldout)", name, line, quote.Clip(f[0]))
	}
	var k [2]int
	for i := range k {
		b, err := strconv.Atoi(f[1+i])
		if err != nil || b < 0 || b >= nSketchBins {
			return fmt.Errorf("%s:%d:%d: column %s: %q (want 0 to %d)", name, line, 2+i, []string{"lo_bin", "hi_bin"}[i], quote.Clip(f[1+i]), nSketchBins-1)
		}
		k[i] = b
	}
	var v [3]float64
	for i, col := range []string{"weight", "sum_lo_s", "sum_hi_s"} {
		x, err := strconv.ParseFloat(f[3+i], 64)
		if err != nil || !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("%s:%d:%d: column %s: %q (want a number ≥ 0)", name, line, 4+i, col, quote.Clip(f[3+i]))
		}
		v[i] = x
	}
	if !(v[0] > 0) || k[0] > k[1] || v[1] >= v[2] {
		return fmt.Errorf("%s:%d: interval row of weight %v, ends' sums %v and %v in bins %d and %d: want weight > 0, lo_bin ≤ hi_bin and sum_lo_s < sum_hi_s (the file is damaged)", name, line, v[0], v[1], v[2], k[0], k[1])
	}
	p.addIntervalStat(k, ivStat{v[0], v[1], v[2]})
	p.Items += v[0]
	p.Final += v[0]
	return nil
}
