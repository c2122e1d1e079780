//go:generate go test -run ^TestDoc$ -fixdocs

package main

import (
	"os"
	"runtime/debug"
)

// heapLimit is the soft ceiling main puts on the Go heap unless
// GOMEMLIMIT is set: the collector runs more often near it rather than
// letting the heap grow to twice what is live (a --by fit of three
// groups at once peaked at 210 MB of RSS with the default GOGC alone).
// It is soft: a run that needs more gets it.
const heapLimit = 150 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(heapLimit)
	}
	ctx, stop := onSignal(os.Stderr, os.Exit)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if sig := stop(); sig != 0 {
		code = sig // stopped by SIGINT or SIGTERM: 130 or 143
	}
	os.Exit(code)
}
