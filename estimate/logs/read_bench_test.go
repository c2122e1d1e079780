package logs

import (
	"bytes"
	"os"
	"path/filepath"
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
