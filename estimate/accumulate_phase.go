package estimate

import (
	"maps"
	"slices"
)

// sparsePhase is how many 100 ms bins of the day an accumulator's phase
// histogram keeps sparse (about 12 bytes a bin) before it keeps all
// 864,000 (6.9 MB): a value of a column of many values, of a few
// thousand rows, so costs tens of kB.
const sparsePhase = 1 << 15

// addSparsePhase is addPhase for a histogram that is still sparse; it
// makes the dense one once more than sparsePhase bins are used.
func (a *Accumulator) addSparsePhase(ph int64, w float64) {
	if a.phaseBins == nil {
		a.phaseBins = make(map[int32]float64)
	}
	a.phaseBins[int32(uint64(ph)/uint64(phaseBinNS))] += w
	if !a.tsNot100m {
		a.phaseFlags(ph)
	}
	if len(a.phaseBins) > sparsePhase {
		a.densePhase()
	}
}

// densePhase makes the dense phase histogram from the sparse one.
func (a *Accumulator) densePhase() {
	a.phase, a.phaseBins = dayOf(a.phaseBins), nil
}

// dayOf is a sparse phase histogram as a dense one.
func dayOf(bins map[int32]float64) []float64 {
	day := written(nPhaseBins)
	for b, w := range bins {
		day[b] = w
	}
	return day
}

// foldPhase adds w final items settled ph ns into their day to the phase
// histogram, dense or sparse.
func (a *Accumulator) foldPhase(ph int64, w float64) {
	a.phaseW += w
	if a.phase != nil {
		a.addPhase(ph, w)
		return
	}
	a.addSparsePhase(ph, w)
}

// mergePhase adds b's phase histogram to a's.
func (a *Accumulator) mergePhase(b *Accumulator) {
	if b.phase != nil && a.phase == nil {
		a.densePhase()
	}
	if a.phase != nil {
		for i, v := range b.phase {
			a.phase[i] += v
		}
		for i, v := range b.phaseBins {
			a.phase[i] += v
		}
	} else {
		if a.phaseBins == nil && b.phaseBins != nil {
			a.phaseBins = make(map[int32]float64, len(b.phaseBins))
		}
		for i, v := range b.phaseBins {
			a.phaseBins[i] += v
		}
		if len(a.phaseBins) > sparsePhase {
			a.densePhase()
		}
	}
	a.phaseW += b.phaseW
}

// phaseUsed are the bins of the phase histogram that hold weight, in
// order, and their weights.
func (a *Accumulator) phaseUsed() (bins []int32, ws []float64) {
	if a.phase == nil {
		bins = slices.Sorted(maps.Keys(a.phaseBins))
		ws = make([]float64, len(bins))
		for i, b := range bins {
			ws[i] = a.phaseBins[b]
		}
		return bins, ws
	}
	for b, w := range a.phase {
		if w != 0 {
			bins, ws = append(bins, int32(b)), append(ws, w)
		}
	}
	return bins, ws
}
