package fit

import (
	"encoding/json"
	"math"
	"testing"
	"time"
)

// TestRowJSONByHand: a row's JSON, written out by hand: seconds as
// numbers, undefined figures (a NaN percentile, an infinite cost, a NaN
// interval bound) as null, asks by age keyed in the order given, the
// intervals only with a bootstrap, and Metrics alone without the stuck
// cost, missed share and intervals.
func TestRowJSONByHand(t *testing.T) {
	m := Metrics{Name: "now", Schedule: "1s until 30s", Horizon: 90 * time.Second, Items: 10, Detected: 8, Missed: 1, Pending: 1,
		Lag: LagStats{Mean: 1.25, P50: 1, P90: 2, P95: math.NaN(), P99: 3, Max: 4}, RequestsPerItem: math.Inf(1),
		AsksBy: []float64{31, 7}, AsksByAges: []time.Duration{2 * time.Minute, 30 * time.Second}}
	lag := `"lag_s":{"mean":1.25,"p50":1,"p90":2,"p95":null,"p99":3,"max":4}`
	head := `{"name":"now","schedule":"1s until 30s","horizon_s":90,"items":10,"detected":8,"missed":1,"pending":1,` + lag +
		`,"requests_per_item":null,"asks_by":{"2m":31,"30s":7}`
	for _, c := range []struct {
		name string
		v    any
		want string
	}{
		{"metrics", m, head + `}`},
		{"row", Row{Metrics: m, Stuck: 40, MissedShare: 0.1}, head + `,"stuck_asks":40,"missed_share":0.1}`},
		{"bootstrapped", Row{Metrics: m, Stuck: math.NaN(), MissedShare: 0, LagCI: Interval{1, 1.5}, P95CI: Interval{math.NaN(), 3}, RequestsCI: Interval{17, 18}},
			head + `,"missed_share":0,"lag_mean_ci":[1,1.5],"lag_p95_ci":[null,3],"requests_per_item_ci":[17,18]}`},
	} {
		got, err := json.Marshal(c.v)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %s (%v)\nwant %s", c.name, got, err, c.want)
		}
	}
}

// TestAsksByJSONReadsBack: asks by age read back keep their order and
// nulls; an array is refused.
func TestAsksByJSONReadsBack(t *testing.T) {
	var a AsksByJSON
	if err := json.Unmarshal([]byte(`{"2m":31,"30s":null,"15m":7.5}`), &a); err != nil {
		t.Fatal(err)
	}
	if len(a) != 3 || a[0].Age != "2m" || *a[0].Asks != 31 || a[1].Age != "30s" || a[1].Asks != nil || a[2].Age != "15m" || *a[2].Asks != 7.5 {
		t.Errorf("read %+v", a)
	}
	if err := json.Unmarshal([]byte(`[1]`), &a); err == nil {
		t.Error("asks_by from a JSON array: no error")
	}
}
