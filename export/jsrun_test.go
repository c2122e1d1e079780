package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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

// TestGeneratedJS runs the JavaScript output of the whole-millisecond
// cases of TestGeneratedGo under Node.js, one program over all cases,
// and checks it the same way, against the schedule package.
func TestGeneratedJS(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Node.js run in -short mode")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH; skipping the JavaScript run")
	}
	dir := t.TempDir()
	var cases []goCase
	for _, c := range goCases(t) {
		if !wholeMS(c.s) {
			continue
		}
		c.created = floorMS(c.created)
		c.horizon = time.Duration(floorMS(int64(c.horizon)))
		for i := range c.signals {
			c.signals[i] = time.Duration(floorMS(int64(c.signals[i])))
		}
		for i := range c.probes {
			c.probes[i] = time.Duration(floorMS(int64(c.probes[i])))
		}
		cases = append(cases, c)
	}
	var imports, table strings.Builder
	msList := func(ds []time.Duration) string {
		var parts []string
		for _, d := range ds {
			parts = append(parts, string(ms(d)))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	for i, c := range cases {
		var src bytes.Buffer
		if err := JS(&src, c.s, JSOptions{}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("s%d.mjs", i)), src.Bytes())
		fmt.Fprintf(&imports, "import * as s%d from './s%d.mjs';\n", i, i)
		fmt.Fprintf(&table, "  {name: %q, m: s%d, created: %s, horizon: %s, signals: %s, probes: %s},\n",
			c.name, i, ms(time.Duration(c.created)), ms(c.horizon), msList(c.signals), msList(c.probes))
	}
	prog := imports.String() + "const cases = [\n" + table.String() + "];\n" + jsWalkProgram
	writeFile(t, filepath.Join(dir, "main.mjs"), []byte(prog))
	cmd := exec.Command(node, "main.mjs")
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node main.mjs: %v\n%s", err, stderr.Bytes())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	n := 0
	for ; sc.Scan(); n++ {
		var got struct {
			Name                 string
			Asks, AsksFrom, Walk []float64
			Next, NextFrom       [][2]float64
			End                  [2]float64
		}
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		checkGoResult(t, cases[n], goResult{
			Name: got.Name, Asks: nsList(got.Asks), AsksFrom: nsList(got.AsksFrom), Walk: nsList(got.Walk),
			Next: nsPairs(got.Next), NextFrom: nsPairs(got.NextFrom), End: nsPair(got.End),
		})
	}
	if n != len(cases) || n < 20 {
		t.Fatalf("node printed %d results for %d cases (want at least 20)", n, len(cases))
	}
}

func nsList(msv []float64) []int64 {
	out := make([]int64, len(msv))
	for i, m := range msv {
		out[i] = int64(math.Round(m * 1e6))
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
  let t = 0, planned = 0, have = false;
  const asks = [0];
  const sigs = c.signals.slice();
  const plan = () => { const w = b.nextBackOff(); have = w >= 0; planned = t + w; };
  plan();
  while (asks.length < 100000) {
    if (sigs.length > 0 && (!have || sigs[0] <= planned)) {
      t = sigs.shift();
      now = c.created + t;
      if (b.signal()) {
        if (asks[asks.length - 1] !== t) asks.push(t);
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

const pair = (x) => (x < 0 || x === Infinity ? [0, 0] : [x, 1]);

for (const c of cases) {
  console.log(JSON.stringify({
    Name: c.name,
    Asks: c.m.asks(c.horizon),
    AsksFrom: c.m.asksFrom(c.created, c.horizon),
    Walk: walk(c),
    Next: c.probes.map((p) => pair(c.m.next(p))),
    NextFrom: c.probes.map((p) => pair(c.m.nextFrom(c.created, p))),
    End: pair(c.m.end()),
  }));
}
`
