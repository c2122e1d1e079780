package logs

import (
	"math"
	"strconv"

	"github.com/pollfit/pollfit/estimate"
)

// histRow turns one histogram row lo_s,hi_s,final,pending into up to two
// weighted items at the bin's midpoint.
func (c *rowConv) histRow(f [][]byte, line int, b *batch) {
	l := c.l
	lo, hi, ok := c.bin(f, line, b)
	if !ok {
		return
	}
	final, ok := c.count(f, l.final, line, b)
	if !ok {
		return
	}
	pending, ok := c.count(f, l.pending, line, b)
	if !ok {
		return
	}
	mid := lo // an open bin: pending items are known alive at lo
	switch {
	case math.IsInf(hi, 1):
		if final > 0 {
			c.fail(b, line, l.final, skipHistogramBins, "final count %v in an open bin (hi_s empty or inf)", final)
			return
		}
	case lo > 0:
		mid = math.Sqrt(lo * hi)
	default:
		mid = hi / 2
	}
	if b.weights == nil {
		b.weights = make([]float64, len(b.items), cap(b.items))
	}
	add := func(s estimate.Status, w float64) {
		if w > 0 {
			b.items = append(b.items, estimate.Item{Age: mid, Status: s})
			b.weights = append(b.weights, w)
		}
	}
	add(estimate.Settled, final)
	add(estimate.Pending, pending)
}

// bin reads a row's bin [lo, hi], hi +Inf for an open bin; both are
// ages, at most estimate.MaxAge.
func (c *rowConv) bin(f [][]byte, line int, b *batch) (lo, hi float64, ok bool) {
	l := c.l
	lo, err := strconv.ParseFloat(string(trim(f[l.lo])), 64)
	switch {
	case err != nil || math.IsNaN(lo) || math.IsInf(lo, 0) || lo < 0:
		return 0, 0, c.fail(b, line, l.lo, skipHistogramBins, "bad bin start %q (want seconds >= 0)", trim(f[l.lo]))
	case lo > maxAgeSeconds:
		return 0, 0, c.fail(b, line, l.lo, skipAge, "%s", tooOld("bin start", lo))
	}
	hs := trim(f[l.hi])
	if len(hs) == 0 {
		return lo, math.Inf(1), true
	}
	hi, err = strconv.ParseFloat(string(hs), 64)
	switch {
	case err != nil || math.IsNaN(hi) || hi < lo || math.IsInf(hi, -1):
		return 0, 0, c.fail(b, line, l.hi, skipHistogramBins, "bad bin end %q (want seconds >= lo_s, empty or inf)", hs)
	case hi > maxAgeSeconds && !math.IsInf(hi, 1):
		return 0, 0, c.fail(b, line, l.hi, skipAge, "%s (leave hi_s empty for an open bin)", tooOld("bin end", hi))
	}
	return lo, hi, true
}

func (c *rowConv) count(f [][]byte, col, line int, b *batch) (float64, bool) {
	s := trim(f[col])
	if len(s) == 0 {
		return 0, true
	}
	n, err := strconv.ParseFloat(string(s), 64)
	if err != nil || math.IsNaN(n) || math.IsInf(n, 0) || n < 0 || n != math.Trunc(n) || n > MaxCount {
		c.fail(b, line, col, skipHistogramBins, "bad count %q (want a whole number from 0 to 2^53)", s)
		return 0, false
	}
	return n, true
}

// MaxCount is the largest count a histogram row may give, 2⁵³: counts
// are whole numbers, exact in a float64 and summed in an int64.
const MaxCount = 1 << 53
