package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/testenv"
)

// wholeIn reports whether every duration of s is a whole number of u.
func wholeIn(s *schedule.Schedule, u time.Duration) bool {
	var ds []time.Duration
	for _, c := range s.Clauses {
		ds = append(append(ds, c.At...), c.Every, c.Until)
	}
	for _, a := range s.Aligned {
		ds = append(append(ds, a.Offsets...), a.Period, a.Until)
	}
	for _, d := range ds {
		if d%u != 0 {
			return false
		}
	}
	return true
}

// wholeMS reports whether every duration of s is a whole number of
// milliseconds.
func wholeMS(s *schedule.Schedule) bool { return wholeIn(s, time.Millisecond) }

// floorTo floors ns to a multiple of u.
func floorTo(ns int64, u time.Duration) int64 {
	return int64(math.Floor(float64(ns)/float64(u))) * int64(u)
}

// msCases are 50 cases in whole milliseconds: those of goCases whose
// schedules are in whole milliseconds, then random ones, with every
// time floored to the millisecond.
func msCases(t *testing.T) []goCase {
	var cases []goCase
	for _, c := range goCases(t) {
		if wholeMS(c.s) {
			cases = append(cases, c)
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	var more []namedSchedule
	for i := 0; len(cases)+len(more) < 50; i++ {
		if s := randomSchedule(t, r); wholeMS(s) {
			more = append(more, namedSchedule{fmt.Sprintf("ms%d", i), s})
		}
	}
	cases = append(cases, casesFor(r, rand.New(rand.NewPCG(9, 10)), more)...)
	return floorCases(cases, time.Millisecond)
}

// subMSRepros are the schedules finer than a millisecond that the
// JavaScript once got wrong by floating-point rounding: asks() of the
// first ended at 2.2 and of the second listed 4.800000000000001.
var subMSRepros = []string{"1.1ms until 3.3ms", "1.6ms until 9.6ms", "at 0s 0.3ms, 2.7ms until 8.1ms, every 1.1ms at +0.1ms until 20ms"}

// subMSCases are cases in whole microseconds but not milliseconds:
// those of goCases, subMSRepros, and random schedules in steps of 1.5
// ms with their untils floored to the microsecond (which leaves their
// asks as they are), with every time floored to the microsecond.
func subMSCases(t *testing.T) []goCase {
	var cases []goCase
	for _, c := range goCases(t) {
		if wholeIn(c.s, time.Microsecond) && !wholeMS(c.s) {
			cases = append(cases, c)
		}
	}
	var more []namedSchedule
	for i, dsl := range subMSRepros {
		more = append(more, namedSchedule{fmt.Sprintf("repro%d", i), mustParse(t, dsl)})
	}
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; len(more) < 20; i++ {
		s := randomSchedule(t, r)
		for k := range s.Clauses {
			s.Clauses[k].Until = time.Duration(floorTo(int64(s.Clauses[k].Until), time.Microsecond))
		}
		if wholeIn(s, time.Microsecond) && !wholeMS(s) && s.Validate() == nil {
			more = append(more, namedSchedule{fmt.Sprintf("us%d", i), s})
		}
	}
	cases = append(cases, casesFor(r, rand.New(rand.NewPCG(13, 14)), more)...)
	return floorCases(cases, time.Microsecond)
}

// exactCases are msCases and subMSCases: the cases the JavaScript,
// TypeScript and Kotlin output must get exactly.
func exactCases(t *testing.T) []goCase {
	return append(msCases(t), subMSCases(t)...)
}

// floorCases floors every time of cases to u.
func floorCases(cases []goCase, u time.Duration) []goCase {
	for k := range cases {
		c := &cases[k]
		c.created = floorTo(c.created, u)
		c.horizon = time.Duration(floorTo(int64(c.horizon), u))
		for i := range c.signals {
			c.signals[i] = time.Duration(floorTo(int64(c.signals[i]), u))
		}
		for i := range c.probes {
			c.probes[i] = time.Duration(floorTo(int64(c.probes[i]), u))
		}
	}
	return cases
}

// nodeTool returns the path of node, or skips the test.
func nodeTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the Node.js run in -short mode")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH (Debian package nodejs); skipping the JavaScript run")
	}
	return node
}

// runIn runs a program in dir and returns its standard output.
func runIn(t *testing.T, dir, prog string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", filepath.Base(prog), strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return out
}

// TestGeneratedJS runs the JavaScript output of msCases under Node.js,
// one program over all cases, and checks it as TestGeneratedGo does,
// against the schedule package.
func TestGeneratedJS(t *testing.T) {
	node := nodeTool(t)
	dir := t.TempDir()
	cases := exactCases(t)
	for i, c := range cases {
		var src bytes.Buffer
		if err := JS(&src, c.s, JSOptions{}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("s%d.mjs", i)), src.Bytes())
	}
	writeFile(t, filepath.Join(dir, "main.mjs"), []byte(jsMain(cases, ".mjs")))
	checkJSOutput(t, cases, runIn(t, dir, node, "main.mjs"))
}

