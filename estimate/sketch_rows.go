package estimate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/pollfit/pollfit/internal/quote"
)

// A SketchRow is one row of a sketch file (see WriteSketch): one
// non-empty bin of one kind in one part, of one group in a grouped
// sketch. Readers and writers of other file formats go through it.
type SketchRow struct {
	// Group is the row's value of the sketch's By column ("" when the
	// sketch is not grouped).
	Group string
	// Part is fit or heldout, Kind settled, failed or pending.
	Part, Kind string
	// Bin is the age bin (0 to 130001); Age the least age in it, Weight
	// its weight, Sum its weighted sum of ages, all in seconds.
	Bin              int
	Age, Weight, Sum float64
	// Mixed reports that the bin has seen more than one age.
	Mixed bool
}

// SketchColumns are the columns of a sketch file's rows, after the
// segment column of a grouped sketch.
var SketchColumns = []string{"part", "kind", "bin", "age_s", "weight", "sum_s", "mixed"}

// A SketchRowError is a bad row's problem and the column it is in, one
// of SketchColumns.
type SketchRowError struct {
	Column string
	Msg    string
}

func (e *SketchRowError) Error() string { return "column " + e.Column + ": " + e.Msg }

// Rows calls fn with each row of s in the file's order: by group in
// the order the values came (the whole sketch when it has no groups),
// then part, bin and kind. It stops at fn's first error.
func (s *Sketch) Rows(fn func(SketchRow) error) error {
	if s.By == "" {
		return partRows("", &s.Fit, &s.HeldOut, fn)
	}
	for _, g := range s.Groups {
		if err := partRows(g.Value, &g.Fit, &g.HeldOut, fn); err != nil {
			return err
		}
	}
	return nil
}

func partRows(seg string, fitPart, heldOut *SketchPart, fn func(SketchRow) error) error {
	for _, p := range []sketchPart{{"fit", fitPart}, {"heldout", heldOut}} {
		err := p.a.eachBin(func(i int, k [3]binStat) error {
			for j, b := range k {
				if b.w == 0 {
					continue
				}
				r := SketchRow{Group: seg, Part: p.name, Kind: kindStatuses[j].String(), Bin: i, Age: b.first, Weight: b.w, Sum: b.sum, Mixed: b.mixed}
				if err := fn(r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// AddRow adds one row to s: to the row's group and the whole in a
// grouped sketch (r.Group is ignored in one without groups). A bad
// row is a *SketchRowError naming its column; s is then unchanged.
func (s *Sketch) AddRow(r SketchRow) error {
	part := pickPart(&s.Fit, &s.HeldOut, r.Part)
	if part == nil {
		return &SketchRowError{"part", fmt.Sprintf("%q (want fit or heldout)", quote.Clip(r.Part))}
	}
	if r.Bin < 0 || r.Bin >= nSketchBins {
		return &SketchRowError{"bin", fmt.Sprintf("%d (want 0 to %d)", r.Bin, nSketchBins-1)}
	}
	for _, c := range []struct {
		name string
		x    float64
	}{{"age_s", r.Age}, {"weight", r.Weight}, {"sum_s", r.Sum}} {
		if !(c.x >= 0) || math.IsInf(c.x, 0) {
			return &SketchRowError{c.name, fmt.Sprintf("%s (want a number ≥ 0)", num(c.x))}
		}
	}
	if r.Weight == 0 || sketchBin(r.Age) != r.Bin {
		return &SketchRowError{"age_s", fmt.Sprintf("%s is not in bin %d, or the weight is 0", num(r.Age), r.Bin)}
	}
	if r.Age > maxAgeSeconds || r.Sum > r.Weight*maxAgeSeconds {
		return &SketchRowError{"age_s", fmt.Sprintf("age beyond 100 years (age_s %s, mean sum_s/weight %g s): the sketch is damaged; write it again with pollfit sketch", num(r.Age), r.Sum/r.Weight)}
	}
	st, ok := kindStatus(r.Kind)
	if !ok {
		return &SketchRowError{"kind", fmt.Sprintf("%q (want settled, failed or pending)", quote.Clip(r.Kind))}
	}
	parts := []*SketchPart{part}
	if s.By != "" {
		g, err := s.group(r.Group)
		if err != nil {
			return &SketchRowError{"segment", err.Error()}
		}
		parts = append(parts, pickPart(&g.Fit, &g.HeldOut, r.Part))
	}
	for _, p := range parts {
		p.addBin(r, st)
	}
	return nil
}

// pickPart is fitPart or heldOut as a row's part field names them (fit
// or heldout), nil for another name.
func pickPart(fitPart, heldOut *SketchPart, name string) *SketchPart {
	switch name {
	case "fit":
		return fitPart
	case "heldout":
		return heldOut
	}
	return nil
}

// kindStatus is the status a row's kind (or status) field names:
// settled, failed or pending.
func kindStatus(kind string) (Status, bool) {
	for _, st := range kindStatuses {
		if kind == st.String() {
			return st, true
		}
	}
	return 0, false
}

// addBin adds a checked row's bin, of status st, to p.
func (p *SketchPart) addBin(r SketchRow, st Status) {
	b := binStat{first: r.Age, w: r.Weight, sum: r.Sum, mixed: r.Mixed}
	switch st {
	case Settled:
		mergeLeast(p.settled.at(r.Bin), &b)
		p.Final += b.w
	case Failed:
		mergeLeast(p.failed.at(r.Bin), &b)
		p.Final += b.w
		p.Failed += b.w
	default:
		mergeLeast(p.pending.at(r.Bin), &b)
		p.Pending += b.w
	}
	p.Items += b.w
}

// parseSketchNumber reads a row's number field.
func parseSketchNumber(f, col string) (float64, error) {
	x, err := strconv.ParseFloat(f, 64)
	if err != nil || !(x >= 0) || math.IsInf(x, 0) {
		return 0, &SketchRowError{col, fmt.Sprintf("%q (want a number ≥ 0)", quote.Clip(f))}
	}
	return x, nil
}

// Bins are a part's items as weighted items, one a non-empty bin and
// kind (settled, failed, pending), at the bin's common age, or its mean
// age when they differ.
func (p *SketchPart) Bins() (items []Item, weights []float64) {
	lists := p.binLists()
	if n := len(lists[0]) + len(lists[1]) + len(lists[2]); n > 0 {
		items, weights = make([]Item, 0, n), make([]float64, 0, n)
	}
	p.walkBins(lists, func(_ int, k [3]binStat) error {
		for j, b := range k {
			if b.w > 0 {
				items = append(items, Item{Age: b.age(), Status: kindStatuses[j]})
				weights = append(weights, b.w)
			}
		}
		return nil
	})
	return items, weights
}
