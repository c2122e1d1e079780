package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// stageLine shows on one line of a terminal which stage a long fit is
// in and how long it has run, refreshed every second from one second on;
// nil (not a terminal, or --quiet) shows nothing.
type stageLine struct {
	w     io.Writer
	cmd   string
	start time.Time
	mu    sync.Mutex
	stage string
	shown bool
	done  chan struct{}
	wg    sync.WaitGroup
}

// newStageLine starts the line for cmd on e's stderr, or returns nil
// when stderr is not a terminal or quiet is set.
func newStageLine(e *env, cmd string, quiet bool) *stageLine {
	if quiet || !isTerminal(e.stderr) {
		return nil
	}
	l := &stageLine{w: e.stderr, cmd: cmd, start: time.Now(), done: make(chan struct{})}
	l.wg.Add(1)
	go l.tick()
	return l
}

// set is fit.StudyOptions.Progress: the stage that starts (nothing on
// a nil line).
func (l *stageLine) set(stage string) {
	if l == nil {
		return
	}
	l.mu.Lock()
	l.stage = stage
	l.mu.Unlock()
	l.show()
}

func (l *stageLine) tick() {
	defer l.wg.Done()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-l.done:
			return
		case <-t.C:
			l.show()
		}
	}
}

// show redraws the line once the work has run a second.
func (l *stageLine) show() {
	l.mu.Lock()
	defer l.mu.Unlock()
	el := time.Since(l.start)
	if el < time.Second || l.stage == "" {
		return
	}
	l.shown = true
	fmt.Fprintf(l.w, "\r%s: %s, %d s\033[K", l.cmd, l.stage, int(el/time.Second))
}

// stop ends the line and clears it.
func (l *stageLine) stop() {
	if l == nil {
		return
	}
	close(l.done)
	l.wg.Wait()
	if l.shown {
		fmt.Fprint(l.w, "\r\033[K")
	}
}

// progress is the line's setter for fit.StudyOptions.Progress, nil for
// no line.
func (l *stageLine) progress() func(string) {
	if l == nil {
		return nil
	}
	return l.set
}
