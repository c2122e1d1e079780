package export

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
)

// GRPCMaxAttempts is the most attempts a gRPC client makes by default:
// a service config's larger maxAttempts is cut to it unless the client
// raises maxCallAttempts.
const GRPCMaxAttempts = 5

// GRPCOptions are the settings of GRPC. The zero value writes a policy
// for every method of every service, retried on UNAVAILABLE.
type GRPCOptions struct {
	// Service names the service the policy is for ("" for all).
	Service string
	// Codes are the status codes to retry on (default UNAVAILABLE).
	Codes []string
}

// GRPC writes b as a gRPC service config whose retryPolicy makes the
// same attempts: gRPC waits U(0, min(initialBackoff·backoffMultiplier^(n−1),
// maxBackoff)) before the n-th retry, which is b when b is exponential
// with full jitter, a cap (Max) and a limit on attempts (the first call
// included). Anything else is refused with what to change.
func GRPC(w io.Writer, b backoff.Backoff, opt GRPCOptions) error {
	if err := grpcCheck(b); err != nil {
		return err
	}
	codes := opt.Codes
	if len(codes) == 0 {
		codes = []string{"UNAVAILABLE"}
	}
	name := map[string]string{}
	if opt.Service != "" {
		name["service"] = opt.Service
	}
	type policy struct {
		MaxAttempts int      `json:"maxAttempts"`
		Initial     string   `json:"initialBackoff"`
		Max         string   `json:"maxBackoff"`
		Multiplier  float64  `json:"backoffMultiplier"`
		Codes       []string `json:"retryableStatusCodes"`
	}
	type method struct {
		Name        []map[string]string `json:"name"`
		RetryPolicy policy              `json:"retryPolicy"`
	}
	factor := b.Factor
	if factor == 0 {
		factor = 2
	}
	doc := struct {
		MethodConfig []method `json:"methodConfig"`
	}{[]method{{Name: []map[string]string{name}, RetryPolicy: policy{b.Attempts, grpcDuration(b.Initial), grpcDuration(b.Max), factor, codes}}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// grpcCheck says why b is not a gRPC retry policy.
func grpcCheck(b backoff.Backoff) error {
	switch {
	case b.Kind != backoff.Exponential:
		return fmt.Errorf("grpc: a retry policy backs off exponentially, not %s: give exponential(initial=..., factor=..., max=..., attempts=..., jitter=full)", b.Kind)
	case b.Jitter.Kind != backoff.Full:
		return fmt.Errorf("grpc: a retry policy always uses full jitter: add jitter=full")
	case b.Max <= 0:
		return fmt.Errorf("grpc: a retry policy needs maxBackoff: add max=...")
	case b.Attempts < 2:
		return fmt.Errorf("grpc: a retry policy needs 2 or more attempts (the first call included): add attempts=N")
	case b.Elapsed > 0 || (b.Multiplier != 0 && b.Multiplier != 1):
		return fmt.Errorf("grpc: a retry policy has no elapsed-time limit or multiplier: drop them")
	}
	return nil
}

// grpcDuration writes d as a protobuf JSON duration: seconds with up to
// nine decimals and an "s".
func grpcDuration(d time.Duration) string {
	s := strconv.FormatFloat(math.Round(d.Seconds()*1e9)/1e9, 'f', -1, 64)
	return s + "s"
}
