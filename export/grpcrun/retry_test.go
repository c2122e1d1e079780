package grpcrun

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit/backoff"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// method is the one method the policies are written for, as
// pkg.Svc/Method: a policy that named it as a service would match
// nothing, and no call would be retried.
const method = "grpc.health.v1.Health/Check"

// config is the service config pollfit writes for spec, for grpc-go.
func config(t *testing.T, spec string) (string, backoff.Backoff) {
	t.Helper()
	return configFor(t, spec, "")
}

// configFor is the service config pollfit writes for spec, for the gRPC
// client named client (backoff.GRPCClients; "" for grpc-go).
func configFor(t *testing.T, spec, client string) (string, backoff.Backoff) {
	t.Helper()
	st, err := backoff.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	b := st.(backoff.Backoff)
	var buf bytes.Buffer
	if err := export.GRPC(&buf, b, export.GRPCOptions{Service: method, Client: client}); err != nil {
		t.Fatal(err)
	}
	return buf.String(), b
}

// calls makes n calls through a client with the config and options, each
// failing at last with UNAVAILABLE, and returns each call's attempts as
// the server saw them.
func calls(t *testing.T, cfg string, n int, opts ...grpc.DialOption) [][]time.Time {
	t.Helper()
	u, addr := serve(t)
	opts = append(opts, grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithDefaultServiceConfig(cfg))
	conn, err := grpc.NewClient(addr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := healthpb.NewHealthClient(conn)
	var out [][]time.Time
	for i := range n {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		_, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: fmt.Sprint(i)})
		cancel()
		if status.Code(err) != codes.Unavailable {
			t.Fatalf("call %d: %v, want UNAVAILABLE", i, err)
		}
		out = append(out, u.of(fmt.Sprint(i)))
	}
	return out
}

// slack is what a retry's gap may exceed its wait by: the failed answer
// and the next attempt crossing loopback, and the timer firing late. On
// a busy machine a few gaps run later still: up to a tenth may.
const slack = 5 * time.Millisecond

// TestGRPCGoWaits: grpc-go waits cap × U(0.8, 1.2) before a retry, as
// pollfit models it (jitter=grpc). A gap between attempts is the wait and
// a little more, never less: so every gap ÷ cap is at least 0.8 (full
// jitter, U(0, cap), puts 80% of them below), the median is near the
// model's 1 (full jitter's is 0.5), and nine in ten are at most 1.2 ×
// cap plus the slack.
func TestGRPCGoWaits(t *testing.T) {
	for _, c := range []struct {
		spec  string
		calls int
	}{
		{"exponential(initial=50ms, factor=1, max=50ms, attempts=5, jitter=grpc)", 16},
		{"exponential(initial=30ms, factor=2, max=120ms, attempts=5, jitter=grpc)", 10},
	} {
		cfg, b := config(t, c.spec)
		var ratios []float64
		late := 0
		for i, at := range calls(t, cfg, c.calls) {
			if len(at) != b.Attempts {
				t.Fatalf("%s: call %d made %d attempts, want %d", c.spec, i, len(at), b.Attempts)
			}
			for n := 1; n < len(at); n++ {
				bound := min(float64(b.Initial)*math.Pow(b.Factor, float64(n-1)), float64(b.Max)) // the cap before retry n
				gap := float64(at[n].Sub(at[n-1]))
				if gap < 0.8*bound {
					t.Errorf("%s: call %d retry %d: gap %v under 0.8 × the cap %v", c.spec, i, n, time.Duration(gap), time.Duration(bound))
				}
				if gap > 1.2*bound+float64(slack) {
					late++
				}
				ratios = append(ratios, gap/bound)
			}
		}
		slices.Sort(ratios)
		var sum float64
		for _, r := range ratios {
			sum += r
		}
		median := ratios[len(ratios)/2]
		t.Logf("%s: %d gaps, gap ÷ cap min %.3f median %.3f mean %.3f max %.3f, %d over 1.2 × cap + %v (model: U(0.8, 1.2), median 1; full jitter: U(0, 1), median 0.5)",
			c.spec, len(ratios), ratios[0], median, sum/float64(len(ratios)), ratios[len(ratios)-1], late, slack)
		// The median of n draws of U(0.8, 1.2) has sd about 0.2/√n; above,
		// the slack on the smallest cap besides.
		tol := 4 * 0.2 / math.Sqrt(float64(len(ratios)))
		if hi := tol + float64(slack)/float64(b.Initial); median < 1-tol || median > 1+hi {
			t.Errorf("%s: median gap ÷ cap %.3f, want 1 (−%.3f, +%.3f) as modelled", c.spec, median, tol, hi)
		}
		if late > len(ratios)/10 {
			t.Errorf("%s: %d of %d gaps over 1.2 × cap + %v", c.spec, late, len(ratios), slack)
		}
	}
}

// TestGRPCGoAttempts: grpc-go cuts maxAttempts 8 to 5, as the export's
// note says, unless the client sets the dial option the note names.
func TestGRPCGoAttempts(t *testing.T) {
	cfg, b := config(t, "exponential(initial=5ms, factor=1, max=5ms, attempts=8, jitter=grpc)")
	note := export.GRPCNote(b, export.GRPCOptions{})
	if !strings.Contains(note, "grpc.WithMaxCallAttempts(8)") {
		t.Fatalf("note %q names no grpc.WithMaxCallAttempts(8)", note)
	}
	if at := calls(t, cfg, 1)[0]; len(at) != 5 {
		t.Errorf("without the option: %d attempts, want 5", len(at))
	}
	if at := calls(t, cfg, 1, grpc.WithMaxCallAttempts(8))[0]; len(at) != 8 {
		t.Errorf("with grpc.WithMaxCallAttempts(8): %d attempts, want 8", len(at))
	}
}

// TestGRPCMethodName: a policy for pkg.Svc/Method retries that method;
// one for another method of the service does not retry it.
func TestGRPCMethodName(t *testing.T) {
	var buf bytes.Buffer
	b := backoff.Backoff{Kind: backoff.Exponential, Initial: 5 * time.Millisecond, Factor: 1, Max: 5 * time.Millisecond, Attempts: 3, Jitter: backoff.GRPC}
	if err := export.GRPC(&buf, b, export.GRPCOptions{Service: "grpc.health.v1.Health/Watch"}); err != nil {
		t.Fatal(err)
	}
	if at := calls(t, buf.String(), 1)[0]; len(at) != 1 {
		t.Errorf("a policy for Watch: Check made %d attempts, want 1", len(at))
	}
	cfg, _ := config(t, "exponential(initial=5ms, factor=1, max=5ms, attempts=3, jitter=grpc)")
	if at := calls(t, cfg, 1)[0]; len(at) != 3 {
		t.Errorf("a policy for %s: Check made %d attempts, want 3", method, len(at))
	}
}
