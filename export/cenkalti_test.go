package export

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestGeneratedBackOffWithCenkalti builds generated Go against the
// real github.com/cenkalti/backoff/v4 v4.3.0 and runs
// backoff.RetryNotifyWithTimer with a timer that moves a fake clock
// instead of sleeping; the operation starts with a fake sleep of Wait.
// An operation that always fails is called once per ask of a stopping
// schedule and the clock ends at the last ask; one that succeeds at
// call k is called k times; backoff.WithMaxRetries caps the calls; an
// operation that takes a while on the fake clock makes the asks a slow
// caller makes (slowAsks). Expected counts come from the schedule
// package's ask lists.
func TestGeneratedBackOffWithCenkalti(t *testing.T) {
	gotool := goTool(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.18\n\nrequire github.com/cenkalti/backoff/v4 v4.3.0\n"))
	writeFile(t, filepath.Join(dir, "go.sum"), []byte(
		"github.com/cenkalti/backoff/v4 v4.3.0 h1:MyRJ/UdXutAwSAT+s3wNd7MfTIcy71VQueUuFK343L8=\n"+
			"github.com/cenkalti/backoff/v4 v4.3.0/go.mod h1:Y3VNntkOUPxTVeUxJ/G5vcM//AlwfmyYozVcomhLiZE=\n"))
	created := int64(1_700_000_000_123_000_000)
	cases := cenkaltiCases
	var table strings.Builder
	for i, c := range cases {
		var src bytes.Buffer
		if err := Go(&src, mustParse(t, c.dsl), GoOptions{Var: fmt.Sprintf("S%d", i), VarOnly: i > 0}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "poll", fmt.Sprintf("s%d.go", i)), src.Bytes())
		fmt.Fprintf(&table, "\t{%q, poll.S%d, %d, %d, %d},\n", c.name, i, c.succeedAt, c.maxRetries, c.slow)
	}
	if out, err := goCommand(gotool, dir, "mod", "download", "github.com/cenkalti/backoff/v4"); err != nil {
		t.Skipf("cannot fetch github.com/cenkalti/backoff/v4 v4.3.0 (offline, cold module cache?): %v\n%s", err, out)
	}
	prog := strings.Replace(cenkaltiProgram, "\t// CASES\n", table.String(), 1)
	writeFile(t, filepath.Join(dir, "main.go"), []byte(strings.Replace(prog, "CREATED", fmt.Sprint(created), 1)))
	runGo(t, gotool, dir, "vet", "./...")
	out := strings.Split(strings.TrimSpace(string(runGo(t, gotool, dir, "run", "."))), "\n")
	if len(out) != len(cases) {
		t.Fatalf("program printed %d lines for %d cases:\n%s", len(out), len(cases), strings.Join(out, "\n"))
	}
	for i, c := range cases {
		if want := cenkaltiWant(t, c, created); out[i] != want {
			t.Errorf("got  %s\nwant %s", out[i], want)
		}
	}
}

// cenkaltiWant is the line the program should print for c, from the
// schedule package's ask list.
func cenkaltiWant(t *testing.T, c cenkaltiCase, created int64) string {
	s := mustParse(t, c.dsl)
	horizon := 24 * time.Hour
	if end, ok := s.End(); ok {
		horizon = end
	}
	asks, err := s.ItemAsks(created, horizon)
	if err != nil {
		t.Fatal(err)
	}
	asks = slowAsks(asks, c.slow)
	calls := len(asks)
	switch {
	case c.succeedAt > 0:
		calls = c.succeedAt
	case c.maxRetries > 0:
		calls = c.maxRetries + 1
	}
	return fmt.Sprintf("%s calls=%d elapsed=%v failed=%t", c.name, calls, asks[calls-1]+c.slow, c.succeedAt == 0)
}

// cenkaltiCase is a run of TestGeneratedBackOffWithCenkalti.
type cenkaltiCase struct {
	name       string
	dsl        string
	succeedAt  int           // 0: never
	maxRetries int           // 0: no backoff.WithMaxRetries
	slow       time.Duration // how long each call takes
}

var cenkaltiCases = []cenkaltiCase{
	{"seed4", seeds[3].dsl, 0, 0, 0},
	{"late_start", "at 5s 10s 20s", 0, 0, 0},
	{"aligned", "at 0s 1s, 2s until 2m, 5s until 5m, every 5m at +2s until 1h", 0, 0, 0},
	{"aligned_only", "every 1m at +0s +30s until 10m", 0, 0, 0},
	{"seed1", seeds[0].dsl, 20, 0, 0},
	{"seed3", seeds[2].dsl, 50, 0, 0},
	{"seed2_capped", seeds[1].dsl, 0, 3, 0},
	{"steady_slow", "at 0s 1s 2s 3s", 0, 0, 300 * time.Millisecond},
	{"seed4_slow", seeds[3].dsl, 0, 0, 1300 * time.Millisecond},
	{"seed1_slow", seeds[0].dsl, 12, 0, 300 * time.Millisecond},
}

const cenkaltiProgram = `package main

import (
	"errors"
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v4"

	"gentest/poll"
)

var cases = []struct {
	name       string
	s          poll.Schedule
	succeedAt  int
	maxRetries uint64
	slow       time.Duration
}{
	// CASES
}

// fakeTimer fires at once and moves the fake clock on by the wait.
type fakeTimer struct {
	now *time.Time
	c   chan time.Time
}

func (f *fakeTimer) Start(d time.Duration) { *f.now = f.now.Add(d); f.c <- *f.now }
func (f *fakeTimer) Stop()                 {}
func (f *fakeTimer) C() <-chan time.Time   { return f.c }

var _ backoff.BackOff = (*poll.BackOff)(nil)

func main() {
	for _, c := range cases {
		created := time.Unix(0, CREATED)
		now := created
		b := c.s.BackOff()
		b.Now = func() time.Time { return now }
		b.Reset()
		var policy backoff.BackOff = b
		if c.maxRetries > 0 {
			policy = backoff.WithMaxRetries(b, c.maxRetries)
		}
		calls := 0
		op := func() error {
			now = now.Add(b.Wait()) // a fake time.Sleep(b.Wait())
			now = now.Add(c.slow)
			calls++
			if calls == c.succeedAt {
				return nil
			}
			return errors.New("not yet")
		}
		err := backoff.RetryNotifyWithTimer(op, policy, nil, &fakeTimer{now: &now, c: make(chan time.Time, 1)})
		fmt.Printf("%s calls=%d elapsed=%v failed=%t\n", c.name, calls, now.Sub(created), err != nil)
	}
}
`
