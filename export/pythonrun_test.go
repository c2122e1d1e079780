package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// pythonTool returns the path of python3, or skips the test; with
// module, the first python3 (on PATH, then Debian's) that imports it.
func pythonTool(t *testing.T, module, pkg string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the Python run in -short mode")
	}
	var found []string
	for _, p := range []string{"python3", "/usr/bin/python3"} {
		if path, err := exec.LookPath(p); err == nil && !slices.Contains(found, path) {
			found = append(found, path)
		}
	}
	for _, py := range found {
		if module == "" || exec.Command(py, "-c", "import "+module).Run() == nil {
			return py
		}
	}
	if len(found) == 0 {
		t.Skip("python3 is not on PATH (Debian package python3); skipping the Python run")
	}
	t.Skipf("no python3 imports %s (Debian package %s); skipping", module, pkg)
	return ""
}

// mypyStrict runs mypy --strict over files in dir, or says why not.
func mypyStrict(t *testing.T, dir string, files ...string) {
	t.Helper()
	mypy, err := exec.LookPath("mypy")
	if err != nil {
		t.Log("mypy is not on PATH (Debian package mypy): the generated Python is not type-checked")
		return
	}
	runIn(t, dir, mypy, append([]string{"--strict", "--no-incremental", "--cache-dir", filepath.Join(dir, ".mypy")}, files...)...)
}

// pyUse uses the API of a generated module with its types, so that
// mypy --strict checks what a caller sees.
const pyUse = `from typing import List, Optional

import s0
from s0 import SCHEDULE, BackOff, Schedule, asks, asks_from, end, next, next_from, tenacity_wait

b: BackOff = BackOff(now=lambda: 0.0, wall=lambda: 0.0)
waits: List[Optional[float]] = [b.wait(), b.next_back_off(), next(0), next_from(0, 0.5)]
last: float = end()
s: Schedule = SCHEDULE
lists: List[List[float]] = [asks(1), asks_from(0.0, 1), s.asks(2.5), s0.asks(3)]
signalled: bool = b.signal()
w = tenacity_wait()
`

// TestGeneratedPython runs the Python output of msCases, the 50 cases
// the JavaScript, TypeScript and Kotlin outputs run, under python3, one
// program over all cases, and checks it as TestGeneratedGo does against
// the schedule package, and its asks against --format asks; mypy
// --strict checks the modules and a file that uses their API.
func TestGeneratedPython(t *testing.T) {
	py := pythonTool(t, "", "")
	dir := t.TempDir()
	cases := msCases(t)
	var files []string
	for i, c := range cases {
		var src bytes.Buffer
		if err := Python(&src, c.s, PythonOptions{}); err != nil {
			t.Fatal(err)
		}
		files = append(files, fmt.Sprintf("s%d.py", i))
		writeFile(t, filepath.Join(dir, files[i]), src.Bytes())
	}
	writeFile(t, filepath.Join(dir, "main.py"), []byte(pyMain(cases)))
	writeFile(t, filepath.Join(dir, "use.py"), []byte(pyUse))
	results := checkPythonOutput(t, cases, runIn(t, dir, py, "main.py"))
	for i, c := range cases {
		if len(c.s.Aligned) > 0 {
			continue // --format asks refuses them
		}
		if want := asksLines(t, c.s, AsksOptions{Horizon: c.horizon}); !slices.Equal(results[i].Asks, ints(want)) {
			t.Errorf("%s: Python asks %v, --format asks %v", c.name, results[i].Asks, want)
		}
	}
	mypyStrict(t, dir, append(files, "use.py")...)
}

// pyMain is the program that imports the modules s0, s1, ... and prints
// what pyWalkProgram finds for each case, times in nanoseconds.
func pyMain(cases []goCase) string {
	type pyCase struct {
		Name                   string
		Module                 string
		Created, Horizon, Slow int64
		Signals, Probes        []int64
	}
	var table []pyCase
	for i, c := range cases {
		table = append(table, pyCase{c.name, fmt.Sprintf("s%d", i), c.created, int64(c.horizon), int64(c.slow), ints(c.signals), ints(c.probes)})
	}
	data, _ := json.Marshal(table)
	return "CASES = " + string(data) + "\n" + pyWalkProgram
}

