// Package testenv says which of pollfit's tests run where.
//
// The README's test command, go test ./..., runs every package's tests
// (under a minute on a 2-core machine once built). The long
// statistical tests (bootstrap coverage, brute force over many logs,
// large mixes, generated code compiled by outside toolchains) also run
// when POLLFIT_LONG_TESTS is set to 1, as .ci/run sets it, so CI runs
// every test there is.
package testenv

import (
	"os"
	"testing"
)

// LongVar is the environment variable that turns the long tests on.
const LongVar = "POLLFIT_LONG_TESTS"

// Long reports whether the long tests run: POLLFIT_LONG_TESTS=1 and not
// go test -short.
func Long() bool { return os.Getenv(LongVar) == "1" && !testing.Short() }

// SkipUnlessLong skips t unless the long tests run, saying how to run it.
func SkipUnlessLong(t testing.TB) {
	t.Helper()
	if !Long() {
		t.Skipf("long test: set %s=1 to run it (.ci/run does)", LongVar)
	}
}
