package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// temps are the temporary files writeOutput has open, removed on every
// exit path: by writeOutput itself on success or error, and by
// onSignal when SIGINT or SIGTERM ends pollfit midway.
var temps = struct {
	sync.Mutex
	names  map[string]bool
	closed bool // a signal arrived: no more temporary files
}{names: map[string]bool{}}

// createTemp is os.CreateTemp, recording the file for onSignal. Once a
// signal has arrived it refuses, so no file escapes the clean-up.
func createTemp(dir, pattern string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	if temps.closed {
		return nil, fmt.Errorf("interrupted")
	}
	f, err := os.CreateTemp(dir, pattern)
	if err == nil {
		temps.names[f.Name()] = true
	}
	return f, err
}

// removeTemp removes a temporary file (a no-op once it is renamed) and
// forgets it.
func removeTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	os.Remove(name)
	delete(temps.names, name)
}

func signalName(sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	return sig.String()
}

// exitCode is the conventional exit code for a fatal signal: 128 + its
// number, 130 for SIGINT and 143 for SIGTERM.
func exitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}

// onSignal cancels the context on the first SIGINT or SIGTERM, removes
// the temporary files and exits 130 or 143. Commands that watch the
// context could stop sooner, but none has to: the process ends here
// either way, with no temporary file left behind.
func onSignal(stderr io.Writer, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig, ok := <-ch
		if !ok {
			return
		}
		cancel()
		temps.Lock() // held until exit: no new temporary file
		temps.closed = true
		for name := range temps.names {
			os.Remove(name)
		}
		fmt.Fprintf(stderr, "pollfit: stopped by %s; unfinished output files were removed\n", signalName(sig))
		exit(exitCode(sig))
	}()
	return ctx, func() { signal.Stop(ch); close(ch); cancel() }
}
