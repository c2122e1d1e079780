package main

import (
	"bytes"
	"testing"
	"time"
)

// TestStageLine: nothing on a stderr that is not a terminal; on one, the
// stage and the whole seconds run, drawn over the line, and cleared at
// the end.
func TestStageLine(t *testing.T) {
	var buf bytes.Buffer
	if l := newStageLine(&env{stderr: &buf}, "fit", false); l != nil {
		t.Fatal("a stage line on a buffer, which is no terminal")
	}
	l := &stageLine{w: &buf, cmd: "fit", start: time.Now().Add(-2500 * time.Millisecond), done: make(chan struct{})}
	l.set("the limit")
	l.stop()
	if got, want := buf.String(), "\rfit: the limit, 2 s\033[K\r\033[K"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	buf.Reset()
	l = &stageLine{w: &buf, cmd: "fit", start: time.Now(), done: make(chan struct{})}
	l.set("fitting") // under a second in: not shown, nothing to clear
	l.stop()
	if buf.Len() != 0 {
		t.Errorf("drawn within the first second: %q", buf.String())
	}
}
