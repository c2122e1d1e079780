package loggen

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

func realistic(t *testing.T, seed uint64) *Realistic {
	t.Helper()
	g, err := NewRealistic(seed)
	if err != nil {
		t.Skipf("%v", err) // no zone data: the tzdata package
	}
	return g
}

// TestRealisticStreams checks that the rows come one by one in order of
// creation, inside the window, numbered, and the same for the same seed.
func TestRealisticStreams(t *testing.T) {
	g := realistic(t, 7)
	var prev time.Time
	n := 0
	err := g.Each(5000, func(r RealisticRow) error {
		n++
		if r.ID != n {
			t.Fatalf("row %d has id %d", n, r.ID)
		}
		if r.Started.Before(prev) || r.Started.Before(g.End.Add(-g.Window)) || r.Started.After(g.End) {
			t.Fatalf("row %d created at %v: after %v, inside the window wanted", n, r.Started, prev)
		}
		if !r.Finished.IsZero() && (r.Finished.Before(r.Started) || r.Finished.After(g.End)) {
			t.Fatalf("row %d finished at %v, created %v, log end %v", n, r.Finished, r.Started, g.End)
		}
		prev = r.Started
		return nil
	})
	if err != nil || n != 5000 {
		t.Fatalf("Each: %d rows, %v", n, err)
	}
	var a, b bytes.Buffer
	if err := g.WriteCSV(&a, 300); err != nil {
		t.Fatal(err)
	}
	if err := realistic(t, 7).WriteCSV(&b, 300); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two logs of seed 7 differ")
	}
}

// TestRealisticReadsBack writes a log whose items take about two hours
// across the night of the change to winter time and reads it with the
// columns and words RealisticReadFlags names: every age is the real time
// between the two instants, never shifted by the hour the clocks go
// back, and every status is the generator's.
func TestRealisticReadsBack(t *testing.T) {
	g := realistic(t, 1)
	g.Stuck, g.Timeout = 0.05, nil
	g.Channels = []Channel{{Name: "sepa", Share: 1, Modes: []Mode{{Weight: 1, Median: 2 * time.Hour, Sigma: 0.05}}, Declined: 0.1}}
	var rows []RealisticRow
	g.Each(2000, func(r RealisticRow) error { rows = append(rows, r); return nil })
	var buf bytes.Buffer
	if err := g.WriteCSV(&buf, 2000); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.Contains(text, "+02:00,") || !strings.Contains(text, "+01:00,") {
		t.Fatal("the log shows no summer and winter offsets")
	}
	path := filepath.Join(t.TempDir(), "own.csv")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := logs.Options{CreatedCol: RealisticCreated, SettledCol: RealisticSettled, StatusCol: RealisticStatus,
		PendingStatus: []string{RealisticStuckAs}}
	items, st, err := logs.Read([]string{path}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(rows) {
		t.Fatalf("read %d items of %d rows", len(items), len(rows))
	}
	byCreated := map[int64][]RealisticRow{}
	for _, r := range rows {
		byCreated[r.Started.UnixNano()] = append(byCreated[r.Started.UnixNano()], r)
	}
	change := time.Date(2026, 10, 25, 1, 0, 0, 0, time.UTC)
	across := 0
	for _, it := range items {
		rs := byCreated[it.Created]
		if len(rs) == 0 {
			t.Fatalf("item created at %v is no row's", time.Unix(0, it.Created))
		}
		r := rs[0]
		byCreated[it.Created] = rs[1:]
		want, status := st.ObservedAt.Sub(r.Started).Seconds(), estimate.Pending // censored at the last timestamp
		if !r.Finished.IsZero() {
			want, status = r.Finished.Sub(r.Started).Seconds(), estimate.Settled
			if r.State == RealisticFailedAs {
				status = estimate.Failed
			}
			if r.Started.Before(change) && r.Finished.After(change) {
				across++
			}
		}
		if math.Abs(it.Age-want) > 1e-6 || it.Status != status {
			t.Fatalf("row created %v (%s): read age %gs %v, want %gs %v", r.Started, r.State, it.Age, it.Status, want, status)
		}
	}
	if across < 50 {
		t.Fatalf("only %d items settle across the change: the test does not test it", across)
	}
}

// TestRealisticShares checks the shares drawn against the make-up, each
// within four binomial standard deviations.
func TestRealisticShares(t *testing.T) {
	for _, seed := range []uint64{2, 3, 5, 11} {
		g := realistic(t, seed)
		const n = 40000
		stuck, inChan := 0.0, map[string]float64{}
		g.Each(n, func(r RealisticRow) error {
			if r.State == RealisticStuckAs {
				stuck++
			}
			inChan[r.Channel]++
			return nil
		})
		near := func(what string, got, p float64) {
			if sd := math.Sqrt(p * (1 - p) / n); math.Abs(got/n-p) > 4*sd+1e-9 {
				t.Errorf("seed %d: %s share %.4f, want %.4f ± %.4f", seed, what, got/n, p, 4*sd)
			}
		}
		near("stuck", stuck, g.Stuck)
		for _, c := range g.Channels {
			near("channel "+c.Name, inChan[c.Name], c.Share)
		}
	}
}

// TestRealisticMakeUp checks that the seeds cover every shape the model
// promises: 1 to 4 channels and modes, timeouts and batches in about
// the shares the doc gives, 0 to 10% stuck.
func TestRealisticMakeUp(t *testing.T) {
	chans, modes := map[int]bool{}, map[int]bool{}
	timeouts, batches := 0, 0
	const seeds = 400
	for seed := range uint64(seeds) {
		g := realistic(t, seed)
		chans[len(g.Channels)] = true
		if g.Stuck < 0 || g.Stuck > 0.1 {
			t.Errorf("seed %d: stuck share %g", seed, g.Stuck)
		}
		if g.Timeout != nil {
			timeouts++
		}
		share := 0.0
		for _, c := range g.Channels {
			modes[len(c.Modes)] = true
			share += c.Share
			if c.Batch > 0 {
				batches++
			}
		}
		if math.Abs(share-1) > 1e-12 {
			t.Errorf("seed %d: channel shares add up to %g", seed, share)
		}
	}
	if len(chans) != 4 || len(modes) != 4 {
		t.Errorf("channel counts %v, mode counts %v: want 1 to 4 of each", chans, modes)
	}
	// Binomial(400, 0.5) and (400, 0.4): four standard deviations.
	if timeouts < 160 || timeouts > 240 || batches < 120 || batches > 200 {
		t.Errorf("%d logs of %d with a timeout (want about half), %d with batches (want about 4 in 10)", timeouts, seeds, batches)
	}
}
