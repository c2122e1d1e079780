package logs

import (
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

const promText = `# HELP settle_seconds Time to the final answer.
# TYPE settle_seconds histogram
settle_seconds_bucket{le="0.25"} 2
settle_seconds_bucket{le="1"} 5
settle_seconds_bucket{le="5"} 9
settle_seconds_bucket{le="+Inf"} 10
settle_seconds_sum 31.5
settle_seconds_count 10
# another series, not a histogram
polls_total{code="200"} 1234 1700000000000
`

// TestPrometheusText: cumulative counts 2, 5, 9, 10 at 0.25, 1, 5, +Inf
// are 2, 3, 4 and 1 answers in the buckets; the one beyond 5 s and 6
// unanswered items are pending at 5 s.
func TestPrometheusText(t *testing.T) {
	dir := writeFiles(t, map[string]string{"m.prom": promText})
	h, err := ReadMetric(filepath.Join(dir, "m.prom"), MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	want := []estimate.Interval{ivl(0, 0.25, 2), ivl(0.25, 1, 3), ivl(1, 5, 4), ivl(5, inf, 1), ivl(5, inf, 6)}
	if got := h.Intervals(6); !reflect.DeepEqual(got, want) || h.Total() != 10 || h.Sum != 31.5 || h.Name != "settle_seconds" {
		t.Errorf("intervals %v total %v sum %v name %q, want %v, 10, 31.5", got, h.Total(), h.Sum, h.Name, want)
	}
	if !IsMetric(filepath.Join(dir, "m.prom")) {
		t.Error("IsMetric false for a Prometheus exposition")
	}
}

// TestPrometheusWindow: a later scrape minus an earlier one.
func TestPrometheusWindow(t *testing.T) {
	later := strings.NewReplacer(`"0.25"} 2`, `"0.25"} 7`, `"1"} 5`, `"1"} 15`, `"5"} 9`, `"5"} 19`, `"+Inf"} 10`, `"+Inf"} 20`).Replace(promText)
	dir := writeFiles(t, map[string]string{"a.prom": promText, "b.prom": later})
	a, _ := ReadMetric(filepath.Join(dir, "a.prom"), MetricOptions{})
	b, _ := ReadMetric(filepath.Join(dir, "b.prom"), MetricOptions{})
	d, err := b.Sub(a)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(d.Count, []float64{5, 5, 0, 0}) {
		t.Errorf("window counts %v, want 5 5 0 0", d.Count)
	}
	if _, err := a.Sub(b); err == nil || !strings.Contains(err.Error(), "counter reset") {
		t.Errorf("earlier minus later: error %v, want a counter reset", err)
	}
}

func TestPrometheusLabelsAndErrors(t *testing.T) {
	two := `a_bucket{le="1",m="x"} 1
a_bucket{le="+Inf",m="x"} 2
a_bucket{m="y",le="1"} 3
a_bucket{le="+Inf",m="y"} 3
b_bucket{le="+Inf"} 1
`
	dir := writeFiles(t, map[string]string{"two.prom": two, "bad.prom": "a_bucket{le=\"1\"} x\n",
		"noinf.prom": "a_bucket{le=\"1\"} 1\n", "down.prom": "a_bucket{le=\"1\"} 2\na_bucket{le=\"+Inf\"} 1\n"})
	if _, err := ReadMetric(filepath.Join(dir, "two.prom"), MetricOptions{}); err == nil || !strings.Contains(err.Error(), "holds 2 histograms (a, b): pick one by name with Metric") {
		t.Errorf("two histograms: error %v", err)
	}
	h, err := ReadMetric(filepath.Join(dir, "two.prom"), MetricOptions{Metric: "a"})
	if err != nil || !reflect.DeepEqual(h.Count, []float64{4, 1}) {
		t.Errorf("a summed over m: counts %v, err %v; want 4 1", h, err)
	}
	for file, want := range map[string]string{"bad.prom": `bad.prom:1: bad count "x"`, "noinf.prom": `no le="+Inf" bucket`,
		"down.prom": "counts are cumulative"} {
		if _, err := ReadMetric(filepath.Join(dir, file), MetricOptions{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", file, err, want)
		}
	}
}

// TestOTLPJSON: scale 1 has buckets (2^(i/2), 2^((i+1)/2)]; offset 2
// puts counts 1, 0, 4 at (2, 2√2], (2√2, 4], (4, 4√2]; 3 in the zero
// bucket [0, 0] are exact zeros. The Go SDK's stdout form, at scale 0
// (buckets (2^i, 2^(i+1)]), adds 5 at (2, 4] once both are at scale 0.
func TestOTLPJSON(t *testing.T) {
	proto := `{"resourceMetrics":[{"scopeMetrics":[{"metrics":[{"name":"settle","exponentialHistogram":{"aggregationTemporality":2,
		"dataPoints":[{"count":"8","sum":20.5,"scale":1,"zeroCount":"3","positive":{"offset":2,"bucketCounts":["1","0","4"]}}]}}]}]}]}`
	gosdk := `{"Resource":[],"ScopeMetrics":[{"Metrics":[{"Name":"settle","Data":{"DataPoints":[
		{"Count":5,"Sum":12,"Scale":0,"ZeroCount":0,"ZeroThreshold":0,"PositiveBucket":{"Offset":1,"Counts":[5]}}],"Temporality":"CumulativeTemporality"}}]}]}`
	dir := writeFiles(t, map[string]string{"p.json": proto, "g.json": gosdk})
	h, err := ReadMetric(filepath.Join(dir, "p.json"), MetricOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r2 := math.Sqrt2
	want := []estimate.Interval{ivl(0, 0, 3), ivl(2, 2*r2, 1), ivl(4, 4*r2, 4)}
	got := h.Intervals(0)
	if len(got) != len(want) || h.Sum != 20.5 {
		t.Fatalf("intervals %v sum %v, want %v", got, h.Sum, want)
	}
	for i := range got {
		if !near(got[i].Lo, want[i].Lo) || !near(got[i].Hi, want[i].Hi) || got[i].W != want[i].W {
			t.Errorf("bucket %d: %v, want %v", i, got[i], want[i])
		}
	}
	g, err := ReadMetric(filepath.Join(dir, "g.json"), MetricOptions{})
	if err != nil || !reflect.DeepEqual(g.Intervals(0), []estimate.Interval{ivl(2, 4, 5)}) {
		t.Errorf("Go SDK form: %v, err %v; want (2, 4] x5", g, err)
	}
	if !IsMetric(filepath.Join(dir, "g.json")) {
		t.Error("IsMetric false for OTLP JSON")
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// TestPrometheusAPI: the query API's answer for the classic buckets of
// promText (a vector, two label sets of one name summed: 1+1 at 0.25,
// 2+3 at 1, 4+5 at 5, 5+5 at +Inf), and for a native histogram (a
// matrix's last value; the zero bucket [-0.001, 0.001] counts from 0).
func TestPrometheusAPI(t *testing.T) {
	vec := `{"status":"success","data":{"resultType":"vector","result":[` +
		`{"metric":{"__name__":"s_bucket","le":"0.25","pod":"a"},"value":[1700000000.1,"1"]},` +
		`{"metric":{"__name__":"s_bucket","le":"1","pod":"a"},"value":[1700000000.1,"2"]},` +
		`{"metric":{"__name__":"s_bucket","le":"5","pod":"a"},"value":[1700000000.1,"4"]},` +
		`{"metric":{"__name__":"s_bucket","le":"+Inf","pod":"a"},"value":[1700000000.1,"5"]},` +
		`{"metric":{"__name__":"s_bucket","le":"0.25","pod":"b"},"value":[1700000000.1,"1"]},` +
		`{"metric":{"__name__":"s_bucket","le":"1","pod":"b"},"value":[1700000000.1,"3"]},` +
		`{"metric":{"__name__":"s_bucket","le":"5","pod":"b"},"value":[1700000000.1,"5"]},` +
		`{"metric":{"__name__":"s_bucket","le":"+Inf","pod":"b"},"value":[1700000000.1,"5"]}]}}`
	native := `{"status":"success","data":{"resultType":"matrix","result":[{"metric":{"__name__":"s"},"histograms":[` +
		`[1700000000,{"count":"1","sum":"1","buckets":[[0,"1","2","1"]]}],` +
		`[1700000015,{"count":"6","sum":"9.5","buckets":[[3,"-0.001","0.001","1"],[0,"1","2","2"],[0,"2","4","3"]]}]]}]}}`
	dir := writeFiles(t, map[string]string{"v.json": vec, "n.json": native})
	h, err := ReadMetric(filepath.Join(dir, "v.json"), MetricOptions{})
	if err != nil || !reflect.DeepEqual(h.Count, []float64{2, 3, 4, 1}) || h.Name != "s" {
		t.Errorf("classic: %+v, err %v; want counts 2 3 4 1", h, err)
	}
	h, err = ReadMetric(filepath.Join(dir, "n.json"), MetricOptions{})
	want := []estimate.Interval{ivl(0, 0.001, 1), ivl(1, 2, 2), ivl(2, 4, 3)}
	if err != nil || !reflect.DeepEqual(h.Intervals(0), want) || h.Sum != 9.5 {
		t.Errorf("native: %+v, err %v; want %v", h, err, want)
	}
	if !IsMetric(filepath.Join(dir, "v.json")) {
		t.Error("IsMetric false for a query API answer")
	}
}
