package estimate

import (
	"math"
	"runtime"
	"sync"
)

// The bin of an age on a log-spaced grid is defined by a logarithm
// (sketchBin, ageBin), which costs more than the rest of adding a row.
// A binTable finds the same bin from the age's bits: the exponent and the
// top bits of the mantissa index a table of the bin at the start of that
// sliver of ages (2⁻¹² of an octave for the sketch's grid, 2⁻⁹ for the
// accumulator's ten times coarser one: at most about one bin wide), and
// a comparison or two with the bins' exact lower edges finishes the job.
// A table no finer than its grid needs stays small in the cache.

// A binTable is the fast form of a bin function that puts ages below lo
// in bin 0, ages from hi on in bin bins+1, and ages between in bins
// 1..bins, increasing with the age. It is built on first use.
type binTable struct {
	bin       func(age float64) int // the defining function
	lo, hi    float64
	bins      int
	perDecade float64
	nudge     float64 // added to the scaled logarithm before rounding down
	bits      uint    // the mantissa bits of the key
	once      sync.Once
	search    binSearch // built on first use
}

// binSearch finds the bin of an age in [lo, hi) from a built table: a
// value of its own, so that a loop over many ages can keep it in
// registers.
type binSearch struct {
	start []int32 // start[k] is the bin of the least age whose bits give key k
	// edge[i] is the least age the table's bin function puts in bin i or
	// above, for i = 1..bins+1 (edge[0] unused).
	edge  []float64
	base  uint64 // the key of lo
	shift uint   // 52 − bits: the key is the age's bits shifted right by it
}

// find is the bin of age, lo ≤ age < hi. A sliver of ages holds at most
// one edge, but for the sketch's few narrower first bins: one step from
// the bin at the sliver's start, without a branch to mispredict
// (positive floats order as their bits: a − e wraps to a number with the
// top bit set when the edge e is above the age a), then a loop that
// almost never runs. It ends by the last bin: edge[bins+1] is hi.
func (s binSearch) find(age float64) int {
	a := math.Float64bits(age)
	i := int(s.start[a>>s.shift-s.base])
	i += 1 - int((a-math.Float64bits(s.edge[i+1]))>>63)
	for s.edge[i+1] <= age {
		i++
	}
	return i
}

// sketchTable and ageTable are the sketch's and the accumulator's grids.
var (
	sketchTable = &binTable{bin: sketchBin, lo: sketchMin, hi: sketchMax, bins: sketchBins, perDecade: sketchPerDecade, nudge: sketchNudge, bits: 12}
	ageTable    = &binTable{bin: ageBin, lo: histMin, hi: histMax, bins: histBins, perDecade: histPerDecade, bits: 9}
)

// fastSketchBin is sketchBin, from the table.
func fastSketchBin(age float64) int { return sketchTable.find(age) }

// find is t.bin(age).
func (t *binTable) find(age float64) int {
	if b, out := t.outside(age); out {
		return b
	}
	t.once.Do(t.build)
	return t.search.find(age)
}

// outside reports whether age is outside [lo, hi), and then its bin: 0
// below (or NaN), bins+1 from hi on.
func (t *binTable) outside(age float64) (int, bool) {
	if !(age >= t.lo) {
		return 0, true
	}
	if age >= t.hi {
		return t.bins + 1, true
	}
	return 0, false
}

func (t *binTable) build() {
	edge := t.edges()
	shift := 52 - t.bits
	base := math.Float64bits(t.lo) >> shift
	n := math.Float64bits(math.Nextafter(t.hi, 0))>>shift - base + 1
	start := make([]int32, n)
	i := 0
	for k := range start {
		lo := math.Float64frombits((base + uint64(k)) << shift)
		for i < t.bins && edge[i+1] <= lo {
			i++
		}
		start[k] = int32(max(i, 1))
	}
	t.search = binSearch{start: start, edge: edge, base: base, shift: shift}
}

// edges are the bins' exact lower edges, edge[i] for i = 1..bins+1: two
// logarithms each at least (the edge's bin and the float below's), 130,000
// edges for the sketch's grid, so computed in as many slices as there are
// cores (the table is built on a read's first row, while the other sinks
// wait), each edge guessed from the one below it (BenchmarkBuildBinTable:
// 13 ms on 2 cores, 27 ms in one slice with a power of ten per guess).
func (t *binTable) edges() []float64 {
	edge := make([]float64, t.bins+2)
	step := math.Pow(10, 1/t.perDecade)
	n := max(1, min(runtime.GOMAXPROCS(0), t.bins/1000))
	var wg sync.WaitGroup
	for k := range n {
		lo, hi := 1+k*(t.bins+1)/n, 1+(k+1)*(t.bins+1)/n
		wg.Go(func() {
			guess := t.lo * math.Pow(10, (float64(lo-1)-t.nudge)/t.perDecade)
			for i := lo; i < hi; i++ {
				edge[i] = t.edgeFrom(i, guess)
				guess = edge[i] * step // within an ulp or two of the next edge
			}
		})
	}
	wg.Wait()
	return edge
}

// edgeFrom is the least age that t.bin puts in bin i or above, walked to
// float by float from a guess a > 0 near it (lo·10^((i−1−nudge)/perDecade),
// or the edge below times a bin's ratio): the same from any start.
func (t *binTable) edgeFrom(i int, a float64) float64 {
	if t.bin(a) >= i {
		// Down to the greatest age below bin i: the one above it is the
		// least in bin i or above (bin does not decrease with the age).
		for a > 0 {
			below := math.Nextafter(a, 0)
			if t.bin(below) < i {
				return a
			}
			a = below
		}
	}
	for t.bin(a) < i {
		a = math.Nextafter(a, math.Inf(1))
	}
	return a
}
