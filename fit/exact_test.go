package fit

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

func mustModel(t testing.TB, src string) *estimate.Model {
	t.Helper()
	m, err := estimate.ParseModel(src)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// periodForExponential solves e^{λT} − 1 − λT = λP by bisection.
//
// Derivation: with rate λ the law is memoryless, so after any ask the
// problem is the same as at age 0 and the optimum is periodic, step T.
// Barlow–Proschan's condition F(aⱼ) − F(aⱼ₋₁) = f(aⱼ)(aⱼ₊₁ − aⱼ + P)
// with F = 1 − e^{−λt}, f = λe^{−λt} and equal gaps T reads
// e^{−λa}(e^{λT} − 1) = λe^{−λa}(T + P), that is e^{λT} − 1 − λT = λP.
func periodForExponential(rate, price float64) float64 {
	lo, hi := 0.0, 1.0
	for math.Exp(rate*hi)-1-rate*hi < rate*price {
		hi *= 2
	}
	for range 200 {
		mid := (lo + hi) / 2
		if math.Exp(rate*mid)-1-rate*mid < rate*price {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

func TestExponentialOptimumIsPeriodic(t *testing.T) {
	for _, c := range []struct{ mean, price float64 }{{10, 1}, {30, 5}, {1, 0.01}} {
		m := mustModel(t, "exponential(mean="+ftoa(c.mean)+"s)")
		T := periodForExponential(1/c.mean, c.price)
		shot, err := Shoot(m, c.price, 0, 1e-9)
		if err != nil {
			t.Fatal(err)
		}
		for j := 1; j < len(shot)-1 && m.Survival(shot[j]) > 1e-2; j++ {
			if g := shot[j] - shot[j-1]; math.Abs(g-T) > 1e-6*T {
				t.Errorf("mean %g, price %g: shooting gap %d = %.9g, want %.9g", c.mean, c.price, j, g, T)
				break
			}
		}
		res, err := Optimal(m, Options{Budget: Budget{Price: c.price}})
		if err != nil {
			t.Fatal(err)
		}
		a := res.Optimum.Asks
		for j := 1; j < len(a)-1 && m.Survival(a[j]) > 1e-2; j++ {
			if g := a[j] - a[j-1]; math.Abs(g-T) > 5e-3*T {
				t.Errorf("mean %g, price %g: exact gap %d = %.6g, want %.6g", c.mean, c.price, j, g, T)
				break
			}
		}
	}
}

func ftoa(x float64) string { return trimFloat(x) }

// priced is lag + price × requests per item of asks on d.
func priced(d Distribution, asks []float64, price float64) float64 {
	l := newDistLaw(d, asks[len(asks)-1])
	s := evaluate(l, asks)
	return s.lag + price*s.requests
}

func TestShootingAgreesWithDP(t *testing.T) {
	for _, c := range []struct {
		src   string
		price float64
	}{
		{"weibull(shape=2, scale=10s)", 0.5},
		{"weibull(shape=1.5, scale=1m)", 2},
		{"gamma(shape=2, scale=5s)", 0.3},
		{"gamma(shape=3, scale=2s)", 1},
	} {
		m := mustModel(t, c.src)
		shot, err := Shoot(m, c.price, 0, 1e-10)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Optimal(m, Options{Budget: Budget{Price: c.price}})
		if err != nil {
			t.Fatal(err)
		}
		bp, dp := priced(m, shot, c.price), priced(m, res.Optimum.Asks, c.price)
		if math.Abs(bp-dp) > 1e-4*bp {
			t.Errorf("%s at %g: shooting %.8g, DP %.8g, differ by more than 1e-4", c.src, c.price, bp, dp)
		}
		if res.Continuous == nil {
			t.Fatalf("%s: no continuous schedule", c.src)
		}
		kel := priced(m, res.Continuous.Asks, c.price)
		if kel < dp*(1-1e-6) || kel > dp*1.1 {
			t.Errorf("%s at %g: Keller %.6g, exact %.6g: want slightly worse", c.src, c.price, kel, dp)
		}
		t.Logf("%s at price %g: shooting %.6g, DP %.6g, Keller %.6g (+%.2f%%)", c.src, c.price, bp, dp, kel, 100*(kel/dp-1))
	}
}

// The monotone scan of the dynamic programme finds what the full scan
// finds, on random laws, with and without interval limits.
func TestMonotoneScanMatchesFullScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		items := make([]estimate.Item, 200)
		for i := range items {
			items[i] = estimate.Item{Age: math.Round(r.ExpFloat64()*20*1e3) / 1e3, Status: estimate.Settled}
			if r.Float64() < 0.1 {
				items[i].Status = estimate.Pending
			}
		}
		l := newItemLaw(items)
		cands := candidates(l, 0, 100, 90)
		minGap, maxGap := 0.0, 0.0
		if trial%2 == 1 {
			minGap, maxGap = 0.5, 15
		}
		obj := Objective(trial % 3 / 2)
		g := newGrid(l, obj, cands, minGap, maxGap, 50)
		lambda, mu := r.Float64()*3, r.Float64()*2
		fast, full := g.solveScan(lambda, mu, true), g.solveScan(lambda, mu, false)
		cf, cs := g.pathCost(fast, lambda, mu), g.pathCost(full, lambda, mu)
		if math.Abs(cf-cs) > 1e-9*math.Abs(cs) {
			t.Errorf("trial %d: monotone scan cost %.12g, full scan %.12g", trial, cf, cs)
		}
	}
}

// pathCost is the DP's objective of a path, summed independently.
func (g *grid) pathCost(path []int, lambda, mu float64) float64 {
	var c float64
	for k, b := range path {
		if k == 0 {
			c += lambda * (g.total + g.pend[b])
			if g.obj == RMS {
				c += 2 * (g.t[b]*g.i[b] - g.j[b])
			} else {
				c += g.i[b]
			}
		} else {
			a := path[k-1]
			c += g.lag(a, b) + lambda*(g.total-g.f[a]+g.pend[b])
		}
		if g.t[b] <= g.countTo {
			c += mu
		}
		if k > 0 {
			c += g.tieBreak
		}
	}
	return c
}

func trimFloat(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// With three asks (0, x, T) the RMS optimum is a one-dimensional
// minimum: scan x finely, summing E[lag²] by the midpoint rule, and
// compare with Optimal's; the continuous rate ∝ f^{1/3} comes close.
func TestRMSOptimum(t *testing.T) {
	m := mustModel(t, "gamma(shape=2, scale=5s)")
	T := 30.0
	res, err := Optimal(m, Options{Budget: Budget{AsksBy: 3, AsksByAge: 30 * time.Second}, Objective: RMS})
	if err != nil {
		t.Fatal(err)
	}
	msl := func(asks []float64) float64 { // E[lag²; s ≤ T] by the midpoint rule
		const n = 20000
		var sum float64
		for k := 0; k < n; k++ {
			s := (float64(k) + 0.5) * T / n
			for _, a := range asks {
				if a >= s {
					sum += (a - s) * (a - s) * m.PDF(s) * T / n
					break
				}
			}
		}
		return sum
	}
	best, bestX := math.Inf(1), 0.0
	for x := 0.05; x < T; x += 0.05 {
		if v := msl([]float64{0, x, T}); v < best {
			best, bestX = v, x
		}
	}
	got := msl(res.Optimum.Asks)
	if len(res.Optimum.Asks) != 3 || math.Abs(res.Optimum.Asks[1]-bestX) > 0.1 || got > best*(1+1e-3) {
		t.Errorf("RMS optimum %v (E[lag²] %.6g); scan: x = %.2f (%.6g)", res.Optimum.Asks, got, bestX, best)
	}
	c := res.Continuous
	if c == nil || c.RMSLag < res.Optimum.RMSLag*(1-1e-9) || c.RMSLag > res.Optimum.RMSLag*1.15 {
		t.Errorf("continuous RMS lag %v against the optimum's %.6g", c, res.Optimum.RMSLag)
	}
}
