package main

import (
	"bytes"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersion checks the version's form for a release, a development
// build with and without changes, and a build with no module
// information, each worked out from the debug.BuildInfo given.
func TestVersion(t *testing.T) {
	defer func(f func() (*debug.BuildInfo, bool)) { readBuildInfo = f }(readBuildInfo)
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "968b500c1a2f77aa"}}
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, "v0.3.0"},
		{&debug.BuildInfo{Settings: rev}, "(devel) 968b500c1a2f"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: append(rev, debug.BuildSetting{Key: "vcs.modified", Value: "true"})}, "(devel) 968b500c1a2f+changes"},
		{nil, "unknown"},
	} {
		readBuildInfo = func() (*debug.BuildInfo, bool) { return c.info, c.info != nil }
		if got := version(); got != c.want {
			t.Errorf("version() with %+v = %q, want %q", c.info, got, c.want)
		}
	}
}

// TestVersionEverywhere checks that --version, the first key of a --json
// document and the report's footer say the same version: the one the
// tests pin in TestMain.
func TestVersionEverywhere(t *testing.T) {
	want := "v0.0.0-test 0123456789ab"
	if got := strings.TrimSpace(string(mustRun(t, "--version"))); got != "pollfit "+want {
		t.Errorf("pollfit --version = %q, want %q", got, "pollfit "+want)
	}
	out := mustRun(t, "eval", "--json", "-s", "1s until 3s", "../../testdata/deadline.csv")
	if !bytes.HasPrefix(out, []byte("{\n  \"pollfit_version\": \""+want+"\",\n")) {
		t.Errorf("eval --json does not open with the version:\n%s", out)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if doc["pollfit_version"] != want {
		t.Errorf("pollfit_version = %v, want %q", doc["pollfit_version"], want)
	}
}

// TestWriteJSON checks that the version goes first into an object, an
// empty one included, and that an array is written as it is.
func TestWriteJSON(t *testing.T) {
	v := version()
	for _, c := range []struct {
		in   any
		want string
	}{
		{struct{}{}, "{\n  \"pollfit_version\": \"" + v + "\"\n}\n"},
		{map[string]int{"a": 1}, "{\n  \"pollfit_version\": \"" + v + "\",\n  \"a\": 1\n}\n"},
		{[]int{1, 2}, "[\n  1,\n  2\n]\n"},
	} {
		var b bytes.Buffer
		if err := writeJSON(&b, c.in); err != nil {
			t.Fatal(err)
		}
		if b.String() != c.want {
			t.Errorf("writeJSON(%v) = %q, want %q", c.in, b.String(), c.want)
		}
	}
}
