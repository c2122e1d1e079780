//go:generate go test -run ^TestDoc$ -fixdocs

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
