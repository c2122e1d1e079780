package backoff

import (
	"fmt"
	"strings"
)

// GRPCClient is how one gRPC implementation times the retries of a
// service config's retryPolicy. Every one waits a capped base wait
// c = min(initialBackoff·backoffMultiplier^(n−1), maxBackoff) before
// the n-th retry and spreads it by its Jitter: gRFC A6 said U(0, c)
// until its 2024 revision (grpc/proposal#452) made it c·U(0.8, 1.2),
// which grpc-go (PR #7869), grpc-java (PR #11858) and grpc-node from
// @grpc/grpc-js 1.14.0 on do (read in its retrying-call.js and measured
// on loopback, export/grpcrun); @grpc/grpc-js 1.13 and earlier wait
// U(0, c), the client "node-1.13".
type GRPCClient struct {
	// Name is the --grpc-client value: go, java, node or node-1.13.
	Name string
	// Library names the implementation.
	Library string
	// Jitter spreads the capped wait as the client does.
	Jitter Jitter
	// RaiseAttempts is the client's setting that lets a call make more
	// than GRPCDefaultAttempts attempts, with %d for the number.
	RaiseAttempts string
}

// GRPCDefaultAttempts is the most attempts a gRPC client makes unless
// its RaiseAttempts setting says more: a service config's larger
// maxAttempts is cut to it.
const GRPCDefaultAttempts = 5

// GRPCClients are the clients pollfit models, the default first.
var GRPCClients = []GRPCClient{
	{"go", "grpc-go", GRPC, "the dial option grpc.WithMaxCallAttempts(%d)"},
	{"java", "grpc-java", GRPC, "ManagedChannelBuilder.maxRetryAttempts(%d)"},
	{"node", "grpc-node (@grpc/grpc-js 1.14 or later)", GRPC, `the channel option "grpc-node.retry_max_attempts_limit": %d`},
	{"node-1.13", "grpc-node (@grpc/grpc-js 1.13 or earlier)", Jitter{Kind: Full}, `the channel option "grpc-node.retry_max_attempts_limit": %d`},
}

// GRPCClientNamed is the client called name ("" for the default, go).
func GRPCClientNamed(name string) (GRPCClient, error) {
	if name == "" {
		return GRPCClients[0], nil
	}
	var names []string
	for _, c := range GRPCClients {
		if c.Name == name {
			return c, nil
		}
		names = append(names, c.Name)
	}
	return GRPCClient{}, fmt.Errorf("gRPC client %q: want %s", name, strings.Join(names, ", "))
}

// WaitRule says how the client spreads the capped wait c.
func (c GRPCClient) WaitRule() string {
	if c.Jitter.Kind == Full {
		return "U(0, cap)"
	}
	return "cap × U(0.8, 1.2)"
}
