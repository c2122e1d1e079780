package estimate

import (
	"errors"
	"fmt"
	"strconv"
)

// MaxSketchGroups is the most values a grouped sketch keeps: each
// value's sketch takes up to 25 MB in memory (a few hundred kB for a
// few thousand rows).
const MaxSketchGroups = 64

// A SketchGroup is a grouped sketch's parts for one value of its
// column.
type SketchGroup struct {
	Value        string
	Fit, HeldOut SketchPart
}

// NewGroupedSketch returns an empty sketch of the split NewSketch
// makes, that also keeps one sketch per value of column by (AddBy), each
// with an item sample of DefaultSample rows a part (GroupSample). The
// rows of every value split by the same hash as an ungrouped sketch's,
// so its Fit and HeldOut, all the groups together, are the sketch
// NewSketch would make of the same rows, and each value's (Group) the
// sketch NewSketch would make of that value's rows.
func NewGroupedSketch(by string, holdout float64, seed uint64) (*Sketch, error) {
	if by == "" {
		return nil, errors.New("sketch: a grouped sketch needs the column it is split by")
	}
	s, err := NewSketch(holdout, seed)
	if err != nil {
		return nil, err
	}
	s.By, s.GroupSample = by, DefaultSample
	return s, nil
}

// AddBy adds an item standing for w rows, whose row has value v in the
// sketch's By column, to v's group and to the whole; it fails only
// when v would be a value beyond MaxSketchGroups.
func (s *Sketch) AddBy(v string, it Item, w float64) error {
	g, err := s.group(v)
	if err != nil {
		return err
	}
	s.add(rowHash(s.Seed, it), it, w, fastSketchBin(it.Age), g)
	return nil
}

// group is value v's group, added when new.
func (s *Sketch) group(v string) (*SketchGroup, error) {
	if s.By == "" {
		return nil, errors.New("sketch: not grouped: make it with NewGroupedSketch")
	}
	if i, ok := s.segIndex[v]; ok {
		return s.Groups[i], nil
	}
	if s.segIndex == nil {
		s.segIndex = map[string]int{}
		for i, g := range s.Groups {
			s.segIndex[g.Value] = i
		}
		if i, ok := s.segIndex[v]; ok {
			return s.Groups[i], nil
		}
	}
	if len(s.Groups) >= MaxSketchGroups {
		return nil, fmt.Errorf("sketch: more than %d values of %s: a grouped sketch keeps at most %d (up to 25 MB each); group by a column with fewer values", MaxSketchGroups, s.By, MaxSketchGroups)
	}
	g := &SketchGroup{Value: v}
	s.segIndex[v] = len(s.Groups)
	s.Groups = append(s.Groups, g)
	return g, nil
}

// Group is value v's sketch as a sketch of its own (nil when the
// sketch has no such value): the same split, no groups, and the
// value's item sample of GroupSample rows as its Sample. It shares no
// memory with s.
func (s *Sketch) Group(v string) *Sketch {
	for _, g := range s.Groups {
		if g.Value == v {
			out := &Sketch{Holdout: s.Holdout, Seed: s.Seed, Sample: s.GroupSample, Fit: g.Fit.clone(), HeldOut: g.HeldOut.clone()}
			return out
		}
	}
	return nil
}

// Values are a grouped sketch's values, in the order they came.
func (s *Sketch) Values() []string {
	out := make([]string, len(s.Groups))
	for i, g := range s.Groups {
		out[i] = g.Value
	}
	return out
}

// byText names a group column for errors.
func byText(by string) string {
	if by == "" {
		return "without groups"
	}
	return "by " + strconv.Quote(by)
}

// newValues is how many of t's values s does not have.
func (s *Sketch) newValues(t *Sketch) int {
	have := map[string]bool{}
	for _, g := range s.Groups {
		have[g.Value] = true
	}
	n := 0
	for _, g := range t.Groups {
		if !have[g.Value] {
			n++
		}
	}
	return n
}

// DropGroups makes a grouped sketch one without groups: the sum
// of its groups, which its Fit and HeldOut already are.
func (s *Sketch) DropGroups() { s.By, s.Groups, s.segIndex = "", nil, nil }
