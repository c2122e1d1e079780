package logs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
)

// byRows are rows whose method is known from their index: every third
// row pending (no settled_at), its age then set at the latest timestamp.
func byRows(n int) []Row {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	methods := []string{"card", "wallet", "bank transfer", ""}
	rows := make([]Row, n)
	for i := range rows {
		c := start.Add(time.Duration(i) * time.Second)
		rows[i] = Row{Created: c, Status: "settled", Method: methods[i%len(methods)]}
		if i%3 == 0 {
			rows[i].Status = "pending"
		} else {
			rows[i].Settled = c.Add(time.Duration(i%len(methods)+1) * time.Second)
		}
	}
	return rows
}

// TestEachBy: CSV and Parquet deliver each item with its row's method,
// pending items censored at the default observed-at (delivered last,
// spilled to disk past pendingSpill) included, values in delivery order (pending ones last);
// Each ignores By.
func TestEachBy(t *testing.T) {
	defer func(n, c int) { pendingSpill, chunkSize = n, c }(pendingSpill, chunkSize)
	pendingSpill, chunkSize = deferBlock, 1<<12 // spill, and parse chunks in parallel
	const n = 4*deferBlock*3 + 5
	rows := byRows(n)
	dir := t.TempDir()
	var csv, pq bytes.Buffer
	if err := WriteCSV(&csv, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&pq, rows); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"by.csv": csv.Bytes(), "by.parquet": pq.Bytes()} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		counts := map[string][2]int{} // final, pending
		var seen []string
		st, err := EachBy([]string{p}, Options{By: " METHOD "}, func(it estimate.Item, w float64, seg int, v string) {
			if seg == len(seen) {
				seen = append(seen, v)
			}
			if seg > len(seen) || seen[seg] != v || w != 1 {
				t.Fatalf("%s: value %q at index %d after %q, weight %v", name, v, seg, seen, w)
			}
			c := counts[v]
			if it.Status.Final() {
				// a settled row's age says its method: i%4+1 seconds
				if want := []string{"card", "wallet", "bank transfer", ""}[int(it.Age)-1]; want != v {
					t.Fatalf("%s: item of age %v in segment %q, want %q", name, it.Age, v, want)
				}
				c[0]++
			} else {
				c[1]++
			}
			counts[v] = c
		})
		if err != nil {
			t.Fatal(name, err)
		}
		want := map[string][2]int{}
		for i, r := range rows {
			c := want[r.Method]
			c[min(i%3, 1)^1]++
			want[r.Method] = c
		}
		if fmt.Sprint(counts) != fmt.Sprint(want) {
			t.Errorf("%s: counts by method %v, want %v", name, counts, want)
		}
		if got := strings.Join(st.Values, "|"); got != "wallet|bank transfer|card|" || got != strings.Join(seen, "|") {
			t.Errorf("%s: values %q, want in first-delivery order", name, got)
		}
		if _, err := Each([]string{p}, Options{By: "missing"}, func(estimate.Item) {}); err != nil {
			t.Errorf("%s: Each should ignore By: %v", name, err)
		}
		if _, err := EachBy([]string{p}, Options{By: "missing"}, func(estimate.Item, float64, int, string) {}); err == nil || !strings.Contains(err.Error(), `no column "missing"`) {
			t.Errorf("%s: a missing By column: %v", name, err)
		}
	}
}

// TestEachByCardinality: a column of more than MaxByValues values is
// refused, naming the file, line and column, even under SkipBad.
func TestEachByCardinality(t *testing.T) {
	var b strings.Builder
	b.WriteString("duration,id\n")
	for i := range MaxByValues + 1 {
		fmt.Fprintf(&b, "1,id%d\n", i)
	}
	p := readWrite(t, "ids.csv", b.String())
	_, err := EachBy([]string{p}, Options{By: "id", SkipBad: true}, func(estimate.Item, float64, int, string) {})
	want := fmt.Sprintf("ids.csv:%d:2: column id: more than %d distinct values", MaxByValues+2, MaxByValues)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want %q", err, want)
	}
}
