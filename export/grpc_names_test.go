package export

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
)

var grpcTestPolicy = backoff.Backoff{Kind: backoff.Exponential, Initial: time.Second, Factor: 2, Max: 30 * time.Second,
	Attempts: 4, Jitter: backoff.GRPC}

// Status codes are gRPC's names as grpc-go's service config parser takes
// them: upper case, exactly; anything else is refused with the name to
// write, which the parser would otherwise reject as an invalid code.
func TestGRPCCodes(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{"UNAVAILABLE", ""},
		{"RESOURCE_EXHAUSTED", ""},
		{"unavailable", `status code "unavailable": gRPC takes its name, UNAVAILABLE, exactly: write UNAVAILABLE`},
		{"Unavailable", "write UNAVAILABLE"},
		{"deadline-exceeded", "write DEADLINE_EXCEEDED"},
		{"14", "write UNAVAILABLE"},
		{"4", "write DEADLINE_EXCEEDED"},
		{"17", `status code "17" is not one of gRPC's: want one of CANCELLED, UNKNOWN,`},
		{"NOT_A_CODE", `status code "NOT_A_CODE" is not one of gRPC's`},
		{"OK", "OK is a success and never retried"},
		{"0", "OK is a success"},
	} {
		err := GRPC(&bytes.Buffer{}, grpcTestPolicy, GRPCOptions{Codes: []string{"UNAVAILABLE", c.code}})
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("code %q: error %v, want %q", c.code, err, c.want)
		}
	}
	// The 17 names, numbered as in grpc's codes package.
	if len(GRPCCodes) != 17 || GRPCCodes[14] != "UNAVAILABLE" || GRPCCodes[4] != "DEADLINE_EXCEEDED" || GRPCCodes[16] != "UNAUTHENTICATED" {
		t.Errorf("codes %v", GRPCCodes)
	}
}

// --service takes a service or one method of it; a method is written as
// the config's "method", which a client matches against the full method
// name /service/method.
func TestGRPCServiceMethod(t *testing.T) {
	for _, c := range []struct {
		in, service, method, err string
	}{
		{"", "", "", ""},
		{"payments.v1.Status", "payments.v1.Status", "", ""},
		{"payments.v1.Status/Get", "payments.v1.Status", "Get", ""},
		{"/payments.v1.Status/Get", "payments.v1.Status", "Get", ""},
		{"Status/Get_2", "Status", "Get_2", ""},
		{"payments.v1.Status/", "", "", "the method after the / must be one name"},
		{"payments.v1.Status/Get/More", "", "", "the method after the / must be one name"},
		{"/Get", "", "", `service "/Get": want a full service name`},
		{"payments..Status", "", "", "want a full service name"},
		{"payments Status", "", "", "want a full service name"},
	} {
		var buf bytes.Buffer
		err := GRPC(&buf, grpcTestPolicy, GRPCOptions{Service: c.in})
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.in, err, c.err)
			}
			continue
		}
		var doc grpcPolicy
		if err != nil || json.Unmarshal(buf.Bytes(), &doc) != nil {
			t.Fatalf("%q: %v\n%s", c.in, err, buf.String())
		}
		name := doc.MethodConfig[0].Name[0]
		if name["service"] != c.service || name["method"] != c.method || len(name) != len(strings.Fields(c.service+" "+c.method)) {
			t.Errorf("%q: name %v, want service %q method %q", c.in, name, c.service, c.method)
		}
	}
}

// Above 5 attempts the note says that clients cut maxAttempts to 5 and
// names each client's setting that raises the limit.
func TestGRPCNote(t *testing.T) {
	b := grpcTestPolicy
	if note := GRPCNote(b, GRPCOptions{}); note != "" {
		t.Errorf("4 attempts: note %q, want none", note)
	}
	b.Attempts = 5
	if note := GRPCNote(b, GRPCOptions{}); note != "" {
		t.Errorf("5 attempts: note %q, want none", note)
	}
	b.Attempts = 8
	for client, want := range map[string]string{
		"":     "grpc: maxAttempts 8 is over gRPC's default limit of 5 attempts, to which grpc-go cuts it unless the client sets the dial option grpc.WithMaxCallAttempts(8)",
		"java": "grpc-java cuts it unless the client sets ManagedChannelBuilder.maxRetryAttempts(8)",
		"node": `the channel option "grpc-node.retry_max_attempts_limit": 8`,
	} {
		if note := GRPCNote(b, GRPCOptions{Client: client}); !strings.Contains(note, want) {
			t.Errorf("client %q: note %q, want %q", client, note, want)
		}
	}
	var buf bytes.Buffer
	if err := GRPC(&buf, b, GRPCOptions{}); err != nil || !strings.Contains(buf.String(), `"maxAttempts": 8,`) {
		t.Errorf("8 attempts: %v\n%s", err, buf.String())
	}
}
