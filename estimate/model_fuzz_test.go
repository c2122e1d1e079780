package estimate

import (
	"math"
	"testing"
)

// FuzzParseModel: a model spec parses or fails with a ModelError; a
// parsed one draws ages within MaxAge.
func FuzzParseModel(f *testing.F) {
	for _, s := range []string{"lognormal(median=12s, sigma=0.5)", "0.3*point(at=1s) + 0.7*exponential(mean=2m)", "0.1*never + gamma(shape=2, scale=1d)", "uniform(min=0, max=1e300d)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		m, err := ParseModel(spec)
		if err != nil {
			if _, ok := err.(*ModelError); !ok {
				t.Fatalf("%q: %T %v", spec, err, err)
			}
			if len(err.Error()) > 2000 { // 200 bytes quoted, the window, the caret
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		for _, it := range m.Items(20, 1, math.Inf(1)) {
			if math.IsNaN(it.Age) || it.Age < 0 || it.Age > maxAgeSeconds {
				t.Fatalf("%q drew %+v", spec, it)
			}
		}
	})
}
