package fitjson

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// TestFirstAsk: the first ask's age and the held-out share answered by
// then, counted by hand. The schedule asks first at 2s; of the five
// held-out items, those with a final answer by 2s are the one settled
// at 0.5s, the one failed at 1.5s (a failure is an answer) and the one
// settled at exactly 2s (an ask at an answer's age sees it): 3/5. The
// one pending at 1s has no answer, the one settled at 2.5s comes after.
// Weighted, the 2.5s item standing for 5 items: 3/9.
func TestFirstAsk(t *testing.T) {
	items := []estimate.Item{{Age: 0.5, Status: estimate.Settled}, {Age: 1, Status: estimate.Pending}, {Age: 1.5, Status: estimate.Failed},
		{Age: 2, Status: estimate.Settled}, {Age: 2.5, Status: estimate.Settled}}
	s, err := schedule.Parse("at 2s 4s, 2s until 30s")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		heldOut fit.Sample
		want    float64
	}{
		{"plain", fit.ItemSample(items), 3.0 / 5},
		{"weighted", fit.Sample{Items: items, Weights: []float64{1, 1, 1, 1, 5}}, 3.0 / 9},
	} {
		fa := New(&fit.StudyResult{Schedule: s, FitOn: &fit.Sample{}, HeldOut: &c.heldOut}, nil).FirstAsk
		if fa.Age == nil || *fa.Age != 2 || fa.SeenShare == nil || *fa.SeenShare != c.want {
			t.Errorf("%s: first ask %v at %v, want %g at 2s", c.name, fa.SeenShare, fa.Age, c.want)
		}
	}
	// The default first ask, at 0: only an answer at age 0 is in.
	now, _ := schedule.Parse("1s until 30s")
	zero := append([]estimate.Item{{Age: 0, Status: estimate.Settled}}, items...)
	if fa := New(&fit.StudyResult{Schedule: now, HeldOut: &fit.Sample{Items: zero}}, nil).FirstAsk; *fa.Age != 0 || *fa.SeenShare != 1.0/6 {
		t.Errorf("first ask at 0: %v at %v, want 1/6 at 0", *fa.SeenShare, *fa.Age)
	}
}

// TestFirstAskNull: a model has no held-out share, a schedule of
// wall-clock asks no age-based first ask; the JSON says null for each.
func TestFirstAskNull(t *testing.T) {
	s, _ := schedule.Parse("at 3s, 1s until 30s")
	fa := New(&fit.StudyResult{Schedule: s, Model: uniform{}}, nil).FirstAsk
	if fa.Age == nil || *fa.Age != 3 || fa.SeenShare != nil {
		t.Errorf("model: first ask %+v, want age 3 and no share", fa)
	}
	wall, err := schedule.Parse("every 5m at +2s +5s until 1h")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(New(&fit.StudyResult{Schedule: wall, HeldOut: &fit.Sample{}}, nil))
	if !strings.Contains(string(b), `"first_ask":{"age_s":null,"seen_share":null}`) {
		t.Errorf("wall-clock asks only: %s", b)
	}
}

// uniform is the settle-time model U(0, 1s).
type uniform struct{}

func (uniform) CDF(t float64) float64 { return min(max(t, 0), 1) }
