package estimate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// parseSketchHeader reads the first line: the version and the fields.
func parseSketchHeader(line, name string) (*Sketch, error) {
	fields := strings.Fields(strings.TrimPrefix(line, sketchMagic))
	if len(fields) == 0 || fields[0] != strconv.Itoa(SketchVersion) {
		return nil, fmt.Errorf("%s:1: sketch version %q: this pollfit reads version %d", name, quote.Clip(strings.Join(fields[:min(len(fields), 1)], "")), SketchVersion)
	}
	s := &Sketch{}
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
		}
	}
	if !(s.Holdout >= 0 && s.Holdout < 1) {
		return nil, fmt.Errorf("%s:1: hold-out share %g: want 0 ≤ share < 1", name, s.Holdout)
	}
	return s, nil
}

// readRow adds one bin row to s.
func (s *Sketch) readRow(row, name string, line int) error {
	f := strings.Split(row, ",")
	if len(f) != 7 {
		return fmt.Errorf("%s:%d: %d fields, want 7 (%s)", name, line, len(f), sketchHeader)
	}
	var a *SketchPart
	switch f[0] {
	case "fit":
		a = &s.Fit
	case "heldout":
		a = &s.HeldOut
	default:
		return fmt.Errorf("%s:%d:1: column part: %q (want fit or heldout)", name, line, quote.Clip(f[0]))
	}
	bin, err := strconv.Atoi(f[2])
	if err != nil || bin < 0 || bin >= nSketchBins {
		return fmt.Errorf("%s:%d:3: column bin: %q (want 0 to %d)", name, line, quote.Clip(f[2]), nSketchBins-1)
	}
	var v [3]float64
	for k, col := range []int{3, 4, 5} {
		x, err := strconv.ParseFloat(f[col], 64)
		if err != nil || !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("%s:%d:%d: column %s: %q (want a number ≥ 0)", name, line, col+1, strings.Split(sketchHeader, ",")[col], quote.Clip(f[col]))
		}
		v[k] = x
	}
	if v[1] == 0 || sketchBin(v[0]) != bin {
		return fmt.Errorf("%s:%d:4: column age_s: %s is not in bin %d, or the weight is 0", name, line, quote.Clip(f[3]), bin)
	}
	if v[0] > maxAgeSeconds || v[2] > v[1]*maxAgeSeconds {
		return fmt.Errorf("%s:%d:4: age beyond 100 years (age_s %s, mean sum_s/weight %g s): the sketch is damaged; write it again with pollfit sketch", name, line, quote.Clip(f[3]), v[2]/v[1])
	}
	b := binStat{first: v[0], w: v[1], sum: v[2], mixed: f[6] == "1"}
	switch f[1] {
	case "settled":
		mergeLeast(&a.settled[bin], &b)
		a.Final += b.w
	case "failed":
		mergeLeast(&a.failed[bin], &b)
		a.Final += b.w
		a.Failed += b.w
	case "pending":
		mergeLeast(&a.pending[bin], &b)
		a.Pending += b.w
	default:
		return fmt.Errorf("%s:%d:2: column kind: %q (want settled, failed or pending)", name, line, quote.Clip(f[1]))
	}
	a.Items += b.w
	return nil
}
