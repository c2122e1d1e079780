package estimate

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// phi1 is Φ(1), the standard normal CDF at 1.
const phi1 = 0.8413447460685429

func TestParseModelCDF(t *testing.T) {
	e := math.E
	cases := []struct {
		src  string
		t    float64
		want float64 // closed form
	}{
		{"lognormal(median=12s, sigma=0.5)", 12, 0.5},
		{"lognormal(median=12s, sigma=0.5)", 0, 0},
		{"lognormal(median=12s, sigma=0.5)", 12 * math.Exp(0.5), phi1},
		{"exponential(mean=30s)", 30, 1 - 1/e},
		{"weibull(shape=2, scale=1s)", 2, 1 - math.Exp(-4)},
		{"weibull(shape=2, scale=1d)", 86400, 1 - 1/e},
		{"gamma(shape=2, scale=1s)", 1, 1 - 2/e},
		{"gamma(shape=2, scale=500ms)", 0.5, 1 - 2/e},
		{"normal(mean=60s, sd=1.5s)", 61.5, phi1},
		{"normal(mean=0s, sd=1s)", 1, 2*phi1 - 1}, // half-normal
		{"uniform(min=10s, max=20s)", 12.5, 0.25},
		{"Point(at=1m)", 60, 1},
		{"point(at=1m)", 59.999, 0},
		{"1*exponential(mean=1s)", 1, 1 - 1/e},
		{"0.3*exponential(mean=1s) + 0.6*point(at=10s) + 0.1*never", 5, 0.3 * (1 - math.Exp(-5))},
		{"0.3*exponential(mean=1s) + 0.6*point(at=10s) + 0.1*never", 10, 0.3*(1-math.Exp(-10)) + 0.6},
	}
	for _, c := range cases {
		m, err := ParseModel(c.src)
		if err != nil {
			t.Errorf("ParseModel(%q): %v", c.src, err)
			continue
		}
		if got := m.CDF(c.t); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("%s: CDF(%g) = %.12g, want %.12g", c.src, c.t, got, c.want)
		}
		if got := m.Survival(c.t); math.Abs(got-(1-c.want)) > 1e-9 {
			t.Errorf("%s: Survival(%g) = %.12g, want %.12g", c.src, c.t, got, 1-c.want)
		}
	}
}

func TestModelPDFQuantileNever(t *testing.T) {
	m, err := ParseModel("0.3*exponential(mean=1s) + 0.6*point(at=10s) + 0.1*never")
	if err != nil {
		t.Fatal(err)
	}
	if m.Never() != 0.1 || m.Smooth() {
		t.Errorf("Never = %g, Smooth = %v; want 0.1, false", m.Never(), m.Smooth())
	}
	if got := m.PDF(2); math.Abs(got-0.3*math.Exp(-2)) > 1e-12 {
		t.Errorf("PDF(2) = %g, want %g", got, 0.3*math.Exp(-2))
	}
	for _, c := range []struct{ p, want float64 }{
		{0.15, math.Ln2}, // 0.3(1−e^{−t}) = 0.15
		{0.5, 10},
		{0.89, 10},
		{0.95, math.Inf(1)},
	} {
		if got := m.Quantile(c.p); math.Abs(got-c.want) > 1e-9 && got != c.want {
			t.Errorf("Quantile(%g) = %g, want %g", c.p, got, c.want)
		}
	}
	w, _ := ParseModel("weibull(shape=2, scale=1s)")
	// PDF of Weibull(2, 1) is 2t e^{−t²}; its median is √ln 2.
	if got := w.PDF(1); math.Abs(got-2/math.E) > 1e-12 {
		t.Errorf("weibull PDF(1) = %g, want %g", got, 2/math.E)
	}
	if got := w.Quantile(0.5); math.Abs(got-math.Sqrt(math.Ln2)) > 1e-9 {
		t.Errorf("weibull median = %g, want %g", got, math.Sqrt(math.Ln2))
	}
	mix, _ := ParseModel("0.5*exponential(mean=1s) + 0.5*exponential(mean=1s)")
	if got := mix.Quantile(1 - 1/math.E); math.Abs(got-1) > 1e-9 {
		t.Errorf("mixture quantile = %g, want 1", got)
	}
}

func TestModelString(t *testing.T) {
	for _, src := range []string{
		"lognormal(median=12s, sigma=0.5)",
		"0.35*lognormal(median=1.5s, sigma=0.4) + 0.6*gamma(shape=2, scale=10s) + 0.05*never",
	} {
		m, err := ParseModel(src)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.String(); got != src {
			t.Errorf("String() = %q, want %q", got, src)
		}
	}
}

func TestParseModelErrors(t *testing.T) {
	cases := []struct {
		src  string
		col  int
		text string
	}{
		{"lognormal(median=12, sigma=0.5)", 18, "has no unit"},
		{"lognormal(sigma=0.5, median=12s)", 11, "expects median="},
		{"lognorm(median=12s, sigma=0.5)", 1, "unknown distribution"},
		{"lognormal(median=12s sigma=0.5)", 22, `expected ','`},
		{"0.5*lognormal(median=12s, sigma=0.5) + 0.4*never", 1, "sum to 0.9"},
		{"lognormal(median=12s, sigma=0.5) + 0.1*never", 1, "needs a weight"},
		{"0.9*exponential(mean=1s) + never", 28, "never needs a weight"},
		{"1.5*exponential(mean=1s)", 1, "weight must be"},
		{"exponential(mean=-1s)", 18, "negative duration"},
		{"exponential(mean=1s) 3", 22, "expected + or the end"},
		{"exponential(mean=1s", 20, `expected ')'`},
	}
	for _, c := range cases {
		_, err := ParseModel(c.src)
		var me *ModelError
		if !errors.As(err, &me) {
			t.Errorf("ParseModel(%q) = %v, want a *ModelError", c.src, err)
			continue
		}
		if me.Col != c.col || !strings.Contains(me.Msg, c.text) {
			t.Errorf("ParseModel(%q): col %d %q, want col %d containing %q", c.src, me.Col, me.Msg, c.col, c.text)
		}
		if !strings.Contains(err.Error(), "\n\t"+strings.Repeat(" ", c.col-1)+"^") {
			t.Errorf("ParseModel(%q): no caret at column %d in\n%v", c.src, c.col, err)
		}
	}
}

func TestModelItems(t *testing.T) {
	m, _ := ParseModel("0.9*exponential(mean=10s) + 0.1*never")
	items := m.Items(100000, 1, 60)
	var pending int
	for _, it := range items {
		if it.Status == Pending {
			pending++
			if it.Age != 60 {
				t.Fatalf("pending item at age %g, want 60", it.Age)
			}
		}
	}
	// Pending: never (0.1) plus 0.9·e^{−6}; binomial sd ≈ 0.001.
	want := 0.1 + 0.9*math.Exp(-6)
	if got := float64(pending) / 1e5; math.Abs(got-want) > 0.005 {
		t.Errorf("pending share %g, want %g", got, want)
	}
}
