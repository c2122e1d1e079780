package grpcrun

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"
)

// grpcJSInstall is where .ci/run installs grpc-node from npm: today's,
// and the last release that waited U(0, cap), 1.13.
const grpcJSInstall = "npm install --prefix ~/.cache/pollfit-grpcjs @grpc/grpc-js@1 @grpc/proto-loader; npm install --prefix ~/.cache/pollfit-grpcjs113 @grpc/grpc-js@1.13 @grpc/proto-loader"

// grpcJS returns node and the node_modules folder under ~/.cache/cache
// holding @grpc/grpc-js and @grpc/proto-loader, or skips the test.
func grpcJS(t *testing.T, cache string) (node, modules string) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("grpcrun: node is not on PATH (apt-get install nodejs); skipping the grpc-node run")
	}
	home, _ := os.UserHomeDir()
	modules = filepath.Join(home, ".cache", cache, "node_modules")
	for _, p := range []string{"@grpc/grpc-js", "@grpc/proto-loader"} {
		if _, err := os.Stat(filepath.Join(modules, p, "package.json")); err != nil {
			t.Skipf("grpcrun: %s is not in ~/.cache/%s; skipping the grpc-node run (install it from npm: %s)", p, cache, grpcJSInstall)
		}
	}
	return node, modules
}

// healthProto is the part of grpc.health.v1 the node client calls.
const healthProto = `syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}
service Health { rpc Check(HealthCheckRequest) returns (HealthCheckResponse); }
`

// nodeClient makes argv[3] calls, one after another, through a grpc-js
// channel with the service config in argv[4], each of which must fail at
// last with UNAVAILABLE.
const nodeClient = `const [modules, addr, n, cfg] = process.argv.slice(2);
const grpc = require(modules + "/@grpc/grpc-js");
const loader = require(modules + "/@grpc/proto-loader");
const def = loader.loadSync(__dirname + "/health.proto", { keepCase: true });
const Health = grpc.loadPackageDefinition(def).grpc.health.v1.Health;
const client = new Health(addr, grpc.credentials.createInsecure(), { "grpc.service_config": cfg });
(async () => {
  for (let i = 0; i < Number(n); i++) {
    await new Promise((done) => client.Check({ service: String(i) }, { deadline: Date.now() + 20000 }, (err) => {
      if (!err || err.code !== grpc.status.UNAVAILABLE) {
        console.error("call " + i + ": " + (err ? err.message : "succeeded") + ", want UNAVAILABLE");
        process.exit(1);
      }
      done();
    }));
  }
  client.close();
})();
`

// nodeSlack is what a gap may exceed its wait by under Node.js: the
// event loop and its timers add more than Go's do.
const nodeSlack = 20 * time.Millisecond

// TestGRPCNodeWaits: grpc-node (@grpc/grpc-js 1.14 on) waits
// cap × U(0.8, 1.2) before a retry, as pollfit models --grpc-client node,
// and @grpc/grpc-js 1.13 waited U(0, cap), pollfit's node-1.13; each
// makes the policy's attempts. A gap between attempts is the wait and a
// little more, never less, so gap ÷ cap is at least the rule's low end;
// the median is near the rule's (1, or ½); nine in ten are at most its
// high end plus the slack.
func TestGRPCNodeWaits(t *testing.T) {
	for _, c := range []struct {
		client, cache, jitter string
		lo, median, hi        float64
	}{
		{"node", "pollfit-grpcjs", "grpc", 0.8, 1, 1.2},
		{"node-1.13", "pollfit-grpcjs113", "full", 0, 0.5, 1},
	} {
		t.Run(c.client, func(t *testing.T) {
			node, modules := grpcJS(t, c.cache)
			spec := "exponential(initial=150ms, factor=1, max=150ms, attempts=5, jitter=" + c.jitter + ")"
			ratios := nodeGaps(t, node, modules, spec, c.client, 16)
			slices.Sort(ratios)
			median, p90 := ratios[len(ratios)/2], ratios[len(ratios)*9/10]
			t.Logf("%s under %s: %d gaps, gap ÷ cap min %.3f median %.3f p90 %.3f max %.3f (model: U(%g, %g))",
				spec, c.client, len(ratios), ratios[0], median, p90, ratios[len(ratios)-1], c.lo, c.hi)
			slack := float64(nodeSlack) / float64(150*time.Millisecond)
			// The median of m draws of U(lo, hi) has sd (hi−lo)/(2√m).
			tol := 4 * (c.hi - c.lo) / (2 * math.Sqrt(float64(len(ratios))))
			if ratios[0] < c.lo-0.01 {
				t.Errorf("a gap of %.3f × cap, under the rule's %.2f", ratios[0], c.lo)
			}
			if median < c.median-tol || median > c.median+tol+slack {
				t.Errorf("median gap ÷ cap %.3f, want %g (−%.3f, +%.3f) as modelled", median, c.median, tol, tol+slack)
			}
			if p90 > c.hi+slack {
				t.Errorf("the 90th percentile gap is %.3f × cap, over the rule's %.2f plus the slack", p90, c.hi)
			}
		})
	}
}

// nodeGaps runs calls calls through a grpc-js channel with the service
// config pollfit writes for spec and client, each failing with
// UNAVAILABLE after all its attempts, and returns every gap between
// attempts ÷ the cap.
func nodeGaps(t *testing.T, node, modules, spec, client string, calls int) []float64 {
	t.Helper()
	cfg, b := configFor(t, spec, client)
	dir := t.TempDir()
	for name, src := range map[string]string{"health.proto": healthProto, "client.js": nodeClient} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	u, addr := serve(t)
	out, err := exec.Command(node, filepath.Join(dir, "client.js"), modules, addr, strconv.Itoa(calls), cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("node client: %v\n%s", err, out)
	}
	var ratios []float64
	for i := range calls {
		at := u.of(fmt.Sprint(i))
		if len(at) != b.Attempts {
			t.Fatalf("call %d made %d attempts, want %d", i, len(at), b.Attempts)
		}
		for k := 1; k < len(at); k++ {
			ratios = append(ratios, float64(at[k].Sub(at[k-1]))/float64(b.Max))
		}
	}
	return ratios
}
