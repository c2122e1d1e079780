package source_test

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
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
// column; so StudyGroups fits on as many items as Study does without
// the column. Before, each value's rows came whole and StudyGroups
// split them afresh, on other items.
func TestGroupsSplitAsWithout(t *testing.T) {
	values, fitRef, heldRef := hashSplitBy(t, ownLog, ownRead, "channel", 0.3, 1)
	whole, in := readWithAndWithout(t, source.Options{Holdout: 0.3, Seed: 1, Log: ownRead}, "channel")
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
	var so fit.GroupOptions
	so.Budget.RequestsPerItem, so.Holdout, so.Seed, so.NoLimit = 8, 0.3, 1, "the test counts items"
	so.Clauses, so.PerGroup = 2, true // the items fitted on are what counts here
	res, err := fit.StudyGroups(context.Background(), nil, in.Groups, so)
	if err != nil {
		t.Fatal(err)
	}
	var fitted float64
	for _, f := range res.Groups {
		fitted += f.Items
	}
	if fitted != whole.FitOn.Total() {
		t.Errorf("StudyGroups fits on %g items, the log without the column has %g to fit on", fitted, whole.FitOn.Total())
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

func heldTotal(g fit.Group) string {
	if g.HeldOut == nil {
		return "no held-out part"
	}
	return fmt.Sprint(g.HeldOut.Sample.Total())
}

// TestGroupsSampledAsAlone: where the fit needs the item sample and a
// value has more rows than the sample keeps, each group is its value's
// own sample, the one Read keeps of a log of that value's rows alone
// (filtered here line by line, pending rows censored at one time):
// the same rows, weighted alike, in the
// same parts; and the one pass keeps no more rows than the samples hold.
func TestGroupsSampledAsAlone(t *testing.T) {
	raw, err := os.ReadFile(ownLog)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	byValue := map[string][]string{}
	for _, l := range lines[1:] {
		v := strings.Split(l, ",")[1] // channel, the second column
		byValue[v] = append(byValue[v], l)
	}
	opt := source.Options{Holdout: 0.3, Seed: 1, Log: ownRead, SampleRows: 300, Needs: source.Needs{Aligned: "asks by the wall clock"}}
	// Pending rows are censored at one time, not at each filtered log's
	// latest timestamp.
	opt.Log.ObservedAt = time.Date(2026, 10, 25, 13, 0, 0, 0, time.UTC)
	alone := func(v string) *source.Input {
		t.Helper()
		log := writeFile(t, "alone.csv", lines[0]+"\n"+strings.Join(byValue[v], "\n")+"\n")
		o := opt
		o.Log.By = ""
		in, err := source.Read(context.Background(), []string{log}, o)
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	opt.Log.By = "channel"
	in, err := source.Read(context.Background(), []string{ownLog}, opt)
	if err != nil || len(in.Groups) != len(byValue) || len(byValue) < 2 {
		t.Fatalf("%v: %d groups of the log's %d values", err, len(in.Groups), len(byValue))
	}
	if in.Sampled == "" {
		t.Error("by channel: the groups are not said to be item samples")
	}
	for _, g := range in.Groups {
		ref := alone(g.Value)
		if len(byValue[g.Value])*7/10 <= opt.SampleRows || !ref.FitOn.Weighted() {
			t.Fatalf("channel %s: %d rows, too few for a capped sample of %d", g.Value, len(byValue[g.Value]), opt.SampleRows)
		}
		if g.HeldOut == nil || !sameSample(g.Sample, ref.FitOn) || !sameSample(g.HeldOut.Sample, ref.HeldOut.Sample) {
			t.Errorf("channel %s: parts of %d and %s rows, the log of its rows alone %d and %d", g.Value, g.Sample.Len(), heldTotal(g), ref.FitOn.Len(), ref.HeldOut.Sample.Len())
		}
		if g.Sample.Len() > opt.SampleRows || g.HeldOut.Sample.Len() > opt.SampleRows {
			t.Errorf("channel %s: parts of %d and %d rows, more than the sample's %d", g.Value, g.Sample.Len(), g.HeldOut.Sample.Len(), opt.SampleRows)
		}
	}
}

// sameSample reports whether two samples hold the same items with the
// same weights, in any order.
func sameSample(a, b fit.Sample) bool {
	type row struct {
		it estimate.Item
		w  float64
	}
	rows := func(s fit.Sample) []row {
		var out []row
		for i, it := range s.Items {
			out = append(out, row{it, s.Weight(i)})
		}
		slices.SortFunc(out, func(x, y row) int {
			return cmp.Or(cmp.Compare(x.it.Age, y.it.Age), cmp.Compare(x.it.Created, y.it.Created), cmp.Compare(x.it.Status, y.it.Status), cmp.Compare(x.w, y.w))
		})
		return out
	}
	return a.Weighted() == b.Weighted() && a.Scale == b.Scale && slices.Equal(rows(a), rows(b))
}

// TestGroupsWholeIsWithout: read with a group column in one pass, the
// input's whole (Whole) is the fitting part Read gives without the
// column, so the shared schedule of fit.StudyGroups is fit.Study's of
// the log read without it, from the bins and from the item samples; it
// is measured on the groups' held-out items, where the groups'
// schedules are (a replay of it there gives its row).
func TestGroupsWholeIsWithout(t *testing.T) {
	for _, needs := range []source.Needs{{}, {Aligned: "asks by the wall clock"}} {
		whole, in := readWithAndWithout(t, source.Options{Holdout: 0.3, Seed: 1, Log: ownRead, SampleRows: 600, Needs: needs}, "channel")
		if in.Whole() == nil || (in.Sampled == "") != (needs.Aligned == "") {
			t.Fatalf("needs %+v: whole %v, sampled %q", needs, in.Whole(), in.Sampled)
		}
		var so fit.GroupOptions
		so.Budget.RequestsPerItem, so.Holdout, so.Seed, so.NoLimit = 8, 0.3, 1, "the test compares schedules"
		want, err := fit.Study(context.Background(), whole.FitOn, whole.HeldOut, so.StudyOptions)
		if err != nil {
			t.Fatal(err)
		}
		res, err := fit.StudyGroups(context.Background(), in.Whole(), in.Groups, so)
		if err != nil {
			t.Fatal(err)
		}
		var held float64
		var tests []fit.Sample
		for _, g := range in.Groups {
			held += g.HeldOut.Sample.Total()
			tests = append(tests, g.HeldOut.Sample)
		}
		// The groups' schedules and the one schedule are set side by side
		// on the same held-out items, the groups', at the budget shared.
		if math.Abs(res.Total.Items-held) > 1e-6*held || math.Abs(res.SharedTotal.Items-held) > 1e-6*held || math.Abs(res.Allocation.Spent-8) > 1e-9 {
			t.Errorf("needs %+v: totals on %g and %g items, the groups hold out %g; %g requests per item shared, want 8", needs, res.Total.Items, res.SharedTotal.Items, held, res.Allocation.Spent)
		}
		got := res.Shared
		if schedule.Format(got.Schedule) != schedule.Format(want.Schedule) || got.FitOn.Total() != whole.FitOn.Total() {
			t.Errorf("needs %+v: shared %s fitted on %g items, without the column %s on %g", needs, schedule.Format(got.Schedule), got.FitOn.Total(), schedule.Format(want.Schedule), whole.FitOn.Total())
		}
		m, err := fit.ReplaySample(got.Schedule, fit.JoinSamples(tests...), fit.ReplayOptions{Horizon: got.GiveUp.Age})
		if err != nil {
			t.Fatal(err)
		}
		if got.Fitted.Lag != m.Lag || got.Fitted.RequestsPerItem != m.RequestsPerItem {
			t.Errorf("needs %+v: shared row %+v at %g requests, its replay on the groups' held-out items %+v at %g", needs, got.Fitted.Lag, got.Fitted.RequestsPerItem, m.Lag, m.RequestsPerItem)
		}
	}
}

// readWithAndWithout reads ownLog with opt, and again by column by.
func readWithAndWithout(t *testing.T, opt source.Options, by string) (whole, in *source.Input) {
	t.Helper()
	whole, err := source.Read(context.Background(), []string{ownLog}, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.Log.By = by
	if in, err = source.Read(context.Background(), []string{ownLog}, opt); err != nil {
		t.Fatal(err)
	}
	return whole, in
}
