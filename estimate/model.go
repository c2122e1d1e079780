package estimate

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat/distuv"
)

// Model is a parametric settle-time distribution: a weighted mixture of
// standard distributions of the age (in seconds) at which the final answer
// comes, plus an optional share that never settles. Write one with
// ParseModel:
//
//	lognormal(median=12s, sigma=0.5)
//	weibull(shape=2, scale=1s)
//	gamma(shape=2, scale=1s)
//	exponential(mean=30s)
//	normal(mean=60s, sd=1.5s)          # truncated at 0
//	uniform(min=10s, max=20s)
//	point(at=60s)                      # every answer at exactly 60 s
//	0.35*lognormal(median=1.5s, sigma=0.4) + 0.6*lognormal(median=14s, sigma=0.6) + 0.05*never
//
// In a mixture every term has a weight and the weights sum to 1.
type Model struct {
	terms []term
	never float64
}

type term struct {
	w    float64
	name string
	args []string // canonical "key=value" text
	d    component
}

// component is one distribution of a mixture.
type component interface {
	CDF(x float64) float64
	Prob(x float64) float64
	Quantile(p float64) float64
}

// CDF is the probability that the final answer has come by age t (in
// seconds). It tends to 1 − Never() as t grows.
func (m *Model) CDF(t float64) float64 {
	var p float64
	for _, c := range m.terms {
		p += c.w * c.d.CDF(t)
	}
	return p
}

// PDF is the density of the settle age at t (seconds⁻¹). A point mass
// contributes nothing to it (see Smooth).
func (m *Model) PDF(t float64) float64 {
	var p float64
	for _, c := range m.terms {
		if x := c.d.Prob(t); x > 0 { // NaN (lognormal at 0) counts as 0
			p += c.w * x
		}
	}
	return p
}

// Survival is 1 − CDF(t): the chance the item is still pending at age t,
// never-settling items included.
func (m *Model) Survival(t float64) float64 { return 1 - m.CDF(t) }

// Never is the share of items that never settle.
func (m *Model) Never() float64 { return m.never }

// Smooth reports whether the model has a density everywhere: false when it
// has a point mass.
func (m *Model) Smooth() bool {
	for _, c := range m.terms {
		if _, ok := c.d.(pointMass); ok {
			return false
		}
	}
	return true
}

// Quantile is the smallest age t with CDF(t) ≥ p; +Inf when p exceeds
// 1 − Never().
func (m *Model) Quantile(p float64) float64 {
	if p <= 0 {
		return 0
	}
	if p > 1-m.never+1e-15 || len(m.terms) == 0 {
		return math.Inf(1)
	}
	if len(m.terms) == 1 {
		return m.terms[0].d.Quantile(min(p/m.terms[0].w, 1))
	}
	q := min(p/(1-m.never), 1-1e-15)
	var hi float64
	for _, c := range m.terms {
		hi = max(hi, c.d.Quantile(q))
	}
	lo := 0.0
	for range 200 {
		mid := (lo + hi) / 2
		if m.CDF(mid) >= p {
			hi = mid
		} else {
			lo = mid
		}
		if hi-lo <= 1e-12*hi {
			break
		}
	}
	return hi
}

// String writes the model in ParseModel's language.
func (m *Model) String() string {
	var parts []string
	single := len(m.terms) == 1 && m.never == 0
	for _, c := range m.terms {
		s := c.name + "(" + strings.Join(c.args, ", ") + ")"
		if !single {
			s = strconv.FormatFloat(c.w, 'g', -1, 64) + "*" + s
		}
		parts = append(parts, s)
	}
	if m.never > 0 {
		parts = append(parts, strconv.FormatFloat(m.never, 'g', -1, 64)+"*never")
	}
	return strings.Join(parts, " + ")
}

// Items draws n items from the model with a seeded generator. An item
// whose answer would come after censor seconds, or never, is pending at
// age censor, which is at most MaxAge (a heavy tail can draw ages far
// beyond it), with no creation time and no signal.
func (m *Model) Items(n int, seed uint64, censor float64) []Item {
	censor = min(censor, maxAgeSeconds)
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	items := make([]Item, n)
	for i := range items {
		age := m.draw(r.Float64(), r.Float64())
		it := Item{Age: age, Status: Settled}
		if math.IsInf(age, 1) || age > censor {
			it.Age, it.Status = censor, Pending
		}
		items[i] = it
	}
	return items
}

// draw picks a term with u and returns its quantile at v: a draw from
// the mixture, +Inf for never.
func (m *Model) draw(u, v float64) float64 {
	for _, c := range m.terms {
		if u < c.w {
			return c.d.Quantile(v)
		}
		u -= c.w
	}
	return math.Inf(1)
}

// truncNormal is a normal distribution truncated to [0, ∞).
type truncNormal struct {
	n  distuv.Normal
	p0 float64 // n.CDF(0)
}

func (d truncNormal) CDF(x float64) float64 {
	if x < 0 {
		return 0
	}
	return (d.n.CDF(x) - d.p0) / (1 - d.p0)
}

func (d truncNormal) Prob(x float64) float64 {
	if x < 0 {
		return 0
	}
	return d.n.Prob(x) / (1 - d.p0)
}

func (d truncNormal) Quantile(p float64) float64 {
	return max(0, d.n.Quantile(d.p0+p*(1-d.p0)))
}

// pointMass puts every answer at one age.
type pointMass float64

func (d pointMass) CDF(x float64) float64 {
	if x >= float64(d) {
		return 1
	}
	return 0
}
func (d pointMass) Prob(float64) float64     { return 0 }
func (d pointMass) Quantile(float64) float64 { return float64(d) }

// seconds converts a duration to seconds.
func seconds(d time.Duration) float64 { return d.Seconds() }
