package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
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

// stopGrace is how long onSignal waits, after cancelling the context,
// for the command to return before it exits anyway.
const stopGrace = 3 * time.Second

// interrupted is set once a signal has arrived: writes to output files
// fail from then on (see stopWriter), so a long write stops at once.
var interrupted atomic.Bool

// errInterrupted is the write error after a signal.
var errInterrupted = fmt.Errorf("interrupted: %w", context.Canceled)

// stopWriter fails every write once a signal has arrived.
type stopWriter struct{ w io.Writer }

func (s stopWriter) Write(p []byte) (int, error) {
	if interrupted.Load() {
		return 0, errInterrupted
	}
	return s.w.Write(p)
}

// onSignal cancels the context on the first SIGINT or SIGTERM, removes
// the temporary files and says so; every long operation watches the
// context and returns soon after, and main exits 130 or 143 (the code
// stop returns). A command still running stopGrace later, or a second
// signal, ends the process there with that code.
func onSignal(stderr io.Writer, exit func(int)) (context.Context, func() int) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var code atomic.Int32
	printed := make(chan struct{}) // closed once the message is out
	go func() {
		sig, ok := <-ch
		if !ok {
			return
		}
		code.Store(int32(exitCode(sig)))
		interrupted.Store(true)
		cancel()
		temps.Lock()
		temps.closed = true // no new temporary file
		for name := range temps.names {
			os.Remove(name)
		}
		temps.Unlock()
		fmt.Fprintf(stderr, "pollfit: stopped by %s; unfinished output files were removed\n", signalName(sig))
		close(printed)
		select {
		case <-ch: // a second signal
		case <-time.After(stopGrace):
		}
		exit(int(code.Load()))
	}()
	return ctx, func() int {
		signal.Stop(ch)
		c := int(code.Load())
		if c != 0 {
			<-printed // the command stopped on the signal: let it be said first
		}
		cancel()
		return c
	}
}
