package source

import (
	"errors"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
)

// Interval-censored input (a poller's own log, a latency metric, or a
// sketch with an interval part): each item whose answer is known only to
// lie in (L, R] enters a sample as estimate.IntervalSet.Spread makes it,
// estimate.DefaultSpreadNodes items at the quantiles of the smoothed
// Turnbull density within (L, R], sharing its weight.

// ErrNoAnswerToFit is SplitIntervals' error when the fitting part of the
// split holds no answered item.
var ErrNoAnswerToFit = errors.New("no answered item in the fitting part")

// Spread is set as a weighted sample under the smoothed Turnbull density
// of basis.
func Spread(set, basis *estimate.IntervalSet) (fit.Sample, error) {
	tb, err := basis.Turnbull(estimate.TurnbullOptions{})
	if err != nil {
		return fit.Sample{}, err
	}
	items, w, _ := set.Spread(basis.SpreadDensity(tb, estimate.DensityOptions{}), 0)
	return fit.Sample{Items: items, Weights: w}, nil
}

// SplitIntervals is set as a study's input: its items split by holdout
// and seed, the fitting part's Turnbull density spreading both parts
// (FitOn, HeldOut; with nothing held out HeldOut is the fitting part),
// and every item spread by the density of them all (All).
// ErrNoAnswerToFit when the fitting part has no answer.
func SplitIntervals(set *estimate.IntervalSet, holdout float64, seed uint64) (*Input, error) {
	fitSet, heldSet := set.Split(holdout, seed)
	if f, _ := fitSet.Weights(); f == 0 {
		return nil, ErrNoAnswerToFit
	}
	fitOn, err := Spread(fitSet, fitSet)
	if err != nil {
		return nil, err
	}
	heldOut, all := fitOn, fitOn
	if holdout > 0 && heldSet.Len() > 0 {
		if heldOut, err = Spread(heldSet, fitSet); err != nil {
			return nil, err
		}
		if all, err = Spread(set, set); err != nil {
			return nil, err
		}
	}
	return &Input{FitOn: fitOn, HeldOut: &fit.HeldOut{Sample: heldOut, Holdout: holdout, Seed: seed}, All: all}, nil
}

// intervalPartSample is part p of a sketch with intervals as a sample:
// every item of the part, its intervals spread by the fitting part's
// density (the whole sketch's when the fitting part has no answer).
func intervalPartSample(s *estimate.Sketch, p *estimate.SketchPart) (fit.Sample, error) {
	set, err := p.IntervalSet()
	if err != nil {
		return fit.Sample{}, err
	}
	basis, err := s.Fit.IntervalSet()
	if err != nil {
		return fit.Sample{}, err
	}
	if f, _ := basis.Weights(); f == 0 {
		if basis, err = SketchIntervals(s); err != nil {
			return fit.Sample{}, err
		}
	}
	return Spread(set, basis)
}

// SketchIntervals is the interval part of sketch s, both parts together.
func SketchIntervals(s *estimate.Sketch) (*estimate.IntervalSet, error) {
	var all estimate.SketchPart
	all.Merge(&s.Fit)
	all.Merge(&s.HeldOut)
	return all.IntervalSet()
}
