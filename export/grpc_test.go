package export

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
)

// grpcPolicy is the part of a service config GRPC writes, read back.
type grpcPolicy struct {
	MethodConfig []struct {
		Name        []map[string]string
		RetryPolicy struct {
			MaxAttempts          int
			InitialBackoff       string
			MaxBackoff           string
			BackoffMultiplier    float64
			RetryableStatusCodes []string
		}
	}
}

func TestGRPC(t *testing.T) {
	b := backoff.Backoff{Kind: backoff.Exponential, Initial: 250 * time.Millisecond, Factor: 3, Max: 20 * time.Second,
		Attempts: 5, Jitter: backoff.GRPC}
	var buf bytes.Buffer
	if err := GRPC(&buf, b, GRPCOptions{Service: "payments.Status", Codes: []string{"UNAVAILABLE", "DEADLINE_EXCEEDED"}}); err != nil {
		t.Fatal(err)
	}
	var doc grpcPolicy
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.MethodConfig[0].RetryPolicy
	if p.MaxAttempts != 5 || p.InitialBackoff != "0.25s" || p.MaxBackoff != "20s" || p.BackoffMultiplier != 3 ||
		strings.Join(p.RetryableStatusCodes, ",") != "UNAVAILABLE,DEADLINE_EXCEEDED" || len(doc.MethodConfig[0].Name[0]) != 1 || doc.MethodConfig[0].Name[0]["service"] != "payments.Status" {
		t.Errorf("policy %+v, name %v", p, doc.MethodConfig[0].Name)
	}
	// Refused, each with what to change.
	for _, c := range []struct {
		edit func(*backoff.Backoff, *GRPCOptions)
		want string
	}{
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Kind = backoff.Constant }, "not constant"},
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Jitter = backoff.Jitter{Kind: backoff.Full} },
			"grpc-go waits cap × U(0.8, 1.2) before a retry, not jitter=full: give jitter=grpc, or --grpc-client node-1.13"},
		{func(b *backoff.Backoff, o *GRPCOptions) { o.Client = "java" }, ""},
		{func(b *backoff.Backoff, o *GRPCOptions) { o.Client = "node" }, ""},
		{func(b *backoff.Backoff, o *GRPCOptions) { o.Client = "node-1.13" },
			"grpc-node (@grpc/grpc-js 1.13 or earlier) waits U(0, cap) before a retry, not jitter=grpc: give jitter=full, or --grpc-client go, java or node"},
		{func(b *backoff.Backoff, o *GRPCOptions) {
			o.Client, b.Jitter = "node-1.13", backoff.Jitter{Kind: backoff.Full}
		}, ""},
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Jitter = backoff.Jitter{} }, "not jitter=none: give jitter=grpc"},
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Jitter = backoff.Jitter{Kind: backoff.Equal} }, "not jitter=equal: give jitter=grpc"},
		{func(_ *backoff.Backoff, o *GRPCOptions) { o.Client = "rust" }, `gRPC client "rust": want go, java, node, node-1.13`},
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Max = 0 }, "add max="},
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Attempts = 0 }, "add attempts=N"},
		{func(b *backoff.Backoff, _ *GRPCOptions) { b.Elapsed = time.Minute }, "drop them"},
	} {
		bad, opt := b, GRPCOptions{}
		c.edit(&bad, &opt)
		err := GRPC(&bytes.Buffer{}, bad, opt)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("%s for %q: error %v, want %q", bad, opt.Client, err, c.want)
		}
	}
}

// The policy's attempts are the strategy's, worked out here from the
// policy's numbers over 4000 clients: with caps c = min(1·2^(n−1), 5)
// for the 4 retries, grpc-go and grpc-java wait c·U(0.8, 1.2) (mean c),
// grpc-node U(0, c) (mean c/2); every wait within its bounds.
func TestGRPCWaitsAreTheStrategys(t *testing.T) {
	caps := []float64{1, 2, 4, 5}
	for _, c := range []struct {
		jitter         backoff.Jitter
		lo, hi, meanOf float64
	}{
		{backoff.GRPC, 0.8, 1.2, 1},
		{backoff.Jitter{Kind: backoff.Full}, 0, 1, 0.5},
	} {
		b := backoff.Backoff{Kind: backoff.Exponential, Initial: time.Second, Factor: 2, Max: 5 * time.Second,
			Attempts: 5, Jitter: c.jitter}
		sum := make([]float64, 4)
		rng := rand.New(rand.NewPCG(1, 2))
		const clients = 4000
		for range clients {
			asks := backoff.Asks(b, rng, time.Hour)
			if len(asks) != 5 {
				t.Fatalf("%s: %d attempts, want 5", b, len(asks))
			}
			for n := 1; n < len(asks); n++ {
				w := (asks[n] - asks[n-1]).Seconds()
				if w < c.lo*caps[n-1]-1e-9 || w > c.hi*caps[n-1]+1e-9 {
					t.Fatalf("%s: retry %d waits %gs, outside [%g, %g]", b, n, w, c.lo*caps[n-1], c.hi*caps[n-1])
				}
				sum[n-1] += w
			}
		}
		for n, s := range sum {
			width := (c.hi - c.lo) * caps[n] // of the uniform wait
			if mean, want := s/clients, c.meanOf*caps[n]; math.Abs(mean-want) > 4*width/math.Sqrt(12*clients) {
				t.Errorf("%s: retry %d: mean wait %.4gs, want %.4gs", b, n+1, mean, want)
			}
		}
	}
}
