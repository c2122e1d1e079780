package export

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// goCase is one schedule compiled into the temporary module, with what
// the program there is asked to compute and what the schedule package
// says it should get.
type goCase struct {
	name    string
	s       *schedule.Schedule
	created int64 // Unix nanoseconds
	horizon time.Duration
	signals []time.Duration // ages, increasing
	probes  []time.Duration // ages for Next and NextFrom
	slow    time.Duration   // how long each check of the slow walk takes
}

// goResult is what the program prints for a case, one JSON line each.
type goResult struct {
	Name     string
	Asks     []int64
	AsksFrom []int64
	Walk     []int64
	SlowWalk []int64
	AfterEnd []int64    // NextBackOff twice after the end
	Next     [][2]int64 // wait, ok (1 or 0) for each probe
	NextFrom [][2]int64
	End      [2]int64
}

func goTool(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the generated-Go build in -short mode")
	}
	gotool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go tool is not on PATH; skipping the build of generated Go")
	}
	return gotool
}

// goCommand runs the go tool in dir and returns its combined output.
func goCommand(gotool, dir string, args ...string) ([]byte, error) {
	cmd := exec.Command(gotool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	return cmd.CombinedOutput()
}

// runGo runs the go tool in dir and returns its standard output.
func runGo(t *testing.T, gotool, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(gotool, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "GOTOOLCHAIN=local")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goCases are the seeds and 40 random schedules, each with a creation
// time (some before 1970, to reach the negative side of the aligned
// arithmetic), a horizon short enough for a few thousand asks, a few
// signals and probe ages.
func goCases(t *testing.T) []goCase {
	r := rand.New(rand.NewPCG(3, 4))
	var named []namedSchedule
	for _, sd := range seeds {
		named = append(named, namedSchedule{sd.name, mustParse(t, sd.dsl)})
	}
	for i := range 40 {
		named = append(named, namedSchedule{fmt.Sprintf("random%d", i), randomSchedule(t, r)})
	}
	return casesFor(r, rand.New(rand.NewPCG(5, 6)), named)
}

type namedSchedule struct {
	name string
	s    *schedule.Schedule
}

// casesFor makes a case of each schedule, drawing its creation time,
// signals and probes from r and its slow check from rs.
func casesFor(r, rs *rand.Rand, named []namedSchedule) []goCase {
	var cases []goCase
	for _, n := range named {
		created := int64(1_700_000_123_456_789_012) + r.Int64N(int64(24*time.Hour))
		if len(cases)%4 == 3 {
			created = -int64(10*365*24*time.Hour) + r.Int64N(int64(time.Hour))
		}
		h := horizonFor(n.s, created)
		c := goCase{name: n.name, s: n.s, created: created, horizon: h}
		c.slow = time.Duration(1+rs.Int64N(int64(h/20/time.Millisecond)+1)) * time.Millisecond
		for range 3 {
			c.signals = append(c.signals, time.Duration(r.Int64N(int64(h)+1)))
		}
		slices.Sort(c.signals)
		c.signals = slices.Compact(c.signals)
		c.probes = []time.Duration{0, 1, h / 3, h / 2, h, h + time.Hour}
		for range 4 {
			c.probes = append(c.probes, time.Duration(r.Int64N(int64(h)+1)))
		}
		cases = append(cases, c)
	}
	return cases
}

// horizonFor is a horizon past the end of a stopping schedule, or 20
// minutes, halved until the schedule asks at most 3000 times by then.
func horizonFor(s *schedule.Schedule, created int64) time.Duration {
	h := 20 * time.Minute
	if end, ok := s.End(); ok {
		h = end + time.Second
	}
	for {
		n := s.Timeline().Count(h)
		for _, a := range s.Aligned {
			n += a.Count(created, h)
		}
		if n <= 3000 {
			return h
		}
		h /= 2
	}
}

func ints(ds []time.Duration) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = int64(d)
	}
	return out
}

