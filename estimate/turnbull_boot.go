package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"gonum.org/v1/gonum/stat/distuv"
)

// BootOptions tune IntervalSet.Bootstrap. The zero value is the default.
type BootOptions struct {
	// Reps is the number of bootstrap samples; default 200.
	Reps int
	// Level is the bands' coverage; default 0.95.
	Level float64
	// Seed seeds the resampling: the same seed, the same bands.
	Seed uint64
	// Turnbull tunes each sample's NPMLE.
	Turnbull TurnbullOptions
}

// Bootstrap returns pointwise percentile bands for S at ages: the
// NPMLE of Reps samples of the items drawn with replacement (the set's
// total weight, rounded, of draws in proportion to the weights), the
// lower and upper (1 ± Level)/2 quantiles of S(t) over them. Unlike the
// Greenwood band of the embedded Survival, it accounts for the
// intervals. A sample whose EM reaches its cap makes it fail.
func (s *IntervalSet) Bootstrap(ages []float64, opt BootOptions) (lo, hi []float64, err error) {
	if opt.Reps <= 0 {
		opt.Reps = 200
	}
	if opt.Level == 0 {
		opt.Level = 0.95
	}
	if !(opt.Level > 0 && opt.Level < 1) {
		return nil, nil, fmt.Errorf("bootstrap: level %v: want a share in (0, 1)", opt.Level)
	}
	iv := s.Intervals()
	if len(iv) == 0 {
		return nil, nil, fmt.Errorf("bootstrap: no items")
	}
	n := max(1, int(math.Round(s.sumW)))
	r := rand.New(rand.NewPCG(opt.Seed, 0x7462))
	at := make([][]float64, len(ages)) // at[k][rep]
	lob, hib, w := make([]float64, len(iv)), make([]float64, len(iv)), make([]float64, len(iv))
	for i, v := range iv {
		lob[i], hib[i] = v.Lo, v.Hi
	}
	for rep := 0; rep < opt.Reps; rep++ {
		multinomial(r, iv, s.sumW, n, w)
		l, h, ww := compact(lob, hib, w)
		tb, err := NewTurnbull(l, h, ww, opt.Turnbull)
		if err != nil {
			return nil, nil, err
		}
		if !tb.Converged {
			return nil, nil, fmt.Errorf("bootstrap sample %d: %s", rep, tb.Warnings[0])
		}
		for k, a := range ages {
			at[k] = append(at[k], tb.At(a))
		}
	}
	lo, hi = make([]float64, len(ages)), make([]float64, len(ages))
	for k := range ages {
		sort.Float64s(at[k])
		lo[k] = quantileSorted(at[k], (1-opt.Level)/2)
		hi[k] = quantileSorted(at[k], (1+opt.Level)/2)
	}
	return lo, hi, nil
}

// multinomial sets w to the counts of n draws over iv in proportion to
// its weights (total sum), by conditional binomials.
func multinomial(r *rand.Rand, iv []Interval, sum float64, n int, w []float64) {
	left, rest := float64(n), sum
	for i, v := range iv {
		w[i] = 0
		if left <= 0 || rest <= 0 {
			continue
		}
		p := min(1, v.W/rest)
		w[i] = distuv.Binomial{N: left, P: p, Src: r}.Rand()
		left -= w[i]
		rest -= v.W
	}
}

// compact drops the zero weights.
func compact(lo, hi, w []float64) (l, h, ww []float64) {
	for i := range w {
		if w[i] > 0 {
			l, h, ww = append(l, lo[i]), append(h, hi[i]), append(ww, w[i])
		}
	}
	return l, h, ww
}

// quantileSorted is the type-7 quantile (R's default) of sorted x.
func quantileSorted(x []float64, p float64) float64 {
	pos := p * float64(len(x)-1)
	i := int(math.Floor(pos))
	if i+1 >= len(x) {
		return x[len(x)-1]
	}
	return x[i] + (pos-float64(i))*(x[i+1]-x[i])
}
