package estimate

import (
	"math"
	"math/rand/v2"
	"time"
)

// Generators of synthetic logs for the tests, seeded and self-contained.

// lognormalAges draws n ages from a lognormal with the given median (s)
// and log-sd.
func lognormalAges(r *rand.Rand, n int, median, sigma float64) []float64 {
	t := make([]float64, n)
	for i := range t {
		t[i] = median * math.Exp(sigma*r.NormFloat64())
	}
	return t
}

// genStart is the start of the generated logs' observation window.
var genStart = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC).UnixNano()

// window returns items created uniformly over span seconds from genStart
// with the given ages, observed until the end of the span: items whose
// answer comes later are pending, censored at their age then.
func window(r *rand.Rand, ages []float64, span float64, st Status) []Item {
	items := make([]Item, len(ages))
	for i, a := range ages {
		c := r.Float64() * span
		it := Item{Age: a, Status: st, Created: genStart + int64(c*1e9), Dated: true}
		if c+a > span {
			it.Age, it.Status = span-c, Pending
		}
		items[i] = it
	}
	return items
}

// deadlineLog: a share of prompts ignored that fail at exactly timeout
// seconds; the rest approved after a lognormal delay (median 8 s).
func deadlineLog(r *rand.Rand, n int, share, timeout float64) []Item {
	items := make([]Item, n)
	for i := range items {
		it := Item{Age: 8 * math.Exp(0.6*r.NormFloat64()), Status: Settled}
		if r.Float64() < share {
			it.Age, it.Status = timeout, Failed
		}
		items[i] = it
	}
	return items
}

// batchLog: items created uniformly over days; a share settle in a batch
// run lag..lag+spread seconds after the next period boundary (UTC), the
// rest after a lognormal delay (median 20 s).
func batchLog(r *rand.Rand, n int, share, period, lag, spread float64) []Item {
	items := make([]Item, n)
	for i := range items {
		c := genStart + int64(r.Float64()*3*86400*1e9)
		age := 20 * math.Exp(0.8*r.NormFloat64())
		if r.Float64() < share {
			p := int64(period * 1e9)
			next := (c/p + 1) * p
			age = float64(next-c)/1e9 + lag + spread*r.Float64()
		}
		items[i] = Item{Age: age, Status: Settled, Created: c, Dated: true}
	}
	return items
}

// roundLog rounds creation and settle timestamps down to unit seconds.
func roundLog(items []Item, unit float64) []Item {
	u := int64(unit * 1e9)
	out := make([]Item, len(items))
	for i, it := range items {
		settle := it.Created + int64(it.Age*1e9)
		c := it.Created / u * u
		s := settle / u * u
		it.Created, it.Age = c, float64(s-c)/1e9
		out[i] = it
	}
	return out
}

func accumulate(items []Item) *Accumulator {
	a := new(Accumulator)
	for _, it := range items {
		a.Add(it)
	}
	return a
}

// kmItems is KaplanMeier on items' ages and statuses.
func kmItems(items []Item) *Survival {
	var t []float64
	var final []bool
	for _, it := range items {
		t, final = append(t, it.Age), append(final, it.Status.Final())
	}
	return KaplanMeier(t, final, nil)
}
