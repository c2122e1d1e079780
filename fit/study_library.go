package fit

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Library families, for teams that cannot ship a custom schedule: the
// best member of a retry library's family at the study's budget, on the
// fitting items, measured on the held-out ones beside the fitted
// schedule, so that a team sees what the library's family gives up.
//
//   - "exponential": exponential backoff, initial wait 100 ms to 30 s,
//     factor 1.5, 2 or 3, capped at 5 s to 5 min or not, with or without
//     full jitter, asking until the give-up age;
//   - "grpc": a gRPC retryPolicy: exponential with a cap, 2 to 5
//     attempts (the first call included; gRPC cuts more to 5 unless the
//     client raises its limit), each wait spread as the client named by
//     StudyOptions.GRPCClient does (backoff.GRPCClients): cap × U(0.8,
//     1.2) for grpc-go, grpc-java and grpc-node (@grpc/grpc-js 1.14 on),
//     U(0, cap) for @grpc/grpc-js 1.13 and earlier ("node-1.13").
//
// A member that stops before the give-up age misses the answers after
// its last attempt; the search ranks members by their wait, a missed
// answer counting as waiting until the give-up age (WaitLag), so that
// a member cannot look fast by giving up early.

// LibraryFit is the best member of a library family.
type LibraryFit struct {
	Family string
	// Client is the gRPC client whose timing the "grpc" family models.
	Client   backoff.GRPCClient
	Strategy backoff.Backoff
	// Fitted is the strategy replayed on the held-out items (medians over
	// libraryRuns realisations when it has jitter), and Tried the members
	// searched.
	Fitted Row
	Tried  int
	// WaitLag is the mean wait on the held-out items with a missed answer
	// counting as waiting until the give-up age (the fitted schedule asks
	// there, so for it the two are the same).
	WaitLag float64
}

// libraryRuns are the realisations a jittered member is replayed over:
// fewer for the search, more for the figures shown.
const libraryRuns, librarySearchRuns = 50, 8

// library fits opt.Family.
func (st *study) library() error {
	fam := st.opt.Family
	if fam == "" {
		return nil
	}
	if fam != "exponential" && fam != "grpc" {
		return fmt.Errorf("family %q: want exponential or grpc", fam)
	}
	r := st.res
	if r.Budget.Kind() != BudgetRequests || r.Never {
		return fmt.Errorf("family %s: needs a requests budget and a give-up age", fam)
	}
	lf := &LibraryFit{Family: fam}
	if fam == "grpc" {
		c, err := backoff.GRPCClientNamed(st.opt.GRPCClient)
		if err != nil {
			return fmt.Errorf("family grpc: %w", err)
		}
		lf.Client = c
	}
	best := math.Inf(1)
	for _, b := range libraryMembers(fam, lf.Client.Jitter) {
		if err := st.stopped("family " + fam); err != nil {
			return err
		}
		lf.Tried++
		m, wait, stuck, err := st.replayStrategy(b, st.train, librarySearchRuns)
		if err != nil {
			return err
		}
		if m.RequestsPerItem <= r.Budget.RequestsPerItem*(1+1e-9) && stuck <= float64(r.StuckCap)+1e-9 && wait < best {
			best, lf.Strategy = wait, b
		}
	}
	if math.IsInf(best, 1) {
		r.Notes = append(r.Notes, fmt.Sprintf("no %s backoff fits the budget and the stuck cap", fam))
		return nil
	}
	m, wait, stuck, err := st.replayStrategy(lf.Strategy, st.test, libraryRuns)
	if err != nil {
		return err
	}
	m.Name = fam
	lf.Fitted, lf.WaitLag = RowOf(m, stuck), wait
	r.Library = lf
	return nil
}

// replayStrategy replays b on smp to the give-up age: its figures (medians
// over the realisations for a jittered one), its mean wait with a missed
// answer waiting until the give-up age, and its mean stuck cost (asks by
// that age).
func (st *study) replayStrategy(b backoff.Backoff, smp Sample, runs int) (Metrics, float64, float64, error) {
	h := st.res.GiveUp.Age
	m, err := ReplayStrategySample(st.ctx, b, smp, ReplayOptions{Horizon: h}, st.opt.Seed, runs)
	if err != nil {
		return Metrics{}, 0, 0, err
	}
	if b.Deterministic() {
		runs = 1
	}
	var asks, wait float64
	for k := range runs {
		if err := st.stopped("family replay"); err != nil {
			return Metrics{}, 0, 0, err
		}
		at := backoff.Asks(b, rand.New(rand.NewPCG(st.opt.Seed, uint64(k))), h)
		asks += float64(len(at))
		if at[len(at)-1] < h {
			at = append(at, h) // the give-up age sees what it missed
		}
		w, err := ReplaySample(&schedule.Schedule{Clauses: []schedule.Clause{{At: at}}}, smp, ReplayOptions{Horizon: h})
		if err != nil {
			return Metrics{}, 0, 0, err
		}
		wait += w.Lag.Mean
	}
	m.Schedule = b.String()
	return m, wait / float64(runs), asks / float64(runs), nil
}

// libraryMembers are the family's members searched; a "grpc" member
// waits with the client's jitter grpcJitter.
func libraryMembers(fam string, grpcJitter backoff.Jitter) []backoff.Backoff {
	ms, s, m := time.Millisecond, time.Second, time.Minute
	initials := []time.Duration{100 * ms, 200 * ms, 500 * ms, s, 2 * s, 5 * s, 10 * s, 30 * s}
	caps := []time.Duration{0, 5 * s, 10 * s, 30 * s, m, 2 * m, 5 * m}
	jitters := []backoff.Jitter{{}, {Kind: backoff.Full}}
	attempts := []int{0}
	if fam == "grpc" {
		caps, jitters, attempts = caps[1:], []backoff.Jitter{grpcJitter}, []int{2, 3, 4, 5}
	}
	var out []backoff.Backoff
	for _, in := range initials {
		for _, f := range []float64{1.5, 2, 3} {
			for _, c := range caps {
				for _, j := range jitters {
					for _, a := range attempts {
						if c > 0 && c < in {
							continue
						}
						out = append(out, backoff.Backoff{Kind: backoff.Exponential, Initial: in, Factor: f, Max: c, Jitter: j, Attempts: a})
					}
				}
			}
		}
	}
	return out
}
