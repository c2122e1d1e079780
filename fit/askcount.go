package fit

import (
	"math"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// alignedExtra counts, arithmetically, the aligned asks at ages in
// [0, x] that no age-based ask shares: |B| − Σ|piece ∩ B|, where B is the
// union of the aligned clauses' progressions and the pieces are the
// age-based asks (with the restart at a signal) as progressions. It
// costs the same for every 1ms as for every 1h.
func (v itemAsks) alignedExtra(x time.Duration) int64 {
	groups := v.alignedProgs(int64(x))
	n := unionSize(prog{0, 1, int64(x)}, groups, 0)
	for _, p := range v.agePieces(int64(x)) {
		n -= unionSize(p, groups, 0)
	}
	return n
}

// alignedProgs is each aligned clause's offsets as progressions of ages
// in [0, min(x, until)]. Within a clause they are disjoint.
func (v itemAsks) alignedProgs(x int64) [][]prog {
	groups := make([][]prog, len(v.aligned))
	for i, a := range v.aligned {
		hi := x
		if a.Until > 0 {
			hi = min(hi, int64(a.Until))
		}
		for _, o := range a.Offsets {
			f := int64(a.FirstAge(v.created, o))
			groups[i] = append(groups[i], prog{f, int64(a.Period), hi}.clip(0, hi))
		}
	}
	return groups
}

// unionSize is |cur ∩ (∪ groups[from:])| by inclusion and exclusion,
// taking at most one progression from each group (those of one group are
// disjoint) and pruning empty intersections, so it visits at most
// Π(offsets+1) terms (schedule.MaxAlignedTerms).
func unionSize(cur prog, groups [][]prog, from int) int64 {
	var n int64
	for i := from; i < len(groups); i++ {
		for _, p := range groups[i] {
			c := cur.intersect(p)
			if c.empty() {
				continue
			}
			n += c.size() - unionSize(c, groups, i+1)
		}
	}
	return n
}

// agePieces lists the age-based asks at ages in [0, x] as disjoint
// progressions, with the restart at the signal as ageCount counts it:
// the timeline before the signal, the signal, then the timeline shifted
// by it.
func (v itemAsks) agePieces(x int64) []prog {
	g := int64(v.signal)
	if g < 0 || x < g {
		return runProgs(v.runs, 0, x, 0, nil)
	}
	out := runProgs(v.runs, 0, g-1, 0, nil)
	out = append(out, prog{g, 1, g})
	return runProgs(v.runs, 1, x-g, g, out)
}

// runProgs appends the runs' asks at ages in [lo, hi], shifted by shift.
func runProgs(runs []schedule.Run, lo, hi, shift int64, out []prog) []prog {
	for _, r := range runs {
		start := int64(r.Start)
		if start > hi {
			break
		}
		p := prog{start, max(int64(r.Step), 1), start}
		switch {
		case r.N < 0:
			p.last = hi
		case r.N > 1 && r.N-1 > (hi-start)/p.step:
			p.last = hi
		case r.N > 1:
			p.last = start + (r.N-1)*p.step
		}
		if p = p.clip(lo, hi); !p.empty() {
			out = append(out, prog{p.first + shift, p.step, p.last + shift})
		}
	}
	return out
}

// expectedAligned is the expected number of aligned asks at ages in
// [0, t] over a uniformly random creation phase, an age shared by two
// clauses counted once: Σ over clauses of offsets × span/P, less the
// shared asks by inclusion and exclusion (aligned clauses follow the
// clock, so they share asks whatever the phase). span is t, or the
// clause's until if sooner; a shared ask counts up to the sooner.
func expectedAligned(aligned []schedule.Aligned, t time.Duration) float64 {
	groups := make([][]prog, len(aligned))
	spans := make([]float64, len(aligned))
	for i, a := range aligned {
		spans[i] = t.Seconds()
		if a.Until > 0 {
			spans[i] = min(spans[i], a.Until.Seconds())
		}
		for _, o := range a.Offsets {
			groups[i] = append(groups[i], prog{int64(o), int64(a.Period), math.MaxInt64})
		}
	}
	return expectedUnion(prog{0, 1, math.MaxInt64}, math.Inf(1), groups, spans, 0)
}

// expectedUnion is unionSize for densities: each progression of step P
// (nanoseconds) holds span/P asks in expectation. An intersection whose
// common step overflows int64 (a single age) has density nil.
func expectedUnion(cur prog, span float64, groups [][]prog, spans []float64, from int) float64 {
	var n float64
	for i := from; i < len(groups); i++ {
		s := min(span, spans[i])
		for _, p := range groups[i] {
			c := cur.intersect(p)
			if c.empty() || c.first == c.last {
				continue
			}
			n += s*1e9/float64(c.step) - expectedUnion(c, s, groups, spans, i+1)
		}
	}
	return n
}