// jsMain is the program that imports the modules s0, s1, ... (with the
// extension ext) and prints what jsWalkProgram finds for each case.
func jsMain(cases []goCase, ext string) string {
	var imports, table strings.Builder
	msList := func(ds []time.Duration) string {
		var parts []string
		for _, d := range ds {
			parts = append(parts, string(ms(d)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	for i, c := range cases {
		fmt.Fprintf(&imports, "import * as s%d from './s%d%s';\n", i, i, ext)
		fmt.Fprintf(&table, "  {name: %q, m: s%d, created: %s, horizon: %s, signals: %s, probes: %s, slow: %s},\n",
			c.name, i, ms(time.Duration(c.created)), ms(c.horizon), msList(c.signals), msList(c.probes), ms(c.slow))
	}
	return imports.String() + "const cases = [\n" + table.String() + "];\n" + jsWalkProgram
}

// checkJSOutput checks the lines jsWalkProgram printed, one per case.
func checkJSOutput(t *testing.T, cases []goCase, out []byte) {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	n := 0
	for ; sc.Scan(); n++ {
		var got struct {
			Name                 string
			Asks, AsksFrom, Walk []float64
			SlowWalk, AfterEnd   []float64
			Next, NextFrom       [][2]float64
			End                  [2]float64
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		checkDecimals(t, cases[n], sc.Bytes())
		checkGoResult(t, cases[n], goResult{
			Name: got.Name, Asks: nsList(got.Asks), AsksFrom: nsList(got.AsksFrom), Walk: nsList(got.Walk),
			SlowWalk: nsList(got.SlowWalk), AfterEnd: stops(got.AfterEnd),
			Next: nsPairs(got.Next), NextFrom: nsPairs(got.NextFrom), End: nsPair(got.End),
		})
	}
	if n != len(cases) || n < 50 {
		t.Fatalf("printed %d results for %d cases (want 50)", n, len(cases))
	}
}

// checkDecimals checks that the asks a program printed for c are the
// exact decimals --format asks writes, as text: 4.8, not the
// 4.800000000000001 of floating-point rounding.
func checkDecimals(t *testing.T, c goCase, line []byte) {
	t.Helper()
	var got struct{ Asks, AsksFrom []json.Number }
	if err := json.Unmarshal(line, &got); err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	if len(c.s.Clauses) > 0 {
		if err := Asks(&lines, &schedule.Schedule{Clauses: c.s.Clauses}, AsksOptions{Horizon: c.horizon}); err != nil {
			t.Fatal(err)
		}
	}
	want := strings.Fields(lines.String())
	if asks := numbers(got.Asks); !slices.Equal(asks, want) {
		t.Errorf("%s (%s): asks printed as %v, --format asks writes %v", c.name, schedule.Format(c.s), asks, want)
	}
	for _, a := range got.AsksFrom {
		f, err := a.Float64()
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Duration(math.Round(f * 1e6)); string(ms(d)) != a.String() {
			t.Errorf("%s (%s): asksFrom printed %s, not the exact %s", c.name, schedule.Format(c.s), a, ms(d))
		}
	}
}

func numbers(ns []json.Number) []string {
	out := make([]string, len(ns))
	for i, n := range ns {
		out[i] = n.String()
	}
	return out
}

func nsList(msv []float64) []int64 {
	out := make([]int64, len(msv))
	for i, m := range msv {
		out[i] = int64(math.Round(m * 1e6))
	}
	return out
}

// stops converts what nextBackOff returned after the end, STOP (-1)
// expected, without scaling -1.
func stops(msv []float64) []int64 {
	out := make([]int64, len(msv))
	for i, m := range msv {
		out[i] = int64(m)
		if m >= 0 {
			out[i] = int64(math.Round(m * 1e6))
		}
	}
	return out
}

func nsPair(p [2]float64) [2]int64 { return [2]int64{int64(math.Round(p[0] * 1e6)), int64(p[1])} }

func nsPairs(ps [][2]float64) [][2]int64 {
	out := make([][2]int64, len(ps))
	for i, p := range ps {
		out[i] = nsPair(p)
	}
	return out
}

// jsWalkProgram follows walkProgram of TestGeneratedGo in JavaScript.
const jsWalkProgram = `
// The BackOffs run on a monotonic clock, t, from 0 and a wall clock,
// c.created + t.
function walk(c) {
  let t = 0;
  const b = new c.m.BackOff(() => t, () => c.created + t);
  let planned = b.wait(), have = true;
  const asks = [];
  const sigs = c.signals.slice();
  const plan = () => { const w = b.nextBackOff(); have = w >= 0; planned = t + w; };
  while (asks.length < 100000) {
    if (sigs.length > 0 && (!have || sigs[0] <= planned)) {
      t = sigs.shift();
      if (b.signal()) {
        if (asks.length === 0 || asks[asks.length - 1] !== t) asks.push(t);
        plan();
      }
      continue;
    }
    if (!have || planned > c.horizon) break;
    t = planned;
    asks.push(t);
    plan();
  }
  return asks;
}

function slowWalk(c) {
  let t = 0;
  const b = new c.m.BackOff(() => t, () => c.created + t);
  t += b.wait();
  const asks = [];
  while (asks.length < 100000 && t <= c.horizon) {
    asks.push(t);
    t += c.slow;
    const w = b.nextBackOff();
    if (w < 0) break;
    t += w;
  }
  return asks;
}

function afterEnd(c) {
  const e = c.m.end();
  if (e === Infinity) return [];
  let t = 0;
  const b = new c.m.BackOff(() => t, () => c.created + t);
  t += e + 3600000;
  return [b.nextBackOff(), b.nextBackOff()];
}

const pair = (x) => (x < 0 || x === Infinity ? [0, 0] : [x, 1]);

for (const c of cases) {
  console.log(JSON.stringify({
    Name: c.name,
    Asks: c.m.asks(c.horizon),
    AsksFrom: c.m.asksFrom(c.created, c.horizon),
    Walk: walk(c),
    SlowWalk: slowWalk(c),
    AfterEnd: afterEnd(c),
    Next: c.probes.map((p) => pair(c.m.next(p))),
    NextFrom: c.probes.map((p) => pair(c.m.nextFrom(c.created, p))),
    End: pair(c.m.end()),
  }));
}
`

// clockSchedule is the schedule of the clock programs: asks every
// second for a minute.
const clockSchedule = "1s until 1m"

// jsClockProgram makes a BackOff of clockSchedule on the default clocks,
// steps Date.now an hour back and prints nextBackOff (when the BackOff
// waited on Date.now it was 3,601,000 ms); then on injected clocks, 400 ms after reset and
// after a backward step of the wall clock, nextBackOff and wait.
const jsClockProgram = `import { BackOff } from "./clock.js";
const real = Date.now;
let step = 0;
Date.now = () => real() - step;
const b = new BackOff();
step = 3600000;
const def = b.nextBackOff();
let mono = 5000, wall = 1700000000000;
const c = new BackOff(() => mono, () => wall);
mono += 400;
wall -= 3600000;
console.log(JSON.stringify([def, c.nextBackOff(), c.wait()]));
`

// checkClock checks what jsClockProgram printed: on the default clock
// the first wait after the step is at most 1 s, and on the injected
// ones 600 ms.
func checkClock(t *testing.T, out []byte) {
	t.Helper()
	var got [3]float64
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got[0] < 900 || got[0] > 1000 || got[1] != 600 || got[2] != 600 {
		t.Errorf("after a backward wall-clock step: nextBackOff %v on the default clock (want 900 to 1000), %v and wait %v on injected clocks (want 600, 600)", got[0], got[1], got[2])
	}
}

// TestJSWallClockStep runs jsClockProgram over the JavaScript of
// clockSchedule: a one-hour backward step of the wall clock does not
// move the wait, which the default clock, performance.now, measures.
func TestJSWallClockStep(t *testing.T) {
	node := nodeTool(t)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := JS(&src, mustParse(t, clockSchedule), JSOptions{}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "clock.mjs"), src.Bytes())
	writeFile(t, filepath.Join(dir, "main.mjs"), []byte(strings.Replace(jsClockProgram, "./clock.js", "./clock.mjs", 1)))
	checkClock(t, runIn(t, dir, node, "main.mjs"))
}

// TestGeneratedJSCheckJs checks the JSDoc types of the JavaScript of
// exactCases and of a schedule per segment with tsc --allowJs --checkJs
// under the options of @tsconfig/strictest, given on the command line.
func TestGeneratedJSCheckJs(t *testing.T) {
	// A tsc run of seconds, long tests only: by default
	// TestGeneratedTSStrictest checks the TypeScript output's types under
	// the same options, and TestGeneratedJS runs this JavaScript.
	testenv.SkipUnlessLong(t)
	forEachTsc(t, checkGeneratedJSCheckJs)
}

func checkGeneratedJSCheckJs(t *testing.T, tsc string) {
	dir := t.TempDir()
	args := append([]string{"--allowJs", "--checkJs", "--noEmit", "--target", "es2020", "--module", "es2020",
		"--moduleResolution", "bundler"}, strictestFlags...)
	for i, c := range exactCases(t) {
		var src bytes.Buffer
		if err := JS(&src, c.s, JSOptions{}); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("s%d.mjs", i)
		writeFile(t, filepath.Join(dir, name), src.Bytes())
		args = append(args, name)
	}
	s, _ := jsSegmentCase(t)
	var src bytes.Buffer
	if err := WriteGroups(&src, "js", s, nil, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "segments.mjs"), src.Bytes())
	runIn(t, dir, tsc, append(args, "segments.mjs")...)
}
