package backoff

import (
	"strings"
	"testing"
)

// The clients: go by default; go and java with the revised A6 rule,
// cap × U(0.8, 1.2), as node does from @grpc/grpc-js 1.14; node-1.13
// with full jitter.
func TestGRPCClientNamed(t *testing.T) {
	for name, want := range map[string]Jitter{"": {Kind: AfterCap, Factor: 0.2}, "go": {Kind: AfterCap, Factor: 0.2},
		"java": {Kind: AfterCap, Factor: 0.2}, "node": {Kind: AfterCap, Factor: 0.2}, "node-1.13": {Kind: Full}} {
		c, err := GRPCClientNamed(name)
		if err != nil || c.Jitter != want {
			t.Errorf("%q: %+v, %v; want jitter %v", name, c, err, want)
		}
	}
	if c, _ := GRPCClientNamed(""); c.Name != "go" || c.WaitRule() != "cap × U(0.8, 1.2)" {
		t.Errorf("default client %+v, rule %q", c, c.WaitRule())
	}
	if c, _ := GRPCClientNamed("node-1.13"); c.WaitRule() != "U(0, cap)" {
		t.Errorf("node-1.13's rule %q", c.WaitRule())
	}
	if _, err := GRPCClientNamed("Go"); err == nil || !strings.Contains(err.Error(), `gRPC client "Go": want go, java, node, node-1.13`) {
		t.Errorf("Go: %v", err)
	}
}
