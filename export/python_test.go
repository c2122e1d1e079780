package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// TestPythonGolden compares the Python output for each seed with its
// golden file (go test ./export -run TestPythonGolden -update rewrites
// them), seed1's with the meta that tries to break out of comments.
func TestPythonGolden(t *testing.T) {
	for _, sd := range seeds {
		var src bytes.Buffer
		opt := PythonOptions{Meta: metaFor(sd.name), Args: []string{"export", "--schedule", sd.dsl}}
		if err := Python(&src, mustParse(t, sd.dsl), opt); err != nil {
			t.Fatal(err)
		}
		golden(t, sd.name+".py.golden", src.Bytes())
	}
}

// The header comment holds the meta line by line, each a comment; the
// schedule's docstring cannot be ended by the schedule's text.
func TestPythonHeader(t *testing.T) {
	var src bytes.Buffer
	if err := Python(&src, mustParse(t, seeds[0].dsl), PythonOptions{Meta: seedMeta}); err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(src.String(), `"""A polling schedule`)
	for _, line := range strings.Split(strings.TrimSuffix(head, "\n"), "\n") {
		if !strings.HasPrefix(line, "#") {
			t.Errorf("header line %q is not a comment", line)
		}
	}
	if !strings.Contains(head, "# second line * / not code") || !strings.Contains(head, "# mean_asks: 6.25") {
		t.Errorf("header lacks the meta:\n%s", head)
	}
	if got := pyDocText(`a "" \ """ b`); got != `a \"\" \\ \"\"\" b` {
		t.Errorf("pyDocText = %s", got)
	}
}

// pySegmentsProgram prints, for each value, scheduleFor's asks by 10 m
// and a BackOff walk with instant checks, in milliseconds, as
// checkJSSegments reads them.
const pySegmentsProgram = `import json

import poll

for v in VALUES:
    s = poll.schedule_for(v)
    clock = [0.0]
    b = poll.BackOff(s, now=lambda: clock[0], wall=lambda: 0.0)
    walk = []
    w = b.wait()
    while w is not None and clock[0] + w <= 600 and len(walk) < 1000:
        clock[0] += w
        walk.append(round(clock[0] * 1000))
        w = b.next_back_off()
    print(json.dumps({"Asks": [round(a * 1000) for a in s.asks(600)], "Walk": walk}))
`

// pySegmentsUse uses the segments' API with its types, for mypy --strict.
const pySegmentsUse = `from typing import Dict, List

from poll import BY, SEGMENTS, BackOff, Schedule, schedule_for

s: Schedule = schedule_for("wallet")
by: str = BY
all: Dict[str, Schedule] = SEGMENTS
lists: List[List[float]] = [s.asks(1), s.asks_from(0, 1)]
b = BackOff(s)
w = s.end()
`

// TestGeneratedPythonSegments runs the Python of a schedule per segment:
// schedule_for(value).asks and a BackOff walk with instant checks follow
// the value's schedule (the fallback's for a value not fitted), by the
// schedule package; mypy --strict checks it and a file using it.
func TestGeneratedPythonSegments(t *testing.T) {
	py := pythonTool(t, "", "")
	s, values := jsSegmentCase(t)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := WriteGroups(&src, "python", s, nil, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "poll.py"), src.Bytes())
	keys, _ := json.Marshal(values)
	writeFile(t, filepath.Join(dir, "main.py"), []byte("VALUES = "+string(keys)+"\n"+pySegmentsProgram))
	writeFile(t, filepath.Join(dir, "use.py"), []byte(pySegmentsUse))
	checkJSSegments(t, s, values, runIn(t, dir, py, "main.py"))
	mypyStrict(t, dir, "poll.py", "use.py")
}

// TestPythonSubMillisecond: the module works in integer nanoseconds, so
// the asks of goCases' schedules that are not in whole milliseconds,
// "1.1ms until 3.3ms" among them, are the schedule package's exactly,
// the last ask at the horizon included.
func TestPythonSubMillisecond(t *testing.T) {
	py := pythonTool(t, "", "")
	dir := t.TempDir()
	cases := []goCase{{name: "1.1ms", s: mustParse(t, "1.1ms until 3.3ms"), horizon: 3300 * time.Microsecond}}
	for _, c := range goCases(t) {
		if !wholeMS(c.s) {
			cases = append(cases, c)
		}
	}
	var prog strings.Builder
	prog.WriteString("import json\n")
	for i, c := range cases {
		var src bytes.Buffer
		if err := Python(&src, c.s, PythonOptions{}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, fmt.Sprintf("s%d.py", i)), src.Bytes())
		fmt.Fprintf(&prog, "import s%d\nprint(json.dumps(s%d.asks(%d / 1_000_000_000)))\n", i, i, c.horizon)
	}
	writeFile(t, filepath.Join(dir, "main.py"), []byte(prog.String()))
	lines := strings.Split(strings.TrimSpace(string(runIn(t, dir, py, "main.py"))), "\n")
	if len(lines) != len(cases) || len(cases) < 2 {
		t.Fatalf("%d lines for %d cases", len(lines), len(cases))
	}
	for i, c := range cases {
		var got []json.Number
		d := json.NewDecoder(strings.NewReader(lines[i]))
		d.UseNumber()
		if err := d.Decode(&got); err != nil {
			t.Fatal(err)
		}
		want, _ := c.s.Timeline().Asks(c.horizon)
		if g := secondsNS(t, got...); !slices.Equal(g, ints(want)) {
			t.Errorf("%s (%s): asks %v, want %v", c.name, schedule.Format(c.s), g, ints(want))
		}
	}
}