// TestGeneratedGo writes every case's generated Go into one temporary
// module (the first file with the types, the others with VarOnly),
// vets it, runs a program over all cases and checks what it prints
// against the schedule package: Asks against Timeline.Asks, AsksFrom
// against ItemAsks, Next and NextFrom at probe ages against
// Timeline.Next and Aligned.Next, End, and a BackOff walk with an
// injected clock and signals against expectedWalk.
func TestGeneratedGo(t *testing.T) {
	gotool := goTool(t)
	dir := t.TempDir()
	cases := goCases(t)
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.18\n"))
	var table strings.Builder
	for i, c := range cases {
		var src bytes.Buffer
		opt := GoOptions{Package: "poll", Var: fmt.Sprintf("S%d", i), VarOnly: i > 0}
		if err := Go(&src, c.s, opt); err != nil {
			t.Fatal(err)
		}
		checkImports(t, c.name, src.Bytes())
		writeFile(t, filepath.Join(dir, "poll", fmt.Sprintf("s%d.go", i)), src.Bytes())
		fmt.Fprintf(&table, "\t{%q, poll.S%d, %d, %d, %#v, %#v, %d},\n", c.name, i, c.created, c.horizon, ints(c.signals), ints(c.probes), c.slow)
	}
	writeFile(t, filepath.Join(dir, "main.go"), []byte(strings.Replace(walkProgram, "\t// CASES\n", table.String(), 1)))
	runGo(t, gotool, dir, "vet", "./...")
	out := runGo(t, gotool, dir, "run", ".")

	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	n := 0
	for ; sc.Scan(); n++ {
		var got goResult
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		checkGoResult(t, cases[n], got)
	}
	if n != len(cases) {
		t.Fatalf("program printed %d results for %d cases", n, len(cases))
	}
}

func checkGoResult(t *testing.T, c goCase, got goResult) {
	t.Helper()
	desc := fmt.Sprintf("%s (%s)", c.name, schedule.Format(c.s))
	asks, _ := c.s.Timeline().Asks(c.horizon)
	if !slices.Equal(got.Asks, ints(asks)) {
		t.Errorf("%s: Asks = %v, want %v", desc, got.Asks, ints(asks))
	}
	asksFrom, _ := c.s.ItemAsks(c.created, c.horizon)
	if !slices.Equal(got.AsksFrom, ints(asksFrom)) {
		t.Errorf("%s: AsksFrom = %v, want %v", desc, got.AsksFrom, ints(asksFrom))
	}
	for i, p := range c.probes {
		if want := expectedNext(c, p, false); got.Next[i] != want {
			t.Errorf("%s: Next(%v) = %v, want %v", desc, p, got.Next[i], want)
		}
		if want := expectedNext(c, p, true); got.NextFrom[i] != want {
			t.Errorf("%s: NextFrom(%v) = %v, want %v", desc, p, got.NextFrom[i], want)
		}
	}
	end, ok := c.s.End()
	if want := [2]int64{int64(end), map[bool]int64{true: 1}[ok]}; got.End != want {
		t.Errorf("%s: End = %v, want %v", desc, got.End, want)
	}
	if want := expectedWalk(t, c); !slices.Equal(got.Walk, want) {
		t.Errorf("%s: BackOff walk with signals at %v:\n got %v\nwant %v", desc, c.signals, got.Walk, want)
	}
	if want := []int64{-1, -1}; ok && !slices.Equal(got.AfterEnd, want) {
		t.Errorf("%s: NextBackOff after the end = %v, want %v", desc, got.AfterEnd, want)
	}
	if want := expectedSlowWalk(t, c); !slices.Equal(got.SlowWalk, want) {
		t.Errorf("%s: BackOff walk with %v checks:\n got %v\nwant %v", desc, c.slow, got.SlowWalk, want)
	}
}

// checkImports checks that generated code imports only "time".
func checkImports(t *testing.T, name string, src []byte) {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), name+".go", src, parser.ImportsOnly|parser.ParseComments)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	for _, im := range f.Imports {
		if im.Path.Value != `"time"` {
			t.Errorf("%s: generated code imports %s", name, im.Path.Value)
		}
	}
}
