package logs

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// readBenchLog writes a 200 000-row log in format "csv" or "parquet".
func readBenchLog(b *testing.B, format string) string {
	b.Helper()
	rows := readLogRows(200_000, 11)
	for i := range rows {
		rows[i].Signal = time.Time{} // no signal column, like most logs
	}
	var buf bytes.Buffer
	var err error
	if format == "csv" {
		err = WriteCSV(&buf, rows)
	} else {
		err = WriteParquet(&buf, rows)
	}
	if err != nil {
		b.Fatal(err)
	}
	p := filepath.Join(b.TempDir(), "log."+format)
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

func benchmarkRead(b *testing.B, format string) {
	p := readBenchLog(b, format)
	info, _ := os.Stat(p)
	b.SetBytes(info.Size())
	b.ResetTimer()
	var rows int64
	for b.Loop() {
		var sum float64
		st, err := Each([]string{p}, Options{}, func(it estimate.Item) { sum += it.Age })
		if err != nil {
			b.Fatal(err)
		}
		rows += st.Rows
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkReadCSV reads a 200 000-row CSV log (RFC 3339 timestamps).
func BenchmarkReadCSV(b *testing.B) { benchmarkRead(b, "csv") }

// BenchmarkReadParquet reads the same log as snappy Parquet.
func BenchmarkReadParquet(b *testing.B) { benchmarkRead(b, "parquet") }

// pollerBenchLog writes a poller's log of about n ask rows (one row per
// ask: id, created_at, asked_at, status), as a poller writes it: items
// created over two days, asked at 1, 2 and 5 s and then every 15 s until
// their exponential settle age (mean 30 s, as readBenchLog's) or 10
// minutes, the rows in the order of their ask times, the timestamps as
// WriteCSV writes them.
func pollerBenchLog(b *testing.B, n int) string {
	b.Helper()
	type ask struct {
		id      int
		c, a    time.Time
		pending bool
	}
	rng := rand.New(rand.NewPCG(11, 7))
	start := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	gaps := []time.Duration{time.Second, 2 * time.Second, 5 * time.Second, 15 * time.Second}
	var asks []ask
	for id := 0; len(asks) < n; id++ {
		c := start.Add(time.Duration(rng.Int64N(int64(48 * time.Hour)))).Truncate(time.Millisecond)
		age := time.Duration(rng.ExpFloat64() * 30e9)
		at := time.Duration(0)
		for k := 0; at < 10*time.Minute && len(asks) < n; k++ {
			at += gaps[min(k, len(gaps)-1)] + time.Duration(rng.Int64N(50))*time.Millisecond
			asks = append(asks, ask{id, c, c.Add(at), at < age})
			if at >= age {
				break
			}
		}
	}
	sort.Slice(asks, func(i, j int) bool { return asks[i].a.Before(asks[j].a) })
	var buf bytes.Buffer
	buf.WriteString("id,created_at,asked_at,status\n")
	var line []byte
	for _, a := range asks {
		line = append(line[:0], "pay_"...)
		line = strconv.AppendInt(line, int64(a.id), 10)
		line = append(line, ',')
		line = appendCSVTime(line, a.c)
		line = append(line, ',')
		line = appendCSVTime(line, a.a)
		line = append(line, map[bool]string{true: ",pending\n", false: ",settled\n"}[a.pending]...)
		buf.Write(line)
	}
	p := filepath.Join(b.TempDir(), "asks.csv")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// BenchmarkReadPollerCSV reads a poller's log of 200 000 ask rows, as
// BenchmarkReadCSV reads a log of 200 000 rows: the rows/s of the two
// are the readers' ratio.
func BenchmarkReadPollerCSV(b *testing.B) {
	p := pollerBenchLog(b, 200_000)
	info, _ := os.Stat(p)
	b.SetBytes(info.Size())
	b.ResetTimer()
	var rows int64
	for b.Loop() {
		var sum float64
		st, err := EachPoller([]string{p}, PollerOptions{}, func(iv estimate.Interval) { sum += iv.Lo })
		if err != nil {
			b.Fatal(err)
		}
		rows += st.Rows
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}
