package main

import (
	"flag"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar and testdata/golden")

// testBuildInfo is the build every test's pollfit reports, so that
// output carrying the version (--version, --json's pollfit_version, the
// report's footer) is the same whatever built the test binary.
var testBuildInfo = debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-test"},
	Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}}

// TestMain puts two commands on PATH, both this test binary: pollfit
// (run, for the scripts) and pollfit-main (main itself, with its signal
// handling, for the tests that signal the binary as shipped; see
// shippedPollfit).
func TestMain(m *testing.M) {
	readBuildInfo = func() (*debug.BuildInfo, bool) { return &testBuildInfo, true }
	testscript.Main(m, map[string]func(){
		"pollfit":      func() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) },
		"pollfit-main": main,
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script. Each
// script can read the repository's sample logs from $TESTDATA.
func TestScripts(t *testing.T) {
	td, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TESTDATA", td)
			return nil
		},
	})
}
