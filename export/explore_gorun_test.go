package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit/schedule"
)

// exploreSchedule is the schedule of the explore run-tests.
const exploreSchedule = "at 0s 1s, 2s until 10s, 5s until 1m"

// exploreProgram polls each item of ITEMS with BackOffFor on a fake
// clock against a fake upstream that answers once the item's settle
// age has passed (an ask at exactly it sees it), and prints its asks'
// ages and its LogRow as JSON.
const exploreProgram = `package main

import (
	"encoding/json"
	"fmt"
	"time"

	"gentest/poll"
)

func main() {
	for _, it := range []struct {
		key             string
		created, settle int64 // ms; settle -1: never
	}{
	// ITEMS
	} {
		start := time.UnixMilli(it.created)
		now := start
		b := poll.Poll.BackOffFor(it.key)
		b.Now = func() time.Time { return now }
		b.Reset()
		var asks []int64
		status := "pending"
		for now = now.Add(b.Wait()); ; now = now.Add(b.Wait()) {
			asks = append(asks, int64(now.Sub(start)))
			if it.settle >= 0 && now.Sub(start) >= time.Duration(it.settle)*time.Millisecond {
				status = "settled"
				break
			}
			if b.NextBackOff() < 0 {
				break
			}
		}
		// The same item again with checks of 1.7s: the asks passed while
		// a check ran are skipped.
		slow := poll.Poll.BackOffFor(it.key)
		slow.Now = func() time.Time { return now }
		now = start
		slow.Reset()
		var slowAsks []int64
		for now = now.Add(slow.Wait()); ; now = now.Add(slow.Wait()) {
			slowAsks = append(slowAsks, int64(now.Sub(start)))
			now = now.Add(1700 * time.Millisecond)
			if slow.NextBackOff() < 0 {
				break
			}
		}
		out, _ := json.Marshal(map[string]any{"asks": asks, "row": b.LogRow(status), "slow": slowAsks})
		fmt.Println(string(out))
	}
}
`

// TestGeneratedGoExplore runs an exploring Go poller over items whose
// settle ages it knows, checks its asks against exploredAsks, writes
// its LogRow lines as a poller log, reads that back with pollfit's
// poller reader and checks that each item's interval (L, R] holds its
// settle age and is bounded by the asks that bracket it.
func TestGeneratedGoExplore(t *testing.T) {
	gotool := goTool(t)
	s := mustParse(t, exploreSchedule)
	e := Explore{Fraction: 0.5, Seed: 7}
	items := exploreItems(40)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := Go(&src, s, GoOptions{Explore: e}); err != nil {
		t.Fatal(err)
	}
	checkImports(t, "explore", src.Bytes())
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.18\n"))
	writeFile(t, filepath.Join(dir, "poll", "poll.go"), src.Bytes())
	var table strings.Builder
	for _, it := range items {
		fmt.Fprintf(&table, "\t\t{%q, %d, %d},\n", it.key, it.created, it.settle)
	}
	writeFile(t, filepath.Join(dir, "main.go"), []byte(strings.Replace(exploreProgram, "\t// ITEMS\n", table.String(), 1)))
	runGo(t, gotool, dir, "vet", "./...")
	out := runGo(t, gotool, dir, "run", ".")
	var asks [][]int64
	log := ExploreLogHeader + "\n"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Asks, Slow []int64
			Row        string
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		asks, log = append(asks, r.Asks), log+r.Row+"\n"
		checkSlowExplore(t, s, e, items[len(asks)-1].key, r.Slow, 1700*time.Millisecond)
	}
	if len(asks) != len(items) {
		t.Fatalf("%d items printed, want %d", len(asks), len(items))
	}
	checkExploreWalk(t, "Go", s, e, items, asks, time.Nanosecond)
	checkExploreLog(t, "Go", s, e, items, log, nil, time.Nanosecond)
}

// checkSlowExplore checks the asks of a walk whose checks take slow
// each: after an ask at a, the first moved ask at or after a + slow.
func checkSlowExplore(t *testing.T, s *schedule.Schedule, e Explore, key string, got []int64, slow time.Duration) {
	t.Helper()
	end, _ := s.End()
	moved, _ := exploredAsks(t, s, e, key, end, time.Nanosecond)
	want := []int64{moved[0]}
	for _, a := range moved[1:] {
		if a >= want[len(want)-1]+int64(slow) {
			want = append(want, a)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s with checks of %s: asks %v, want %v", key, slow, got, want)
	}
}

// checkExploreLog reads a poller log of items written by LogRow with
// the poller reader and checks each item's interval: (L, R] holds the
// settle age (R = +Inf for an item that never settles), L is the last
// moved ask before the settle age (or the last ask), and R the first at
// or after it, by exploredAsks in unit. methods, when not nil, are the
// ages each item's lastPending and answered returned (nil for none),
// in seconds, which must be L (nil when the first ask saw the answer)
// and R (nil when none did).
func checkExploreLog(t *testing.T, lang string, s *schedule.Schedule, e Explore, items []exploreItem, log string, methods [][2]*float64, unit time.Duration) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "poller.csv")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	got := map[int64]estimate.Interval{}
	if _, err := logs.EachPoller([]string{path}, logs.PollerOptions{}, func(iv estimate.Interval) { got[iv.Created] = iv }); err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	end, _ := s.End()
	for i, it := range items[:len(items)-1] { // the last is the first again, created later
		iv, ok := got[it.created*1e6]
		if !ok {
			t.Errorf("%s %s: no interval read back", lang, it.key)
			continue
		}
		moved, _ := exploredAsks(t, s, e, it.key, end, unit)
		lo, hi, k := 0.0, math.Inf(1), 0 // the asks that bracket the settle age, seconds
		for ; k < len(moved); k++ {
			a := moved[k] * int64(unit)
			if it.settle >= 0 && a >= it.settle*1e6 {
				hi = float64(a) / 1e9
				break
			}
			lo = float64(a) / 1e9
		}
		if methods != nil {
			checkExploreMethods(t, lang+" "+it.key, methods[i], lo, hi, k)
		}
		settle := float64(it.settle) / 1e3
		if math.Abs(iv.Lo-lo) > 1e-9 || !(iv.Hi == hi || math.Abs(iv.Hi-hi) <= 1e-9) {
			t.Errorf("%s %s (settles at %vs): interval (%v, %v], want (%v, %v]", lang, it.key, settle, iv.Lo, iv.Hi, lo, hi)
		}
		if it.settle >= 0 && !(iv.Lo < settle && settle <= iv.Hi) {
			t.Errorf("%s %s: interval (%v, %v] does not hold its settle age %vs", lang, it.key, iv.Lo, iv.Hi, settle)
		}
	}
}

