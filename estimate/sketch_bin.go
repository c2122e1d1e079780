package estimate

import (
	"math"
	"sync"
)

// The sketch's bin of an age is defined by a logarithm (sketchBin), which
// costs more than the rest of adding a row. fastSketchBin finds the same
// bin from the age's bits: the exponent and the top tableBits of the
// mantissa index a table of the bin at the start of that sliver of ages
// (2⁻¹² of an octave, about one bin wide), and a comparison or two with
// the bins' exact lower edges finishes the job.

const tableBits = 12

// binTable is built once, on the first sketch.
var binTable struct {
	once sync.Once
	// edge[i] is the least age sketchBin puts in bin i or above, for
	// i = 1..sketchBins+1 (edge[0] unused).
	edge []float64
	// start[k] is sketchBin of the least age whose bits give key k.
	start []int32
	base  uint64 // the key of sketchMin
}

// sliverKey is the table key of an age's bits.
func sliverKey(age float64) uint64 { return math.Float64bits(age) >> (52 - tableBits) }

func buildBinTable() {
	t := &binTable
	t.edge = make([]float64, sketchBins+2)
	for i := 1; i <= sketchBins+1; i++ {
		t.edge[i] = binEdge(i)
	}
	t.base = sliverKey(sketchMin)
	n := sliverKey(math.Nextafter(sketchMax, 0)) - t.base + 1
	t.start = make([]int32, n)
	i := 0
	for k := range t.start {
		lo := math.Float64frombits((t.base + uint64(k)) << (52 - tableBits))
		for i < sketchBins && t.edge[i+1] <= lo {
			i++
		}
		t.start[k] = int32(max(i, 1))
	}
}

// binEdge is the least age that sketchBin puts in bin i or above: near
// sketchMin·10^((i−1−sketchNudge)/sketchPerDecade), moved to the exact
// float.
func binEdge(i int) float64 {
	a := sketchMin * math.Pow(10, (float64(i-1)-sketchNudge)/sketchPerDecade)
	for sketchBin(a) >= i && a > 0 {
		a = math.Nextafter(a, 0)
	}
	for sketchBin(a) < i {
		a = math.Nextafter(a, math.Inf(1))
	}
	return a
}

// fastSketchBin is sketchBin, from the table.
func fastSketchBin(age float64) int {
	if !(age >= sketchMin) {
		return 0
	}
	if age >= sketchMax {
		return nSketchBins - 1
	}
	t := &binTable
	t.once.Do(buildBinTable)
	i := int(t.start[sliverKey(age)-t.base])
	for i < sketchBins && t.edge[i+1] <= age {
		i++
	}
	return i
}
