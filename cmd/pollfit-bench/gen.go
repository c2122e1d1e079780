package main

import (
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
)

// generate writes a payments-like log of n rows (payRows) as CSV, or as
// Parquet from pollfit's writer (PLAIN pages, one row group a quarter of
// the rows).
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
		w := logs.NewParquetWriter(f, false, false)
		write, closeW = w.Write, w.Close
	} else {
		w := logs.NewCSVWriter(f, false, false)
		write, closeW = w.Write, w.Close
	}
	if err := payRows(n, 1<<20, write); err != nil {
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

// payRows hands n payments-like rows to write, chunk at a time:
// created_at spread over three days, ages from a mixture of log-normals,
// 2% failed, 3% pending.
func payRows(n, chunk int, write func([]logs.Row) error) error {
	rng := rand.New(rand.NewPCG(1, 2))
	start := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	span := 3 * 24 * time.Hour
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
	if len(buf) == 0 {
		return nil
	}
	return write(buf)
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