// checkExploreMethods checks what an item's lastPending and answered
// returned (seconds, nil for none) against the bracketing asks lo and
// hi, k the index of the answering ask.
func checkExploreMethods(t *testing.T, what string, got [2]*float64, lo, hi float64, k int) {
	t.Helper()
	ok := func(p *float64, want float64, none bool) bool {
		if none {
			return p == nil
		}
		return p != nil && math.Abs(*p-want) <= 1e-9
	}
	if !ok(got[0], lo, k == 0) || !ok(got[1], hi, math.IsInf(hi, 1)) {
		show := func(p *float64) any {
			if p == nil {
				return "none"
			}
			return *p
		}
		t.Errorf("%s: last pending %v and answered %v, want %v and %v", what, show(got[0]), show(got[1]), lo, hi)
	}
}

// exploreShapes are schedules that reach every branch of the generated
// prevAge: an implied ask at 0, one that never stops, at after every,
// a late start with a gap shorter than the one before, at only.
var exploreShapes = []string{"2s until 10s, 5s", "1s until 5s, at 7s 12s, 3s until 30s", "at 100ms 250ms 1s, 500ms until 4s, 1m", "at 0s 10s 11s 30s"}

// exploreShapesProgram walks each schedule of SCHEDULES for each key of
// KEYS with instant checks of an item that never answers, to 2m, and
// prints the asks' ages.
const exploreShapesProgram = `package main

import (
	"encoding/json"
	"fmt"
	"time"

	"gentest/poll"
)

func main() {
	for _, s := range []poll.Schedule{
	// SCHEDULES
	} {
		for _, key := range []string{KEYS} {
			start := time.Unix(1_780_000_000, 0)
			now := start
			b := s.BackOffFor(key)
			b.Now = func() time.Time { return now }
			b.Reset()
			var asks []int64
			for now = now.Add(b.Wait()); now.Sub(start) <= 2*time.Minute; now = now.Add(b.Wait()) {
				asks = append(asks, int64(now.Sub(start)))
				if b.NextBackOff() < 0 {
					break
				}
			}
			out, _ := json.Marshal(asks)
			fmt.Println(string(out))
		}
	}
}
`

// TestGeneratedGoExploreShapes checks the exploring Go BackOff of
// exploreShapes, fully explored (F = 1), against exploredAsks.
func TestGeneratedGoExploreShapes(t *testing.T) {
	gotool := goTool(t)
	e := Explore{Fraction: 1, Seed: 99}
	keys := []string{"a", "b", "pay_😀", "a"}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.18\n"))
	var table strings.Builder
	for i, dsl := range exploreShapes {
		var src bytes.Buffer
		if err := Go(&src, mustParse(t, dsl), GoOptions{Var: fmt.Sprintf("S%d", i), VarOnly: i > 0, Explore: e}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "poll", fmt.Sprintf("s%d.go", i)), src.Bytes())
		fmt.Fprintf(&table, "\t\tpoll.S%d,\n", i)
	}
	quoted := fmt.Sprintf("%q", keys)
	prog := strings.Replace(exploreShapesProgram, "\t// SCHEDULES\n", table.String(), 1)
	prog = strings.Replace(prog, "KEYS", strings.ReplaceAll(quoted[1:len(quoted)-1], `" "`, `", "`), 1)
	writeFile(t, filepath.Join(dir, "main.go"), []byte(prog))
	out := strings.Split(strings.TrimSpace(string(runGo(t, gotool, dir, "run", "."))), "\n")
	if len(out) != len(exploreShapes)*len(keys) {
		t.Fatalf("%d lines printed, want %d", len(out), len(exploreShapes)*len(keys))
	}
	for i, dsl := range exploreShapes {
		s := mustParse(t, dsl)
		for j, key := range keys {
			var got []int64
			if err := json.Unmarshal([]byte(out[i*len(keys)+j]), &got); err != nil {
				t.Fatal(err)
			}
			moved, nominal := exploredAsks(t, s, e, key, 2*time.Minute+time.Hour, time.Nanosecond)
			k := 0
			for k < len(moved) && moved[k] <= int64(2*time.Minute) {
				k++
			}
			checkExploredBounds(t, dsl+" "+key, got, nominal[:min(len(got), len(nominal))], e.Fraction)
			if !slices.Equal(got, moved[:k]) {
				t.Errorf("%s, item %s: asks %v, want %v", dsl, key, got, moved[:k])
			}
		}
		if out[i*len(keys)] != out[i*len(keys)+3] {
			t.Errorf("%s: the same key twice got %s and %s", dsl, out[i*len(keys)], out[i*len(keys)+3])
		}
		if out[i*len(keys)] == out[i*len(keys)+1] {
			t.Errorf("%s: keys a and b got the same asks %s", dsl, out[i*len(keys)])
		}
	}
}
