package promtest

import (
	"context"
	"encoding/json"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlpmetric/otlpmetrichttp"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	colmetricpb "go.opentelemetry.io/proto/otlp/collector/metrics/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// The OpenTelemetry Go SDK aggregating generated settle times into a
// base-2 exponential histogram writes what pollfit reads: the stdout
// exporter's JSON (metricdata's Go field names) and the OTLP exporter's
// request in OTLP's JSON mapping (as a collector's file exporter writes
// it) read as the same buckets, each holding the ages a count here puts
// there, at the scale the SDK chose.
func TestOTelExponentialHistogram(t *testing.T) {
	ages := settleAges(6000, 4)
	rm, scale := collect(t, ages)
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	stdout := filepath.Join(dir, "stdout.json")
	f, err := os.Create(stdout)
	if err != nil {
		t.Fatal(err)
	}
	exp, err := stdoutmetric.New(stdoutmetric.WithEncoder(json.NewEncoder(f)))
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.Export(ctx, rm); err != nil {
		t.Fatal(err)
	}
	f.Close()
	otlp := otlpJSON(t, ctx, rm, filepath.Join(dir, "otlp.json"))

	a, b := readMetric(t, stdout, ""), readMetric(t, otlp, "")
	checkCounts(t, "stdout exporter", a, ages, true)
	checkCounts(t, "OTLP JSON", b, ages, true)
	if !slices.Equal(a.Lo, b.Lo) || !slices.Equal(a.Count, b.Count) {
		t.Errorf("the stdout exporter's buckets differ from OTLP JSON's")
	}
	want := math.Pow(2, math.Pow(2, -float64(scale)))
	for i := range b.Count {
		if b.Lo[i] > 0 && !math.IsInf(b.Hi[i], 1) && math.Abs(b.Hi[i]/b.Lo[i]-want) > 1e-9 {
			t.Fatalf("OTLP JSON: bucket (%g, %g] spans ×%g, want scale %d's %g", b.Lo[i], b.Hi[i], b.Hi[i]/b.Lo[i], scale, want)
		}
	}
	t.Logf("%d ages; scale %d, %d buckets", len(ages), scale, len(b.Count))
}

// collect records ages in a histogram with the SDK's base-2 exponential
// aggregation (at most 160 buckets) and returns what a reader collects,
// with the scale the SDK chose.
func collect(t *testing.T, ages []float64) (*metricdata.ResourceMetrics, int32) {
	t.Helper()
	reader := sdkmetric.NewManualReader()
	view := sdkmetric.NewView(sdkmetric.Instrument{Name: "payment.settle"},
		sdkmetric.Stream{Aggregation: sdkmetric.AggregationBase2ExponentialHistogram{MaxSize: 160, MaxScale: 20}})
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader), sdkmetric.WithView(view))
	defer mp.Shutdown(context.Background())
	h, err := mp.Meter("pollfit/promtest").Float64Histogram("payment.settle")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, a := range ages {
		h.Record(ctx, a)
	}
	var rm metricdata.ResourceMetrics
	if err := reader.Collect(ctx, &rm); err != nil {
		t.Fatal(err)
	}
	eh, ok := rm.ScopeMetrics[0].Metrics[0].Data.(metricdata.ExponentialHistogram[float64])
	if !ok || len(eh.DataPoints) != 1 {
		t.Fatalf("the SDK collected %T, want one exponential histogram point", rm.ScopeMetrics[0].Metrics[0].Data)
	}
	return &rm, eh.DataPoints[0].Scale
}

// otlpJSON exports rm with the SDK's OTLP/HTTP exporter to a receiver
// on loopback, and writes the protobuf request it receives in OTLP's
// JSON mapping to file.
func otlpJSON(t *testing.T, ctx context.Context, rm *metricdata.ResourceMetrics, file string) string {
	t.Helper()
	got := make(chan []byte, 1)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Skipf("no loopback listener: %v", err)
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		select {
		case got <- b:
		default:
		}
		resp, _ := proto.Marshal(&colmetricpb.ExportMetricsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(resp)
	})}
	go srv.Serve(l)
	defer srv.Close()
	exp, err := otlpmetrichttp.New(ctx, otlpmetrichttp.WithEndpoint(l.Addr().String()), otlpmetrichttp.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	if err := exp.Export(ctx, rm); err != nil {
		t.Fatalf("otlp export: %v", err)
	}
	var req colmetricpb.ExportMetricsServiceRequest
	if err := proto.Unmarshal(<-got, &req); err != nil {
		t.Fatalf("otlp request: %v", err)
	}
	b, err := protojson.Marshal(&req)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, b, 0o666); err != nil {
		t.Fatal(err)
	}
	return file
}
