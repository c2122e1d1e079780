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

func TestGRPC(t *testing.T) {
	b := backoff.Backoff{Kind: backoff.Exponential, Initial: 250 * time.Millisecond, Factor: 3, Max: 20 * time.Second,
		Attempts: 5, Jitter: backoff.Jitter{Kind: backoff.Full}}
	var buf bytes.Buffer
	if err := GRPC(&buf, b, GRPCOptions{Service: "payments.Status", Codes: []string{"UNAVAILABLE", "DEADLINE_EXCEEDED"}}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
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
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	p := doc.MethodConfig[0].RetryPolicy
	if p.MaxAttempts != 5 || p.InitialBackoff != "0.25s" || p.MaxBackoff != "20s" || p.BackoffMultiplier != 3 ||
		strings.Join(p.RetryableStatusCodes, ",") != "UNAVAILABLE,DEADLINE_EXCEEDED" || doc.MethodConfig[0].Name[0]["service"] != "payments.Status" {
		t.Errorf("policy %+v, name %v", p, doc.MethodConfig[0].Name)
	}
	// Refused, each with what to change.
	for _, c := range []struct {
		edit func(*backoff.Backoff)
		want string
	}{
		{func(b *backoff.Backoff) { b.Kind = backoff.Constant }, "not constant"},
		{func(b *backoff.Backoff) { b.Jitter = backoff.Jitter{} }, "add jitter=full"},
		{func(b *backoff.Backoff) { b.Max = 0 }, "add max="},
		{func(b *backoff.Backoff) { b.Attempts = 0 }, "add attempts=N"},
		{func(b *backoff.Backoff) { b.Elapsed = time.Minute }, "drop them"},
	} {
		bad := b
		c.edit(&bad)
		if err := GRPC(&bytes.Buffer{}, bad, GRPCOptions{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", bad, err, c.want)
		}
	}
}

// The policy's attempts are the strategy's: gRPC waits U(0, min(initial·
// multiplier^(n−1), max)) before the n-th retry; the strategy pollfit
// replays waits the same, worked out here from the policy's numbers over
// 4000 clients: every wait within its bound, the mean wait half of it.
func TestGRPCWaitsAreTheStrategys(t *testing.T) {
	b := backoff.Backoff{Kind: backoff.Exponential, Initial: time.Second, Factor: 2, Max: 5 * time.Second,
		Attempts: 5, Jitter: backoff.Jitter{Kind: backoff.Full}}
	bound := []float64{1, 2, 4, 5} // min(1·2^(n−1), 5) for the 4 retries
	sum := make([]float64, 4)
	rng := rand.New(rand.NewPCG(1, 2))
	const clients = 4000
	for range clients {
		asks := backoff.Asks(b, rng, time.Hour)
		if len(asks) > 5 {
			t.Fatalf("%d attempts, want at most 5", len(asks))
		}
		for n := 1; n < len(asks); n++ {
			w := (asks[n] - asks[n-1]).Seconds()
			if w < 0 || w > bound[n-1] {
				t.Fatalf("retry %d waits %gs, outside [0, %g]", n, w, bound[n-1])
			}
			sum[n-1] += w
		}
	}
	for n, s := range sum {
		// A wait of 0 ns repeats an age and is dropped, which a uniform
		// draw makes with probability ~0: every client has all 4.
		if mean, want := s/clients, bound[n]/2; math.Abs(mean-want) > 4*bound[n]/math.Sqrt(12*clients) {
			t.Errorf("retry %d: mean wait %.4gs, want %.4gs", n+1, mean, want)
		}
	}
}
