package promtest

import (
	"math"
	"path/filepath"
	"slices"
	"testing"

	"github.com/pollfit/pollfit/estimate/logs"
)

// Prometheus 2.42 scraping a client_golang exporter answers the query
// API with the exporter's counts: pollfit reads the classic buckets'
// answer as the same histogram as the exporter's text exposition (and
// fits the same schedule from both, with the same figures), and the
// native histogram's answer (schema 3, no classic buckets) as
// buckets that each hold the observations a count of the generated ages
// puts there; two reads subtracted hold the ages observed between them.
func TestPrometheusScrape(t *testing.T) {
	ages := settleAges(6000, 3)
	x := startExporter(t, ages)
	dir := t.TempDir()
	text := x.textFile(t, dir)
	srv := startPrometheus(t, x.addr)
	n := float64(len(ages))
	classicAPI := srv.awaitQuery(t, dir, "classic.json", classicName+"_bucket", n)
	nativeAPI := srv.awaitQuery(t, dir, "native.json", nativeName, n)

	fromText := readMetric(t, text, classicName)
	fromAPI := readMetric(t, classicAPI, "")
	checkCounts(t, "text exposition", fromText, ages, true)
	checkCounts(t, "query API (classic)", fromAPI, ages, false)
	if !slices.Equal(fromText.Lo, fromAPI.Lo) || !slices.Equal(fromText.Hi, fromAPI.Hi) || !slices.Equal(fromText.Count, fromAPI.Count) {
		t.Errorf("the query API's classic buckets differ from the text file's:\napi  %v %v\ntext %v %v", fromAPI.Hi, fromAPI.Count, fromText.Hi, fromText.Count)
	}
	if len(fromAPI.Count) != len(classicBounds)+1 {
		t.Errorf("classic: %d buckets, want the exporter's %d and +Inf", len(fromAPI.Count), len(classicBounds))
	}
	// pollfit fits the same schedule, with the same figures, from the
	// query API's answer and from the text file.
	sameFit(t, "the query API's classic histogram", "the text exposition", fromAPI, fromText)

	native := readMetric(t, nativeAPI, "")
	checkCounts(t, "query API (native)", native, ages, true)
	if len(native.Count) < 40 {
		t.Errorf("native: %d buckets; a schema-3 histogram of ages from 0.1 s to hours has more than 40", len(native.Count))
	}
	if r := native.Hi[1] / native.Lo[1]; math.Abs(r-math.Pow(2, 1.0/8)) > 1e-9 {
		t.Errorf("native: a bucket spans ×%g, want schema 3's 2^(1/8)", r)
	}
	t.Logf("%d ages; classic %d buckets, native %d", len(ages), len(fromAPI.Count), len(native.Count))

	// A window: more ages observed, read again, the first read subtracted
	// (the counts are cumulative) holds the new ages alone.
	more := settleAges(3000, 5)
	x.observe(more)
	m := n + float64(len(more))
	for _, c := range []struct{ before, name, query string }{
		{classicAPI, "classic2.json", classicName + "_bucket"}, {nativeAPI, "native2.json", nativeName},
	} {
		after := readMetric(t, srv.awaitQuery(t, dir, c.name, c.query, m), "")
		window, err := after.Sub(readMetric(t, c.before, ""))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkCounts(t, c.name+" less "+filepath.Base(c.before), window, more, c.name == "native2.json")
	}
}

func readMetric(t *testing.T, file, name string) *logs.Histogram {
	t.Helper()
	if !logs.IsMetric(file) {
		t.Errorf("%s: not recognised as a metric file", file)
	}
	h, err := logs.ReadMetric(file, logs.MetricOptions{Metric: name})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// checkCounts checks a histogram against the ages it observed, counted
// here: each bucket (lo, hi] holds the ages in it (a bucket lo == hi the
// ages equal to lo), every age is in one, and the sum is theirs where
// the source gives one (a query of the _bucket series gives none).
func checkCounts(t *testing.T, what string, h *logs.Histogram, ages []float64, hasSum bool) {
	t.Helper()
	total, sum := 0, 0.0
	for _, a := range ages {
		sum += a
	}
	for i := range h.Count {
		n := 0
		for _, a := range ages {
			if a > h.Lo[i] && a <= h.Hi[i] || a == h.Lo[i] && h.Lo[i] == h.Hi[i] {
				n++
			}
		}
		if float64(n) != h.Count[i] {
			t.Errorf("%s: bucket (%g, %g] counts %g, the ages in it %d", what, h.Lo[i], h.Hi[i], h.Count[i], n)
		}
		total += n
	}
	if total != len(ages) {
		t.Errorf("%s: the buckets hold %d of the %d ages", what, total, len(ages))
	}
	if hasSum && !(math.Abs(h.Sum-sum) <= 1e-9*sum) {
		t.Errorf("%s: sum %g, the ages' %g", what, h.Sum, sum)
	}
}
