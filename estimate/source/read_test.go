package source_test

import (
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
)

const payments = "../../testdata/payments.csv"

// statusCounts counts the data rows of a CSV log by its status column,
// with encoding/csv: the reference Read's statistics must match.
func statusCounts(t *testing.T, path string) (rows int, by map[string]int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "status")
	by = map[string]int{}
	for _, r := range recs[1:] {
		by[r[col]]++
	}
	return len(recs) - 1, by
}

// hashSplit splits a log's items one by one as a sketch's hash does:
// the reference for the parallel pass's parts.
func hashSplit(t *testing.T, path string, holdout float64, seed uint64) (fitOn, heldOut []estimate.Item) {
	t.Helper()
	items, _, err := logs.Read([]string{path}, logs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	sk := &estimate.Sketch{Holdout: holdout, Seed: seed}
	for _, it := range items {
		n := sk.HeldOut.Items
		if sk.Add(it, 1); sk.HeldOut.Items > n {
			heldOut = append(heldOut, it)
		} else {
			fitOn = append(fitOn, it)
		}
	}
	return fitOn, heldOut
}

// sameItems reports whether two item lists hold the same items, in any
// order.
func sameItems(a, b []estimate.Item) bool {
	order := func(x, y estimate.Item) int {
		return cmp.Or(cmp.Compare(x.Age, y.Age), cmp.Compare(x.Created, y.Created), cmp.Compare(x.Status, y.Status), cmp.Compare(x.Signal, y.Signal))
	}
	a, b = slices.Clone(a), slices.Clone(b)
	slices.SortFunc(a, order)
	slices.SortFunc(b, order)
	return slices.Equal(a, b)
}

// TestReadSplitsAsTheHash: the Example's figures. payments.csv holds
// 10000 rows, 177 pending (counted with encoding/csv); read for a fit
// that looks for reset on signal, the one pass keeps every row in the
// item sample (fewer than its 20000 a part) and its parts are the rows
// the hash sends each way one by one, unweighted; fit.Study on those
// reference parts ships the Example's schedule at its cost.
func TestReadSplitsAsTheHash(t *testing.T) {
	rows, by := statusCounts(t, payments)
	in, err := source.Read(context.Background(), []string{payments}, source.Options{Holdout: 0.3, Seed: 1, Needs: source.Needs{Signals: true, Batches: true}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Stats.Items != int64(rows) || in.Stats.Pending != int64(by["pending"]) || rows != 10000 || by["pending"] != 177 {
		t.Fatalf("stats %+v, the CSV has %d rows, %d pending", in.Stats, rows, by["pending"])
	}
	fitOn, heldOut := hashSplit(t, payments, 0.3, 1)
	if in.Sampled != "the log has signals" || in.FitOn.Weighted() || in.HeldOut.Sample.Weighted() {
		t.Fatalf("sampled %q, weighted %v/%v", in.Sampled, in.FitOn.Weighted(), in.HeldOut.Sample.Weighted())
	}
	if len(fitOn) != 7038 || len(heldOut) != 2962 || !sameItems(in.FitOn.Items, fitOn) || !sameItems(in.HeldOut.Sample.Items, heldOut) {
		t.Fatalf("parts of %d and %d rows, the hash's %d and %d", in.FitOn.Len(), in.HeldOut.Sample.Len(), len(fitOn), len(heldOut))
	}
	if in.HeldOut.Holdout != 0.3 || in.HeldOut.Seed != 1 || in.All.Len() != rows {
		t.Errorf("held out %g seed %d, all %d rows", in.HeldOut.Holdout, in.HeldOut.Seed, in.All.Len())
	}
	var opt fit.StudyOptions
	opt.Budget.RequestsPerItem = 8
	res, err := fit.Study(context.Background(), fit.ItemSample(fitOn), &fit.HeldOut{Sample: fit.ItemSample(heldOut), Holdout: 0.3, Seed: 1}, opt)
	if err != nil {
		t.Fatal(err)
	}
	const want = "at 0s 2s 5s 10s, 2s until 20s, 5s until 1m, 10s until 5m, reset on signal"
	if got := res.Schedule.String(); got != want || fmt.Sprintf("%.3g", res.Fitted.RequestsPerItem) != "7.95" {
		t.Errorf("from the hash's parts: %s at %.3g requests, the Example's %s at 7.95", got, res.Fitted.RequestsPerItem, want)
	}
}

// TestReadBins: without Needs the pass keeps no item sample, and the
// parts are the sketch's bins, weighted, standing for the hash's rows.
func TestReadBins(t *testing.T) {
	in, err := source.Read(context.Background(), []string{payments}, source.Options{Holdout: 0.3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	fitOn, heldOut := hashSplit(t, payments, 0.3, 1)
	if in.Sampled != "" || in.Sketch.HasSample() || !in.FitOn.Weighted() || in.FitOn.Total() != float64(len(fitOn)) || in.HeldOut.Sample.Total() != float64(len(heldOut)) {
		t.Errorf("sampled %q, fit on %g rows (the hash's %d), held out %g (%d)", in.Sampled, in.FitOn.Total(), len(fitOn), in.HeldOut.Sample.Total(), len(heldOut))
	}
	if in.Bins() >= len(fitOn)+len(heldOut) || in.Bins() != in.FitOn.Len()+in.HeldOut.Sample.Len() {
		t.Errorf("%d bins for parts of %d and %d", in.Bins(), in.FitOn.Len(), in.HeldOut.Sample.Len())
	}
}

// TestReadItems: a caller that needs every row gets the items, for
// fit.Study to split (no held-out part); a histogram's bins come
// weighted by their counts.
func TestReadItems(t *testing.T) {
	in, err := source.Read(context.Background(), []string{payments}, source.Options{Holdout: 0.3, Needs: source.Needs{Always: "the test"}})
	if err != nil || in.HeldOut != nil || in.FitOn.Weighted() || in.FitOn.Len() != 10000 || in.Sketch != nil {
		t.Fatalf("%v: held out %v, %d items", err, in.HeldOut, in.FitOn.Len())
	}
	hist := writeFile(t, "h.csv", "lo_s,hi_s,final,pending\n0,2,3,0\n4,9,1,2\n")
	opt := source.Options{Needs: source.Needs{Signals: true}}
	opt.Log.Histogram = true
	in, err = source.Read(context.Background(), []string{hist}, opt)
	if err != nil || fmt.Sprint(in.FitOn.Weights) != "[3 1 2]" || in.FitOn.Total() != 6 || len(in.Notes) != 1 || !strings.Contains(in.Notes[0], "reset on signal not looked for") {
		t.Errorf("histogram: %v, weights %v, notes %q", err, in.FitOn.Weights, in.Notes)
	}
}

// TestStream: every row goes to one of at most logs.Sinks sinks.
func TestStream(t *testing.T) {
	var counts []*int
	in, err := source.Read(context.Background(), []string{payments}, source.Options{Stream: func() func([]estimate.Item, []float64) {
		n := new(int)
		counts = append(counts, n)
		return func(items []estimate.Item, _ []float64) { *n += len(items) }
	}})
	total := 0
	for _, n := range counts {
		total += *n
	}
	if err != nil || total != 10000 || len(counts) > logs.Sinks || in.Stats.Items != 10000 {
		t.Errorf("%v: %d items to %d sinks", err, total, len(counts))
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// threeRows is a log of three rows in two methods: a 2 s and a 4 s
// answer by card, a 10 s one by wallet.
const threeRows = `created_at,settled_at,status,method
2026-11-01T12:00:00Z,2026-11-01T12:00:02Z,settled,card
2026-11-01T12:00:01Z,2026-11-01T12:00:11Z,settled,wallet
2026-11-01T12:00:02Z,2026-11-01T12:00:06Z,settled,card
`

// TestGroups: with a group column, one sample per value in the order
// the values first came: the items whole (Needs.Always), or each value's
// bins in the parts of the sketch's split, standing for its rows.
func TestGroups(t *testing.T) {
	log := writeFile(t, "m.csv", threeRows)
	opt := source.Options{Holdout: 0.3, Seed: 1, Needs: source.Needs{Always: "the test"}}
	opt.Log.By = "method"
	in, err := source.Read(context.Background(), []string{log}, opt)
	if err != nil || len(in.Groups) != 2 || in.Groups[0].Value != "card" || in.Groups[1].Value != "wallet" {
		t.Fatalf("%v: %+v", err, in.Groups)
	}
	if a, b := in.Groups[0].Sample, in.Groups[1].Sample; a.Weighted() || a.Len() != 2 || a.Items[1].Age != 4 || b.Items[0].Age != 10 || in.All.Len() != 3 {
		t.Errorf("groups %+v %+v, all %d", a, b, in.All.Len())
	}
	opt.Needs = source.Needs{}
	in, err = source.Read(context.Background(), []string{log}, opt)
	if err != nil || len(in.Groups) != 2 || !in.FromLog || in.Groups[0].Total() != 2 || in.Groups[1].Total() != 1 || in.Groups[0].HeldOut == nil {
		t.Errorf("from the pass: %v, %+v", err, in.Groups)
	}
}
