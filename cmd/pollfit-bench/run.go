package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// command is one thing timed: a name and the child process to run.
type command struct {
	name string
	argv []string
}

// nowSchedule is the schedule eval replays: the README's "now".
const nowSchedule = "1s until 30s, 2s until 2m, 5s until 5m, 15s until 15m"

// commands are the children timed on the log at path, DuckDB's
// histogram query first: the rest are compared with it.
func commands(path, bin, old, dir string) ([]command, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	hist, err := writeQuery(dir, "histogram", histogramQuery(path))
	if err != nil {
		return nil, err
	}
	count, err := writeQuery(dir, "count", countQuery(path))
	if err != nil {
		return nil, err
	}
	sk, err := estimate.SketchSQL(estimate.SQLOptions{Dialect: "duckdb", Table: "payments", Holdout: 0.3, Seed: 1})
	if err != nil {
		return nil, err
	}
	sketchQ, err := writeQuery(dir, "sketch", "CREATE VIEW payments AS SELECT * FROM "+source(path)+";\n"+sk)
	if err != nil {
		return nil, err
	}
	out := func(name string) string { return filepath.Join(dir, name) }
	cmds := []command{
		{"DuckDB histogram query", []string{self, "-duckdb", hist}},
		{"DuckDB count query (2,000 bins)", []string{self, "-duckdb", count}},
		{"DuckDB sketch query (pollfit sql)", []string{self, "-duckdb", sketchQ}},
		{"pollfit estimate", []string{bin, "estimate", "-q", path}},
		{"pollfit sketch", []string{bin, "sketch", "-q", "--force", "-o", out("bench.sketch.csv"), path}},
		{"pollfit fit --requests-per-item 8 --horizon 15m", []string{bin, "fit", "-q", "--requests-per-item", "8", "--horizon", "15m", path}},
		{"pollfit eval (one schedule)", []string{bin, "eval", "-q", "-s", "now=" + nowSchedule, path}},
		{"pollfit frontier --budgets 4,8,16", []string{bin, "frontier", "-q", "--budgets", "4,8,16", path}},
		{"pollfit report --requests-per-item 8", []string{bin, "report", "-q", "--force", "--requests-per-item", "8", "-o", out("bench.html"), path}},
	}
	if baseQuery == "count" { // the baseline first
		cmds[0], cmds[1] = cmds[1], cmds[0]
	}
	if old != "" {
		cmds = append(cmds,
			command{"old pollfit fit --requests-per-item 8 --horizon 15m", []string{old, "fit", "-q", "--requests-per-item", "8", "--horizon", "15m", path}},
			command{"old pollfit eval (one schedule)", []string{old, "eval", "-q", "-s", "now=" + nowSchedule, path}})
	}
	return cmds, nil
}

// source is DuckDB's table function reading the log at path.
func source(path string) string {
	q := "'" + strings.ReplaceAll(path, "'", "''") + "'"
	if strings.HasSuffix(path, ".parquet") {
		return "read_parquet(" + q + ")"
	}
	return "read_csv(" + q + ", header = true, columns = {'created_at': 'TIMESTAMPTZ', 'settled_at': 'TIMESTAMPTZ', 'status': 'VARCHAR'})"
}

// histogramQuery is the DuckDB baseline: ages binned on a log
// scale (1000 bins a decade), counted by status, with the sum of ages.
func histogramQuery(path string) string {
	return `SELECT status, floor(log10(greatest(epoch(settled_at) - epoch(created_at), 0.001)) * 1000) AS bin,
	count(*) AS n, sum(epoch(settled_at) - epoch(created_at)) AS age_sum
FROM ` + source(path) + ` GROUP BY ALL`
}

// countQuery is issue 29's plainer baseline: ages in 2,000 log-spaced
// bins (250 a decade from 1 ms to 1e5 s, the rest at the ends), rows
// counted by status and bin.
func countQuery(path string) string {
	return `SELECT status, least(greatest(floor(log10(greatest(epoch(settled_at) - epoch(created_at), 0.001)) * 250), -750), 1249) AS bin,
	count(*) AS n
FROM ` + source(path) + ` GROUP BY ALL`
}

func writeQuery(dir, name, q string) (string, error) {
	p := filepath.Join(dir, name+".sql")
	return p, os.WriteFile(p, []byte(q), 0o644)
}

// measure is one child's wall time, CPU time and peak RSS.
type measure struct {
	wall, cpu float64
	peakKB    int64
}

// runOnce runs argv once and measures it.
func runOnce(argv []string) (measure, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stdout, cmd.Stderr = nil, os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return measure{}, err
	}
	ps := cmd.ProcessState
	m := measure{wall: time.Since(start).Seconds(), cpu: (ps.UserTime() + ps.SystemTime()).Seconds()}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		m.peakKB = ru.Maxrss // kB on Linux: the child's VmHWM
	}
	return m, nil
}

// keep makes b the fastest of b and m (its wall and CPU time), with the
// largest peak of the two.
func (b *measure) keep(m measure) {
	if m.wall < b.wall {
		b.wall, b.cpu = m.wall, m.cpu
	}
	b.peakKB = max(b.peakKB, m.peakKB)
}

// buildPollfit builds the pollfit binary into dir.
func buildPollfit(dir string) (string, error) {
	bin := filepath.Join(dir, "pollfit")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/pollfit")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build pollfit: %v: %s", err, out)
	}
	return bin, nil
}
