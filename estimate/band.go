package estimate

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// ConfType chooses the scale on which Greenwood's variance gives a
// pointwise confidence interval for S(t).
type ConfType int

const (
	// ConfLog: symmetric on log S, S·exp(±z·σ), clipped to 1. The default,
	// as in R's survfit (conf.type = "log").
	ConfLog ConfType = iota
	// ConfLogLog: symmetric on log(−log S), S^exp(±z·σ/log S); stays
	// inside (0, 1).
	ConfLogLog
	// ConfPlain: S ± z·S·σ, clipped to [0, 1].
	ConfPlain
)

// StdErr returns Greenwood's standard error of log S(t), σ(t) with
// σ² = Σ d/(n(n−d)) over event ages ≤ t; the standard error of S(t)
// itself is S(t)·σ(t). It is +Inf once S has reached 0.
func (s *Survival) StdErr(t float64) float64 {
	if i := s.index(t); i >= 0 {
		return math.Sqrt(s.greenwood[i])
	}
	return 0
}

// Band returns a pointwise confidence interval for S(t) at the given
// level (0.95 when level is 0) on the scale chosen by typ. Where S(t) is
// 0 or 1 with no variance the interval is that point.
func (s *Survival) Band(t, level float64, typ ConfType) (lo, hi float64) {
	return band(s.At(t), s.StdErr(t), confZ(level), typ)
}

// confZ is the normal quantile of a two-sided interval at level (0.95
// when level is 0).
func confZ(level float64) float64 {
	if level == 0 {
		level = 0.95
	}
	return distuv.UnitNormal.Quantile(0.5 + level/2)
}

// band is Band for a survival S with standard error se of log S.
func band(S, se, z float64, typ ConfType) (lo, hi float64) {
	if S == 0 || se == 0 || math.IsInf(se, 1) {
		return S, S
	}
	switch typ {
	case ConfLogLog:
		l := math.Log(S)
		if l == 0 {
			return S, S
		}
		d := z * se / l // negative: l < 0
		return math.Pow(S, math.Exp(-d)), math.Pow(S, math.Exp(d))
	case ConfPlain:
		return max(0, S-z*S*se), min(1, S+z*S*se)
	}
	return S * math.Exp(-z*se), min(1, S*math.Exp(z*se))
}
