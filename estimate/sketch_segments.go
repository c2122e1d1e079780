package estimate

import (
	"errors"
	"fmt"
	"strconv"
)

// MaxSketchSegments is the most values a segmented sketch keeps: each
// value's sketch takes up to 25 MB in memory (a few hundred kB for a
// few thousand rows).
const MaxSketchSegments = 64

// A SketchSegment is a segmented sketch's parts for one value of its
// column.
type SketchSegment struct {
	Value        string
	Fit, HeldOut SketchPart
}

// NewSegmentedSketch returns an empty sketch of the split NewSketch
// makes, that also keeps one sketch per value of column by (AddBy), each
// with an item sample of DefaultSample rows a part (SegmentSample). The
// rows of every value split by the same hash as an unsegmented sketch's,
// so its Fit and HeldOut, all the segments together, are the sketch
// NewSketch would make of the same rows, and each value's (Segment) the
// sketch NewSketch would make of that value's rows.
func NewSegmentedSketch(by string, holdout float64, seed uint64) (*Sketch, error) {
	if by == "" {
		return nil, errors.New("sketch: a segmented sketch needs the column it is split by")
	}
	s, err := NewSketch(holdout, seed)
	if err != nil {
		return nil, err
	}
	s.By, s.SegmentSample = by, DefaultSample
	return s, nil
}

// AddBy adds an item standing for w rows, whose row has value v in the
// sketch's By column, to v's segment and to the whole; it fails only
// when v would be a value beyond MaxSketchSegments.
func (s *Sketch) AddBy(v string, it Item, w float64) error {
	g, err := s.segment(v)
	if err != nil {
		return err
	}
	s.add(rowHash(s.Seed, it), it, w, fastSketchBin(it.Age), g)
	return nil
}

// segment is value v's segment, added when new.
func (s *Sketch) segment(v string) (*SketchSegment, error) {
	if s.By == "" {
		return nil, errors.New("sketch: not segmented: make it with NewSegmentedSketch")
	}
	if i, ok := s.segIndex[v]; ok {
		return s.Segments[i], nil
	}
	if s.segIndex == nil {
		s.segIndex = map[string]int{}
		for i, g := range s.Segments {
			s.segIndex[g.Value] = i
		}
		if i, ok := s.segIndex[v]; ok {
			return s.Segments[i], nil
		}
	}
	if len(s.Segments) >= MaxSketchSegments {
		return nil, fmt.Errorf("sketch: more than %d values of %s: a segmented sketch keeps at most %d (up to 25 MB each); segment by a column with fewer values", MaxSketchSegments, s.By, MaxSketchSegments)
	}
	g := &SketchSegment{Value: v}
	s.segIndex[v] = len(s.Segments)
	s.Segments = append(s.Segments, g)
	return g, nil
}

// Segment is value v's sketch as a sketch of its own (nil when the
// sketch has no such value): the same split, no segments, and the
// value's item sample of SegmentSample rows as its Sample. It shares no
// memory with s.
func (s *Sketch) Segment(v string) *Sketch {
	for _, g := range s.Segments {
		if g.Value == v {
			out := &Sketch{Holdout: s.Holdout, Seed: s.Seed, Sample: s.SegmentSample, Fit: g.Fit.clone(), HeldOut: g.HeldOut.clone()}
			return out
		}
	}
	return nil
}

// Values are a segmented sketch's values, in the order they came.
func (s *Sketch) Values() []string {
	out := make([]string, len(s.Segments))
	for i, g := range s.Segments {
		out[i] = g.Value
	}
	return out
}

// byText names a segment column for errors.
func byText(by string) string {
	if by == "" {
		return "without segments"
	}
	return "by " + strconv.Quote(by)
}

// newValues is how many of t's values s does not have.
func (s *Sketch) newValues(t *Sketch) int {
	have := map[string]bool{}
	for _, g := range s.Segments {
		have[g.Value] = true
	}
	n := 0
	for _, g := range t.Segments {
		if !have[g.Value] {
			n++
		}
	}
	return n
}

// DropSegments makes a segmented sketch one without segments: the sum
// of its segments, which its Fit and HeldOut already are.
func (s *Sketch) DropSegments() { s.By, s.Segments, s.segIndex = "", nil, nil }
