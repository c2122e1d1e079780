package promtest

import (
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pollfit/pollfit/internal/loggen"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// The metrics' names, and the classic histogram's 12 upper bounds in
// seconds (0.25 s … 15 m, as a team would pick them).
const (
	classicName = "payment_settle_seconds"
	nativeName  = "payment_settle_native_seconds"
)

var classicBounds = []float64{0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300, 900}

// settleAges are the settle ages in seconds of the settled items of a
// generated payments log of n rows (pollfit gen --model payments).
func settleAges(n int, seed uint64) []float64 {
	var ages []float64
	for _, r := range loggen.Rows(loggen.Payments, n, seed) {
		if !r.Settled.IsZero() {
			ages = append(ages, r.Settled.Sub(r.Created).Seconds())
		}
	}
	return ages
}

// exporter is a test exporter: a registry holding a classic histogram
// and a native one (no classic buckets, bucket factor 1.1: schema 3),
// each having observed ages, served on loopback at /metrics.
type exporter struct {
	addr    string // host:port
	observe func(ages []float64)
}

func startExporter(t *testing.T, ages []float64) *exporter {
	t.Helper()
	reg := prometheus.NewRegistry()
	classic := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: classicName, Help: "Time from a payment's creation to its final answer.", Buckets: classicBounds,
	})
	native := prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: nativeName, Help: "Time from a payment's creation to its final answer.",
		NativeHistogramBucketFactor: 1.1,
	})
	reg.MustRegister(classic, native)
	observe := func(ages []float64) {
		for _, a := range ages {
			classic.Observe(a)
			native.Observe(a)
		}
	}
	observe(ages)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	return &exporter{addr: l.Addr().String(), observe: observe}
}

// textFile saves the exporter's text exposition, as a scrape asking
// for text gets it, to a file in dir.
func (x *exporter) textFile(t *testing.T, dir string) string {
	t.Helper()
	req, err := http.NewRequest("GET", "http://"+x.addr+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Accept", "text/plain; version=0.0.4")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "metrics.txt")
	if err := os.WriteFile(file, b, 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}
