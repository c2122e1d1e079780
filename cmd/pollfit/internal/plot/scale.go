package plot

import (
	gplotpkg "gonum.org/v1/plot"
	"math"
)

// logScale is gonum's LogScale without its panic on a non-positive
// value: such a value maps below the axis, where it is clipped.
type logScale struct{}

func (logScale) Normalize(lo, hi, x float64) float64 {
	if x <= 0 {
		return -1
	}
	a, b := math.Log(lo), math.Log(hi)
	return (math.Log(x) - a) / (b - a)
}

type gplotTick = gplotpkg.Tick
