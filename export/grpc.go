package export

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
)

// GRPCOptions are the settings of GRPC. The zero value writes a policy
// for every method of every service, retried on UNAVAILABLE, timed as
// grpc-go times it.
type GRPCOptions struct {
	// Service names what the policy is for: "" for every service, a
	// service ("pkg.Svc") for all its methods, or one method
	// ("pkg.Svc/Method", also "/pkg.Svc/Method").
	Service string
	// Codes are the status codes to retry on, gRPC's names of them
	// (default UNAVAILABLE).
	Codes []string
	// Client names the client that runs the policy (backoff.GRPCClients;
	// "" for go): the strategy must wait as it does.
	Client string
}

// GRPC writes b as a gRPC service config whose retryPolicy makes the
// same attempts: a client waits min(initialBackoff·backoffMultiplier^(n−1),
// maxBackoff) spread by its jitter before the n-th retry
// (backoff.GRPCClient), which is b when b is exponential with that
// jitter, a cap (Max) and a limit on attempts (the first call included).
// Anything else is refused with what to change; GRPCNote says what the
// client must set besides.
func GRPC(w io.Writer, b backoff.Backoff, opt GRPCOptions) error {
	client, err := backoff.GRPCClientNamed(opt.Client)
	if err != nil {
		return fmt.Errorf("grpc: %w", err)
	}
	if err := grpcCheck(b, client); err != nil {
		return err
	}
	codes := opt.Codes
	if len(codes) == 0 {
		codes = []string{"UNAVAILABLE"}
	}
	if err := grpcCheckCodes(codes); err != nil {
		return err
	}
	name, err := grpcName(opt.Service)
	if err != nil {
		return err
	}
	type policy struct {
		MaxAttempts int      `json:"maxAttempts"`
		Initial     string   `json:"initialBackoff"`
		Max         string   `json:"maxBackoff"`
		Multiplier  float64  `json:"backoffMultiplier"`
		Codes       []string `json:"retryableStatusCodes"`
	}
	type method struct {
		Name        []grpcMethodName `json:"name"`
		RetryPolicy policy           `json:"retryPolicy"`
	}
	factor := b.Factor
	if factor == 0 {
		factor = 2
	}
	doc := struct {
		MethodConfig []method `json:"methodConfig"`
	}{[]method{{Name: []grpcMethodName{name}, RetryPolicy: policy{b.Attempts, grpcDuration(b.Initial), grpcDuration(b.Max), factor, codes}}}}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// GRPCNote is what the client must be told beyond the config, or "":
// above backoff.GRPCDefaultAttempts attempts, that it cuts maxAttempts
// to that unless its setting raises the limit.
func GRPCNote(b backoff.Backoff, opt GRPCOptions) string {
	client, err := backoff.GRPCClientNamed(opt.Client)
	if err != nil || b.Attempts <= backoff.GRPCDefaultAttempts {
		return ""
	}
	return fmt.Sprintf("grpc: maxAttempts %d is over gRPC's default limit of %d attempts, to which %s cuts it unless the client sets %s",
		b.Attempts, backoff.GRPCDefaultAttempts, client.Library, fmt.Sprintf(client.RaiseAttempts, b.Attempts))
}

// grpcCheck says why b is not a retry policy as client runs it.
func grpcCheck(b backoff.Backoff, client backoff.GRPCClient) error {
	jitter := "jitter=" + client.Jitter.String()
	switch {
	case b.Kind != backoff.Exponential:
		return fmt.Errorf("grpc: a retry policy backs off exponentially, not %s: give exponential(initial=..., factor=..., max=..., attempts=..., %s)", b.Kind, jitter)
	case b.Jitter != client.Jitter:
		fix := "give " + jitter
		if others := grpcClientsWaiting(b.Jitter); others != "" {
			fix += ", or --grpc-client " + others
		}
		return fmt.Errorf("grpc: %s waits %s before a retry, not jitter=%s: %s", client.Library, client.WaitRule(), b.Jitter, fix)
	case b.Max <= 0:
		return fmt.Errorf("grpc: a retry policy needs maxBackoff: add max=...")
	case b.Attempts < 2:
		return fmt.Errorf("grpc: a retry policy needs 2 or more attempts (the first call included): add attempts=N")
	case b.Elapsed > 0 || (b.Multiplier != 0 && b.Multiplier != 1):
		return fmt.Errorf("grpc: a retry policy has no elapsed-time limit or multiplier: drop them")
	}
	return nil
}

// grpcClientsWaiting names the clients that wait with j ("go or java"),
// or is "".
func grpcClientsWaiting(j backoff.Jitter) string {
	var names []string
	for _, c := range backoff.GRPCClients {
		if c.Jitter == j {
			names = append(names, c.Name)
		}
	}
	if len(names) > 1 {
		return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
	}
	return strings.Join(names, "")
}

// grpcDuration writes d as a protobuf JSON duration: seconds with up to
// nine decimals and an "s".
func grpcDuration(d time.Duration) string {
	s := strconv.FormatFloat(math.Round(d.Seconds()*1e9)/1e9, 'f', -1, 64)
	return s + "s"
}