// checkPythonOutput checks the lines pyWalkProgram printed, one per
// case, and returns them.
func checkPythonOutput(t *testing.T, cases []goCase, out []byte) []goResult {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	var results []goResult
	for sc.Scan() {
		var got struct {
			Name           string
			Asks, AsksFrom []json.Number
			Walk, SlowWalk []int64
			AfterEnd       []json.Number
			Next, NextFrom [][2]json.Number
			End            [2]json.Number
		}
		d := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		d.UseNumber()
		if err := d.Decode(&got); err != nil {
			t.Fatal(err)
		}
		r := goResult{Name: got.Name, Asks: secondsNS(t, got.Asks...), AsksFrom: secondsNS(t, got.AsksFrom...),
			Walk: got.Walk, SlowWalk: got.SlowWalk, AfterEnd: secondsNS(t, got.AfterEnd...), End: secondsPair(t, got.End)}
		for i := range got.Next {
			r.Next = append(r.Next, secondsPair(t, got.Next[i]))
			r.NextFrom = append(r.NextFrom, secondsPair(t, got.NextFrom[i]))
		}
		if n := len(results); n < len(cases) {
			checkGoResult(t, cases[n], r)
		}
		results = append(results, r)
	}
	if len(results) != len(cases) || len(results) < 50 {
		t.Fatalf("printed %d results for %d cases (want 50)", len(results), len(cases))
	}
	return results
}

// secondsNS reads ages in seconds, as Python prints floats (the shortest
// decimal that reads back), as whole nanoseconds, exactly; -1 (no more
// asks) stays -1.
func secondsNS(t *testing.T, xs ...json.Number) []int64 {
	t.Helper()
	out := make([]int64, len(xs))
	for i, x := range xs {
		if x == "-1" {
			out[i] = -1
			continue
		}
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			t.Fatalf("age %q is not a number", x)
		}
		r.Mul(r, big.NewRat(int64(time.Second), 1))
		if !r.IsInt() || !r.Num().IsInt64() {
			t.Fatalf("age %ss is not a whole number of nanoseconds", x)
		}
		out[i] = r.Num().Int64()
	}
	return out
}

func secondsPair(t *testing.T, p [2]json.Number) [2]int64 {
	t.Helper()
	ok, err := p[1].Int64()
	if err != nil {
		t.Fatal(err)
	}
	return [2]int64{secondsNS(t, p[0])[0], ok}
}

// pyWalkProgram follows jsWalkProgram in Python, on fake clocks in
// integer nanoseconds.
const pyWalkProgram = `
import importlib
import json
import math
from decimal import Decimal

def sec(ns):
    return ns / 1_000_000_000

def ns(x):
    return int((Decimal(repr(x)) * 1_000_000_000).to_integral_value())

class Clock:
    def __init__(self, created):
        self.created, self.t = created, 0
    def now(self):
        return sec(self.t)
    def wall(self):
        return sec(self.created + self.t)

def walk(m, c):
    ck = Clock(c["Created"])
    b = m.BackOff(now=ck.now, wall=ck.wall)
    state = {"planned": ns(b.wait()), "have": True}
    asks, sigs = [], list(c["Signals"])
    def plan():
        w = b.next_back_off()
        state["have"] = w is not None
        if w is not None:
            state["planned"] = ck.t + ns(w)
    while len(asks) < 100000:
        if sigs and (not state["have"] or sigs[0] <= state["planned"]):
            ck.t = sigs.pop(0)
            if b.signal():
                if not asks or asks[-1] != ck.t:
                    asks.append(ck.t)
                plan()
            continue
        if not state["have"] or state["planned"] > c["Horizon"]:
            break
        ck.t = state["planned"]
        asks.append(ck.t)
        plan()
    return asks

def slow_walk(m, c):
    ck = Clock(c["Created"])
    b = m.BackOff(now=ck.now, wall=ck.wall)
    ck.t += ns(b.wait())
    asks = []
    while len(asks) < 100000 and ck.t <= c["Horizon"]:
        asks.append(ck.t)
        ck.t += c["Slow"]
        w = b.next_back_off()
        if w is None:
            break
        ck.t += ns(w)
    return asks

def after_end(m, c):
    e = m.end()
    if e == math.inf:
        return []
    ck = Clock(c["Created"])
    b = m.BackOff(now=ck.now, wall=ck.wall)
    ck.t += ns(e) + 3600 * 1_000_000_000
    return [-1 if w is None else w for w in (b.next_back_off(), b.next_back_off())]

def pair(x):
    return [0, 0] if x is None or x == math.inf else [x, 1]

for c in CASES:
    m = importlib.import_module(c["Module"])
    created, horizon = sec(c["Created"]), sec(c["Horizon"])
    print(json.dumps({
        "Name": c["Name"],
        "Asks": m.asks(horizon),
        "AsksFrom": m.asks_from(created, horizon),
        "Walk": walk(m, c),
        "SlowWalk": slow_walk(m, c),
        "AfterEnd": after_end(m, c),
        "Next": [pair(m.next(sec(p))) for p in c["Probes"]],
        "NextFrom": [pair(m.next_from(created, sec(p))) for p in c["Probes"]],
        "End": pair(m.end()),
    }))
`
