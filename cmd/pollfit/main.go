// Command pollfit fits the best polling schedule from observed settle times.
//
// Run "pollfit help" for the list of commands and "pollfit CMD --help" for
// the flags and examples of one. The library packages behind it are
// github.com/pollfit/pollfit/estimate (logs and settle-time distributions),
// github.com/pollfit/pollfit/fit (schedules, replay and the optimiser) and
// github.com/pollfit/pollfit/export (DSL, JSON and Go output).
package main

import (
	"os"
)

func main() {
	_, stop := onSignal(os.Stderr, os.Exit)
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
