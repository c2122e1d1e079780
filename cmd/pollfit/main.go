//go:generate go test -run ^TestDoc$ -fixdocs

package main

import (
	"os"
)

func main() {
	ctx, stop := onSignal(os.Stderr, os.Exit)
	code := runContext(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if sig := stop(); sig != 0 {
		code = sig // stopped by SIGINT or SIGTERM: 130 or 143
	}
	os.Exit(code)
}
