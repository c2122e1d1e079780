package logs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// TestEachParallel reads payments.csv through the sinks: its 10000
// items go in runs of 4096, run k to sink k mod Sinks (with two sinks,
// sink 0 gets items 0–4095 and 8192–9999, sink 1 items 4096–8191), each
// the same items in the same order as Each delivers them.
func TestEachParallel(t *testing.T) {
	paths := []string{"../../testdata/payments.csv"}
	want, wst, err := Read(paths, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got [][]estimate.Item
	st, err := EachParallel(context.Background(), paths, Options{}, func() func([]estimate.Item, []float64) {
		k := len(got)
		got = append(got, nil)
		return func(items []estimate.Item, ws []float64) {
			if len(ws) != len(items) {
				t.Fatalf("%d weights for %d items", len(ws), len(items))
			}
			for i, it := range items {
				if ws[i] != 1 {
					t.Errorf("weight %g", ws[i])
				}
				got[k] = append(got[k], it)
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Final != wst.Final || st.Pending != wst.Pending || st.HasCreated != wst.HasCreated {
		t.Errorf("counted %d final, %d pending (creation times %v), want %d, %d (%v)", st.Final, st.Pending, st.HasCreated, wst.Final, wst.Pending, wst.HasCreated)
	}
	if st.Items != wst.Items || st.Rows != 10000 || len(got) != Sinks {
		t.Fatalf("%d items in %d rows to %d sinks, want %d", st.Items, st.Rows, len(got), wst.Items)
	}
	wantSink := make([][]estimate.Item, Sinks)
	for i := 0; i < len(want); i += 4096 {
		k := i / 4096 % Sinks
		wantSink[k] = append(wantSink[k], want[i:min(i+4096, len(want))]...)
	}
	if Sinks == 2 && (len(wantSink[0]) != 5904 || len(wantSink[1]) != 4096) {
		t.Fatalf("the runs split %d and %d, want 5904 and 4096", len(wantSink[0]), len(wantSink[1]))
	}
	for k := range got {
		if len(got[k]) != len(wantSink[k]) {
			t.Errorf("sink %d: %d items, want %d", k, len(got[k]), len(wantSink[k]))
			continue
		}
		for i, it := range got[k] {
			if w := wantSink[k][i]; it.Age != w.Age || it.Status != w.Status || it.Created != w.Created {
				t.Fatalf("sink %d item %d: %+v, want %+v", k, i, it, w)
			}
		}
	}
}

// TestEachParallelBadRow: a bad row is EachWeighted's error, with its
// line and column, and the sinks are all closed.
func TestEachParallelBadRow(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.csv")
	text := "created_at,settled_at\n2026-01-01T00:00:00Z,2026-01-01T00:00:05Z\n2026-01-01T00:00:09Z,2026-01-01T00:00:05Z\n"
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := EachParallel(context.Background(), []string{p}, Options{}, func() func([]estimate.Item, []float64) {
		return func([]estimate.Item, []float64) {}
	})
	if err == nil || !strings.Contains(err.Error(), "bad.csv:3:") {
		t.Errorf("error %v, want one at bad.csv:3", err)
	}
}

// The runs that lie whole in a batch go to the sinks in place, and the
// batch goes back to the pool when they are done: with sinks that lag
// behind the reader, CSV and Parquet logs of many batches and a histogram
// (weighted items) still give each sink EachWeighted's items and weights
// dealt out in runs of 4096.
func TestEachParallelRunsInPlace(t *testing.T) {
	dir := t.TempDir()
	rows := readLogRows(60000, 13)
	var csvLog, pqLog, hist bytes.Buffer
	if err := WriteCSV(&csvLog, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&pqLog, rows); err != nil {
		t.Fatal(err)
	}
	hist.WriteString("lo_s,hi_s,final,pending\n")
	for i := range 30000 {
		fmt.Fprintf(&hist, "%d,%d,%d,%d\n", i, i+1, 1+i%7, i%3)
	}
	for name, data := range map[string][]byte{"log.csv": csvLog.Bytes(), "log.parquet": pqLog.Bytes(), "hist.csv": hist.Bytes()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		opt := Options{Histogram: strings.HasPrefix(name, "hist")}
		var want []estimate.Item
		var wantW []float64
		if _, err := EachWeighted([]string{p}, opt, func(it estimate.Item, w float64) {
			want, wantW = append(want, it), append(wantW, w)
		}); err != nil {
			t.Fatal(err)
		}
		got, gotW := make([][]estimate.Item, Sinks), make([][]float64, Sinks)
		var calls atomic.Int32
		k := 0
		_, err := EachParallel(context.Background(), []string{p}, opt, func() func([]estimate.Item, []float64) {
			s := k
			k++
			return func(items []estimate.Item, ws []float64) {
				if calls.Add(1)%3 == 0 {
					time.Sleep(2 * time.Millisecond) // let the reader run ahead
				}
				got[s], gotW[s] = append(got[s], items...), append(gotW[s], ws...)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < len(want); i += fanChunk {
			s, j := i/fanChunk%Sinks, i/fanChunk/Sinks*fanChunk
			end := min(i+fanChunk, len(want))
			if len(got[s]) < j+end-i {
				t.Fatalf("%s: sink %d has %d items, want at least %d", name, s, len(got[s]), j+end-i)
			}
			for n := range end - i {
				if got[s][j+n] != want[i+n] || gotW[s][j+n] != wantW[i+n] {
					t.Fatalf("%s: sink %d item %d: %+v (weight %v), want item %d: %+v (%v)", name, s, j+n, got[s][j+n], gotW[s][j+n], i+n, want[i+n], wantW[i+n])
				}
			}
		}
		if n := len(got[0]) + len(got[1]); n != len(want) {
			t.Errorf("%s: the sinks have %d items, want %d", name, n, len(want))
		}
	}
}
