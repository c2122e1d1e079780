// Command pollfit-bench measures how fast pollfit reads big logs.
//
// It generates (once, reused when present) a CSV and a Parquet log of
// -rows payments-like rows in -dir, then reads each in a child process
// into a simple reduction (a count and a sum of ages) and reports the
// fastest of -runs reads: wall time, CPU time (user + system, telling
// how much a busy machine slowed the read), rows per second and the
// child's peak resident memory (VmHWM).
//
//	go run ./cmd/pollfit-bench -rows 10000000 -dir /tmp/pollfit-bench
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

func main() {
	rows := flag.Int("rows", 10_000_000, "rows in the generated logs")
	dir := flag.String("dir", filepath.Join(os.TempDir(), "pollfit-bench"), "folder for the generated logs (kept for reuse)")
	runs := flag.Int("runs", 3, "reads of each log; the fastest is reported")
	child := flag.String("read", "", "internal: read this log once and print the result as JSON")
	flag.Parse()
	if *child != "" {
		if err := readOnce(*child); err != nil {
			fmt.Fprintln(os.Stderr, "pollfit-bench:", err)
			os.Exit(1)
		}
		return
	}
	if err := bench(*rows, *dir, *runs); err != nil {
		fmt.Fprintln(os.Stderr, "pollfit-bench:", err)
		os.Exit(1)
	}
}

type result struct {
	Rows    int64   `json:"rows"`
	Seconds float64 `json:"seconds"`
	CPU     float64 `json:"cpu_seconds"` // user + system
	PeakKB  int64   `json:"peak_kb"`
	MeanAge float64 `json:"mean_age"`
}

func bench(rows int, dir string, runs int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	base := filepath.Join(dir, fmt.Sprintf("payments-%d", rows))
	for _, ext := range []string{".csv", ".parquet"} {
		path := base + ext
		if _, err := os.Stat(path); err == nil {
			continue
		}
		fmt.Printf("generating %s ...\n", path)
		if err := generate(path, rows); err != nil {
			return err
		}
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	for _, ext := range []string{".csv", ".parquet"} {
		path := base + ext
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		best := result{Seconds: math.Inf(1)}
		for range runs {
			out, err := exec.Command(self, "-read", path).Output()
			if err != nil {
				return fmt.Errorf("read %s: %v", path, err)
			}
			var r result
			if err := json.Unmarshal(out, &r); err != nil {
				return err
			}
			if r.Seconds < best.Seconds {
				best.Rows, best.Seconds, best.MeanAge, best.CPU = r.Rows, r.Seconds, r.MeanAge, r.CPU
			}
			best.PeakKB = max(best.PeakKB, r.PeakKB)
		}
		fmt.Printf("%-8s %6.0f MB  %d rows  %.3f s (cpu %.2f s)  %5.1f M rows/s  %5.0f MB/s  peak RSS %d MB  (mean age %.2f s)\n",
			strings.TrimPrefix(ext, "."), float64(info.Size())/1e6, best.Rows, best.Seconds, best.CPU,
			float64(best.Rows)/best.Seconds/1e6, float64(info.Size())/best.Seconds/1e6,
			best.PeakKB/1024, best.MeanAge)
	}
	return nil
}

// readOnce reads path into a count and a sum, the cheapest reduction.
func readOnce(path string) error {
	start := time.Now()
	var n int64
	var sum float64
	_, err := logs.Each([]string{path}, logs.Options{}, func(it estimate.Item) {
		n++
		sum += it.Age
	})
	if err != nil {
		return err
	}
	r := result{Rows: n, Seconds: time.Since(start).Seconds(), PeakKB: peakKB(), MeanAge: sum / float64(n)}
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) == nil {
		r.CPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// peakKB is this process's peak resident set size from /proc.
func peakKB() int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	return -1
}

// generate writes a payments-like log of n rows: created_at spread over
// three days, ages from a mixture of log-normals, 2% failed, 3% pending.
func generate(path string, n int) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	var write func([]logs.Row) error
	var closeW func() error
	if strings.HasSuffix(path, ".parquet") {
		w := logs.NewParquetWriter(f, false)
		write, closeW = w.Write, w.Close
	} else {
		w := logs.NewCSVWriter(f, false)
		write, closeW = w.Write, w.Close
	}
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	span := 3 * 24 * time.Hour
	const chunk = 1 << 20
	buf := make([]logs.Row, 0, chunk)
	for i := 0; i < n; i++ {
		created := start.Add(time.Duration(float64(span) * float64(i) / float64(n))).Truncate(time.Millisecond)
		row := logs.Row{Created: created, Status: "settled"}
		age := payAge(rng)
		switch u := rng.Float64(); {
		case u < 0.03:
			row.Status = "pending"
		case u < 0.05:
			row.Status = "failed"
			row.Settled = created.Add(time.Duration(age * 1e9)).Truncate(time.Millisecond)
		default:
			row.Settled = created.Add(time.Duration(age * 1e9)).Truncate(time.Millisecond)
		}
		buf = append(buf, row)
		if len(buf) == chunk {
			if err := write(buf); err != nil {
				return err
			}
			buf = buf[:0]
		}
	}
	if err := write(buf); err != nil {
		return err
	}
	if err := closeW(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// payAge draws a settle age in seconds: most in seconds, some in minutes.
func payAge(rng *rand.Rand) float64 {
	median, sigma := 2.0, 0.6
	switch u := rng.Float64(); {
	case u < 0.3:
		median, sigma = 30, 0.8
	case u < 0.37:
		median, sigma = 600, 1.0
	}
	return median * math.Exp(sigma*rng.NormFloat64())
}
