package export

import (
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// TestReadJSONLimited: ReadJSON reads through a limited reader: an
// endless input is refused after MaxDocument bytes, having allocated a
// few times that.
func TestReadJSONLimited(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, _, err := ReadJSON(endless{})
	runtime.ReadMemStats(&after)
	if err == nil || err.Error() != "longer than the 2097152 bytes (2 MiB) pollfit reads for a schedule" {
		t.Errorf("endless input: %v", err)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 16<<20 {
		t.Errorf("endless input: allocated %d MB, want at most 16", grown>>20)
	}
}

// endless reads spaces for ever, as /dev/zero reads zeros.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

var _ io.Reader = endless{}

// TestReadJSONCeilings: a document's lists are capped before their
// elements are read, and a schedule that the language could not read
// back (over schedule.MaxText as text) is refused, as eval -s @file
// would refuse its export.
func TestReadJSONCeilings(t *testing.T) {
	long := `{"version": 1, "clauses": [` + strings.Repeat("0,", maxList) + `0]}`
	_, _, err := ReadJSON(strings.NewReader(long))
	if want := "clauses: 131073 elements, more than the 131072 a schedule may hold"; err == nil || err.Error() != want {
		t.Errorf("long list: %v, want %q", err, want)
	}
	asks := make([]string, 40000)
	for i := range asks {
		asks[i] = fmt.Sprint(i + 1)
	}
	doc := `{"version": 1, "clauses": [{"kind": "at", "at_ms": [` + strings.Join(asks, ",") + `]}]}`
	_, _, err = ReadJSON(strings.NewReader(doc))
	// "at 1ms, 2ms, ..., 40s": the 30,000 asks from 10001ms on take at
	// least 9 bytes each ("10.001s, "), 270,000 in all: over 262144.
	if want := "1 clauses, 0 aligned and 40000 explicit asks take "; err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "more than the 262144 pollfit reads") {
		t.Errorf("long schedule: %v, want %q", err, want)
	}
}
