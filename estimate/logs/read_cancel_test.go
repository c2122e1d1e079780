package logs

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// TestEachContextStops: a read whose context is cancelled midway (from
// the callback, after the first thousand items) stops at the next batch
// with context.Canceled, long before the end of the file; cancelled
// before it starts, it delivers nothing. CSV and Parquet alike.
func TestEachContextStops(t *testing.T) {
	rows := readLogRows(300_000, 5)
	dir := t.TempDir()
	var csv, pq bytes.Buffer
	if err := WriteCSV(&csv, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&pq, rows); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"log.csv": csv.Bytes(), "log.parquet": pq.Bytes()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		_, err := EachContext(ctx, []string{p}, Options{}, func(estimate.Item) {
			if n++; n == 1000 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "read "+p+": stopped: context canceled") {
			t.Errorf("%s: %v, want context.Canceled naming the file", name, err)
		}
		if n >= len(rows)/2 {
			t.Errorf("%s: %d of %d items delivered after the cancel at 1000", name, n, len(rows))
		}
		if items, _, err := ReadContext(ctx, []string{p}, Options{}); !errors.Is(err, context.Canceled) || len(items) != 0 {
			t.Errorf("%s, cancelled before: %v (%d items), want context.Canceled and none", name, err, len(items))
		}
		// EachByContext stops alike.
		ctx, cancel = context.WithCancel(context.Background())
		n = 0
		_, err = EachByContext(ctx, []string{p}, Options{By: "status"}, func(estimate.Item, float64, int, string) {
			if n++; n == 1000 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) || n >= len(rows)/2 {
			t.Errorf("%s, by status: %v after %d of %d items, want context.Canceled soon after 1000", name, err, n, len(rows))
		}
	}
}
