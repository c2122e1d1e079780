package fit

// Temporary: replaced by the weighted Sample of the histogram work.

import (
	"errors"
	"math"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit/schedule"
)

type Sample struct {
	Items   []estimate.Item
	Weights []float64
}

func ItemSample(items []estimate.Item) Sample { return Sample{Items: items} }
func (s Sample) Len() int                     { return len(s.Items) }
func (s Sample) Weight(i int) float64 {
	if s.Weights == nil {
		return 1
	}
	return s.Weights[i]
}
func (s Sample) Total() float64 {
	if s.Weights == nil {
		return float64(len(s.Items))
	}
	t := 0.0
	for _, w := range s.Weights {
		t += w
	}
	return t
}
func (s Sample) Weighted() bool { return s.Weights != nil }
func (s Sample) HasSignals() bool {
	for _, it := range s.Items {
		if !math.IsNaN(it.Signal) {
			return true
		}
	}
	return false
}
func ReplaySample(s *schedule.Schedule, smp Sample, opt ReplayOptions) (Metrics, error) {
	if smp.Weighted() {
		return Metrics{}, errors.New("weighted")
	}
	return Replay(s, smp.Items, opt)
}
func SplitSample(smp Sample, frac float64, seed uint64) (Sample, Sample) {
	a, b := Split(smp.Items, frac, seed)
	return Sample{Items: a}, Sample{Items: b}
}
func PredictSample(smp Sample, asks []float64) Prediction { return PredictItems(smp.Items, asks) }
func newSampleLaw(smp Sample) *itemLaw                    { return newItemLaw(smp.Items) }
