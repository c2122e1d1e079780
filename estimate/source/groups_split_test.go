package source_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
)

// ownLog is a team's own export: columns of its own naming, a channel
// column, Berlin offsets.
const ownLog = "../../testdata/own.csv"

var ownRead = logs.Options{CreatedCol: "started", SettledCol: "finished", StatusCol: "state", PendingStatus: []string{"AWAITING_PSP"}}

// hashSplitBy splits a log's rows one by one as a sketch's hash does,
// value by value of column by: the reference for each group's parts.
func hashSplitBy(t *testing.T, path string, opt logs.Options, by string, holdout float64, seed uint64) (values []string, fitOn, heldOut map[string][]estimate.Item) {
	t.Helper()
	fitOn, heldOut = map[string][]estimate.Item{}, map[string][]estimate.Item{}
	sk := &estimate.Sketch{Holdout: holdout, Seed: seed}
	opt.By = by
	_, err := logs.EachBy([]string{path}, opt, func(it estimate.Item, _ float64, g int, v string) {
		if g == len(values) {
			values = append(values, v)
		}
		n := sk.HeldOut.Items
		if sk.Add(it, 1); sk.HeldOut.Items > n {
			heldOut[v] = append(heldOut[v], it)
		} else {
			fitOn[v] = append(fitOn[v], it)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return values, fitOn, heldOut
}

// TestGroupsSplitAsWithout: a row is fitted on or held out alike with
// and without a group column. From the pass's bins, each channel's parts
// stand for the rows the hash sends each way one by one (counted value
// by value), and together for the parts of the log read without the
// column; so StudySegments fits on as many items as Study does without
// the column. Before, each value's rows came whole and StudySegments
// split them afresh, on other items.
func TestGroupsSplitAsWithout(t *testing.T) {
	values, fitRef, heldRef := hashSplitBy(t, ownLog, ownRead, "channel", 0.3, 1)
	opt := source.Options{Holdout: 0.3, Seed: 1, Log: ownRead}
	whole, err := source.Read(context.Background(), []string{ownLog}, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Log.By = "channel"
	in, err := source.Read(context.Background(), []string{ownLog}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Groups) != len(values) || len(values) < 2 {
		t.Fatalf("%d groups, the log has values %q", len(in.Groups), values)
	}
	var fitOn, heldOut float64
	for i, g := range in.Groups {
		v := values[i]
		if g.Value != v || g.HeldOut == nil || g.Sample.Total() != float64(len(fitRef[v])) || g.HeldOut.Sample.Total() != float64(len(heldRef[v])) {
			t.Errorf("channel %s: %s's parts of %g and %s rows, the hash's %d and %d", v, g.Value, g.Sample.Total(), heldTotal(g), len(fitRef[v]), len(heldRef[v]))
			continue
		}
		fitOn, heldOut = fitOn+g.Sample.Total(), heldOut+g.HeldOut.Sample.Total()
	}
	if fitOn != whole.FitOn.Total() || heldOut != whole.HeldOut.Sample.Total() || in.All.Total() != whole.All.Total() {
		t.Errorf("by channel: parts of %g and %g rows (all %g), without the column %g and %g (all %g)", fitOn, heldOut, in.All.Total(), whole.FitOn.Total(), whole.HeldOut.Sample.Total(), whole.All.Total())
	}
	var so fit.SegmentOptions
	so.Budget.RequestsPerItem, so.Holdout, so.Seed, so.NoLimit = 8, 0.3, 1, "the test counts items"
	so.Clauses, so.PerSegment = 2, true // the items fitted on are what counts here
	res, err := fit.StudySegments(context.Background(), in.Groups, so)
	if err != nil {
		t.Fatal(err)
	}
	var fitted float64
	for _, f := range res.Segments {
		fitted += f.Items
	}
	if fitted != whole.FitOn.Total() {
		t.Errorf("StudySegments fits on %g items, the log without the column has %g to fit on", fitted, whole.FitOn.Total())
	}
}

// TestGroupsSplitItems: where each group is its rows (a log with
// signals, for a fit that looks for reset on signal), its parts are the
// rows the hash sends each way, one by one.
func TestGroupsSplitItems(t *testing.T) {
	raw, err := os.ReadFile(payments)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	var b strings.Builder
	b.WriteString(lines[0] + ",method\n")
	for i, l := range lines[1:] {
		fmt.Fprintf(&b, "%s,%s\n", l, []string{"card", "wallet", "bank"}[i%3])
	}
	log := writeFile(t, "m.csv", b.String())
	values, fitRef, heldRef := hashSplitBy(t, log, logs.Options{}, "method", 0.3, 1)
	opt := source.Options{Holdout: 0.3, Seed: 1, Needs: source.Needs{Signals: true}}
	opt.Log.By = "method"
	in, err := source.Read(context.Background(), []string{log}, opt)
	if err != nil || len(in.Groups) != 3 {
		t.Fatalf("%v: %d groups", err, len(in.Groups))
	}
	for i, g := range in.Groups {
		v := values[i]
		if g.Value != v || g.HeldOut == nil || g.Sample.Weighted() || !sameItems(g.Sample.Items, fitRef[v]) || !sameItems(g.HeldOut.Sample.Items, heldRef[v]) {
			t.Errorf("method %s: %s's parts of %d and %s rows, the hash's %d and %d", v, g.Value, g.Sample.Len(), heldTotal(g), len(fitRef[v]), len(heldRef[v]))
		}
	}
	if in.All.Len() != len(lines)-1 {
		t.Errorf("all %d rows, the log %d", in.All.Len(), len(lines)-1)
	}
}

func heldTotal(g fit.Segment) string {
	if g.HeldOut == nil {
		return "no held-out part"
	}
	return fmt.Sprint(g.HeldOut.Sample.Total())
}
