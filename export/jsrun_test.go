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
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// wholeMS reports whether every duration of s is a whole number of
// milliseconds, where the JavaScript output is exact.
func wholeMS(s *schedule.Schedule) bool {
	var ds []time.Duration
	for _, c := range s.Clauses {
		ds = append(append(ds, c.At...), c.Every, c.Until)
	}
	for _, a := range s.Aligned {
		ds = append(append(ds, a.Offsets...), a.Period, a.Until)
	}
	for _, d := range ds {
		if d%time.Millisecond != 0 {
			return false
		}
	}
	return true
}

func floorMS(ns int64) int64 {
	return int64(math.Floor(float64(ns)/1e6)) * 1e6
}

// msCases are 50 cases in whole milliseconds, where the JavaScript,
// TypeScript and Kotlin output is exact: those of goCases whose
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
	for k := range cases {
		c := &cases[k]
		c.created = floorMS(c.created)
		c.horizon = time.Duration(floorMS(int64(c.horizon)))
		for i := range c.signals {
			c.signals[i] = time.Duration(floorMS(int64(c.signals[i])))
		}
		for i := range c.probes {
			c.probes[i] = time.Duration(floorMS(int64(c.probes[i])))
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
	cases := msCases(t)
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
function walk(c) {
  let now = c.created;
  const b = new c.m.BackOff(() => now);
  let t = 0, planned = b.wait(), have = true;
  const asks = [];
  const sigs = c.signals.slice();
  const plan = () => { const w = b.nextBackOff(); have = w >= 0; planned = t + w; };
  while (asks.length < 100000) {
    if (sigs.length > 0 && (!have || sigs[0] <= planned)) {
      t = sigs.shift();
      now = c.created + t;
      if (b.signal()) {
        if (asks.length === 0 || asks[asks.length - 1] !== t) asks.push(t);
        plan();
      }
      continue;
    }
    if (!have || planned > c.horizon) break;
    t = planned;
    now = c.created + t;
    asks.push(t);
    plan();
  }
  return asks;
}

function slowWalk(c) {
  let now = c.created;
  const b = new c.m.BackOff(() => now);
  now += b.wait();
  const asks = [];
  while (asks.length < 100000 && now - c.created <= c.horizon) {
    asks.push(now - c.created);
    now += c.slow;
    const w = b.nextBackOff();
    if (w < 0) break;
    now += w;
  }
  return asks;
}

function afterEnd(c) {
  const e = c.m.end();
  if (e === Infinity) return [];
  let now = c.created;
  const b = new c.m.BackOff(() => now);
  now += e + 3600000;
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
