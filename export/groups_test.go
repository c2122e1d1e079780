package export

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/testenv"
)

// testSegments are the seeds as segments, with values that need quoting.
func testSegments(t *testing.T) Groups {
	s := Groups{By: "method", Fallback: mustParse(t, seeds[0].dsl)}
	for i, sd := range seeds[1:6] {
		s.Values = append(s.Values, []string{"wallet", "bank transfer", "", "a:b", `q"x`}[i])
		s.Schedules = append(s.Schedules, mustParse(t, sd.dsl))
	}
	return s
}

// TestSegmentsDSL: one VALUE: SCHEDULE line per segment, then the
// fallback as "*", each value read back with strconv.Unquote when
// quoted and each schedule with schedule.Parse.
func TestSegmentsDSL(t *testing.T) {
	s := testSegments(t)
	var b bytes.Buffer
	if err := WriteGroups(&b, "dsl", s, &Meta{Source: "mixed.csv"}, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	if len(lines) != len(s.Values)+1 {
		t.Fatalf("%d schedule lines, want %d:\n%s", len(lines), len(s.Values)+1, b.String())
	}
	for i, l := range lines {
		var v, spec string
		if strings.HasPrefix(l, `"`) {
			q, err := strconv.QuotedPrefix(l)
			if err != nil {
				t.Fatal(l, err)
			}
			v, _ = strconv.Unquote(q)
			spec = strings.TrimPrefix(l[len(q):], ": ")
		} else {
			v, spec, _ = strings.Cut(l, ": ")
		}
		want, wantS := "*", s.Fallback
		if i < len(s.Values) {
			want, wantS = s.Values[i], s.Schedules[i]
		}
		got, err := schedule.Parse(spec)
		if v != want || err != nil || schedule.Format(got) != schedule.Format(wantS) {
			t.Errorf("line %q: value %q schedule %v (%v), want %q: %s", l, v, got, err, want, schedule.Format(wantS))
		}
	}
}

// TestSegmentsJSON: the document maps each value to a version 1
// document that ReadJSON reads back as that value's schedule.
func TestSegmentsJSON(t *testing.T) {
	s := testSegments(t)
	var b bytes.Buffer
	if err := WriteGroups(&b, "json", s, nil, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version  int                        `json:"version"`
		By       string                     `json:"by"`
		Segments map[string]json.RawMessage `json:"segments"`
		Fallback json.RawMessage            `json:"fallback"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != Version || doc.By != "method" || len(doc.Segments) != len(s.Values) {
		t.Fatalf("document %s", b.String())
	}
	check := func(name string, raw json.RawMessage, want *schedule.Schedule) {
		got, _, err := ReadJSON(bytes.NewReader(raw))
		if err != nil || schedule.Format(got) != schedule.Format(want) {
			t.Errorf("%s: %v (%v), want %s", name, got, err, schedule.Format(want))
		}
	}
	for i, v := range s.Values {
		check(v, doc.Segments[v], s.Schedules[i])
	}
	check("fallback", doc.Fallback, s.Fallback)
}

// segmentsProgram prints, for each value and one not fitted, the asks of
// poll.Poll.For(value) to 10 minutes, one JSON line each.
const segmentsProgram = `package main

import (
	"encoding/json"
	"fmt"
	"time"

	"gentest/poll"
)

func main() {
	for _, v := range []string{VALUES} {
		var ms []int64
		for _, a := range poll.Poll.For(v).Asks(10 * time.Minute) {
			ms = append(ms, int64(a))
		}
		b, _ := json.Marshal(ms)
		fmt.Println(string(b))
	}
}
`

// TestGeneratedGoSegments compiles the Go of a schedule per segment
// and checks that For(value) asks as the value's schedule does (the
// fallback's for a value not fitted), by the schedule package.
func TestGeneratedGoSegments(t *testing.T) {
	gotool := goTool(t)
	s := testSegments(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.18\n"))
	var src bytes.Buffer
	if err := WriteGroups(&src, "go", s, &Meta{Source: "mixed.csv"}, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	checkImports(t, "segments", src.Bytes())
	writeFile(t, filepath.Join(dir, "poll", "poll.go"), src.Bytes())
	values := append(slices.Clone(s.Values), "never fitted")
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = strconv.Quote(v)
	}
	writeFile(t, filepath.Join(dir, "main.go"), []byte(strings.Replace(segmentsProgram, "VALUES", strings.Join(quoted, ", "), 1)))
	runGo(t, gotool, dir, "vet", "./...")
	out := valueLines(t, values, runGo(t, gotool, dir, "run", "."))
	for i, v := range values {
		want := valueSchedule(s, i)
		asks, _ := want.Timeline().Asks(10 * time.Minute)
		var got []int64
		if err := json.Unmarshal([]byte(out[i]), &got); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, ints(asks)) {
			t.Errorf("For(%q) asks %v, want %v (%s)", v, got, ints(asks), schedule.Format(want))
		}
	}
}

// TestSegmentsRefused: asks, which has no segmented form, says what to
// use.
func TestSegmentsRefused(t *testing.T) {
	s := testSegments(t)
	if err := WriteGroups(&bytes.Buffer{}, "asks", s, nil, GoOptions{}); err == nil || !strings.Contains(err.Error(), "json") {
		t.Errorf("asks: %v, want an error naming json", err)
	}
	s.Values = append(s.Values, "wallet")
	s.Schedules = append(s.Schedules, s.Fallback)
	if err := WriteGroups(&bytes.Buffer{}, "dsl", s, nil, GoOptions{}); err == nil {
		t.Error("a value given twice: no error")
	}
}

// segmentsJSProgram prints, for each value and one not fitted, the asks
// of scheduleFor(value) to 10 minutes and a BackOff walk on a fake
// clock, one JSON line each.
const segmentsJSProgram = `import { scheduleFor } from "./poll.mjs";
for (const v of [VALUES]) {
  const p = scheduleFor(v);
  let t = 1700000000000;
  const b = new p.BackOff(() => t);
  const walk = [];
  t += b.wait();
  for (let i = 0; i < 5000; i++) {
    walk.push(t - 1700000000000);
    const w = b.nextBackOff();
    if (w < 0) break;
    t += w;
  }
  console.log(JSON.stringify({ asks: p.asks(600000), walk }));
}
`

// jsSegmentCase is the segments the JS and TS tests export: testSegments
// without aligned asks (the walk is then age-based), and the values the
// program asks for, with one not fitted and one that is an Object
// property.
func jsSegmentCase(t *testing.T) (Groups, []string) {
	s := testSegments(t)
	for i := range s.Schedules {
		if len(s.Schedules[i].Aligned) > 0 {
			s.Schedules[i] = mustParse(t, "at 0s 2s, 1s until 10s")
		}
	}
	return s, append(slices.Clone(s.Values), "never fitted", "constructor")
}

// jsSegmentsMain is segmentsJSProgram importing module for values.
func jsSegmentsMain(module string, values []string) []byte {
	keys := make([]string, len(values))
	for i, v := range values {
		b, _ := json.Marshal(v)
		keys[i] = string(b)
	}
	prog := strings.Replace(segmentsJSProgram, "./poll.mjs", module, 1)
	return []byte(strings.Replace(prog, "VALUES", strings.Join(keys, ", "), 1))
}

// valueLines are a test program's lines of output, one per value.
func valueLines(t *testing.T, values []string, output []byte) []string {
	t.Helper()
	out := strings.Split(strings.TrimSpace(string(output)), "\n")
	if len(out) != len(values) {
		t.Fatalf("%d lines for %d values:\n%s", len(out), len(values), strings.Join(out, "\n"))
	}
	return out
}

// valueSchedule is the schedule the i-th value a test program asks for
// gets: its own, or the fallback's past the fitted values.
func valueSchedule(s Groups, i int) *schedule.Schedule {
	if i < len(s.Values) {
		return s.Schedules[i]
	}
	return s.Fallback
}

// checkJSSegments checks the program's lines against the schedule
// package: each value's asks and BackOff walk, the fallback's for a
// value not fitted.
func checkJSSegments(t *testing.T, s Groups, values []string, output []byte) {
	t.Helper()
	out := valueLines(t, values, output)
	for i, v := range values {
		want := valueSchedule(s, i)
		asks, _ := want.Timeline().Asks(10 * time.Minute)
		var got struct{ Asks, Walk []int64 }
		if err := json.Unmarshal([]byte(out[i]), &got); err != nil {
			t.Fatal(err)
		}
		wantMS := make([]int64, len(asks))
		for k, a := range asks {
			wantMS[k] = a.Milliseconds()
		}
		if !slices.Equal(got.Asks, wantMS) {
			t.Errorf("scheduleFor(%q).asks = %v, want %v (%s)", v, got.Asks, wantMS, schedule.Format(want))
		}
		if n := min(len(got.Walk), len(wantMS)); !slices.Equal(got.Walk[:n], wantMS[:n]) {
			t.Errorf("scheduleFor(%q) BackOff walk %v, want the asks %v", v, got.Walk[:n], wantMS[:n])
		}
	}
}

// TestGeneratedJSSegments runs the JavaScript of a schedule per segment
// under node: scheduleFor(value).asks and a BackOff walk with instant
// checks follow the value's schedule (the fallback's for a value not
// fitted), by the schedule package.
func TestGeneratedJSSegments(t *testing.T) {
	node := nodeTool(t)
	s, values := jsSegmentCase(t)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := WriteGroups(&src, "js", s, nil, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "poll.mjs"), src.Bytes())
	writeFile(t, filepath.Join(dir, "main.mjs"), jsSegmentsMain("./poll.mjs", values))
	checkJSSegments(t, s, values, runIn(t, dir, node, "main.mjs"))
}

// tsSegmentsUse uses the segments' API with its types, for tsc --strict.
const tsSegmentsUse = `import { scheduleFor, segments, API, Segments, Schedule } from "./poll.js";

const p: API = scheduleFor("wallet");
const s: Schedule = p.schedule;
const all: Segments = segments;
const b = new p.BackOff(() => 0);
const waits: number[] = [b.wait(), b.nextBackOff(), p.next(0), p.nextFrom(0, 0), p.end()];
const lists: number[][] = [p.asks(1000), p.asksFrom(0, 1000), all.fallback.asks(1000)];
export const used = [s, waits, lists, b.signal(), all.by];
`

// TestGeneratedTSSegments compiles the TypeScript of a schedule per
// segment with tsc --strict, beside a file that uses its types, and runs
// it under node as TestGeneratedJSSegments does.
func TestGeneratedTSSegments(t *testing.T) {
	// A tsc run of seconds; by default TestGeneratedTSStrictest type-checks
	// the same poll.ts and TestGeneratedJSSegments runs its JavaScript.
	testenv.SkipUnlessLong(t)
	node := nodeTool(t)
	forEachTsc(t, func(t *testing.T, tsc string) { checkGeneratedTSSegments(t, node, tsc) })
}

func checkGeneratedTSSegments(t *testing.T, node, tsc string) {
	s, values := jsSegmentCase(t)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := WriteGroups(&src, "ts", s, nil, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "poll.ts"), src.Bytes())
	writeFile(t, filepath.Join(dir, "use.ts"), []byte(tsSegmentsUse))
	runIn(t, dir, tsc, "--strict", "--noEmitOnError", "--target", "es2020", "--module", "es2020",
		"--moduleResolution", "bundler", "--outDir", "out", "poll.ts", "use.ts")
	out := filepath.Join(dir, "out")
	writeFile(t, filepath.Join(out, "package.json"), []byte(`{"type": "module"}`+"\n"))
	writeFile(t, filepath.Join(out, "main.mjs"), jsSegmentsMain("./poll.js", values))
	checkJSSegments(t, s, values, runIn(t, out, node, "main.mjs"))
}
