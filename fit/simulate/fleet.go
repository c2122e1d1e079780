package simulate

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/pollfit/pollfit/internal/quantile"
	"math"
	"math/rand/v2"
	"time"

	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// Fleet is a fleet of items polling one status endpoint: items are
// created as a Poisson stream (and optionally a burst at once), each
// asks by Policy from its creation until it has its answer, and Load
// counts the requests the endpoint sees. Nothing is refused: this is
// the load a schedule puts on the endpoint, not a capacity model.
type Fleet struct {
	// Arrivals is the rate at which items are created; the zero Rate
	// means no stream (only the burst).
	Arrivals Rate
	Policy   Policy
	// Settle holds settle ages in seconds, drawn with replacement, one per
	// item: an item asks until its first ask at or after its settle age.
	// Empty: items never settle and ask until MaxAge.
	Settle []float64
	// MaxAge stops an item's asking at this age; default 1 h.
	MaxAge time.Duration
	// Duration is the measured span [0, Duration); default 10 m. Items
	// of the stream are created from −MaxAge on, so the span starts in
	// the steady state.
	Duration time.Duration
	// Burst items are created together at time 0, on top of the stream.
	Burst int
}

// Load is what the endpoint sees over the measured span.
type Load struct {
	// Mean is the requests per second over the span.
	Mean float64
	// Peak is the most requests in one second [k, k+1) of the span.
	Peak int
	// Echo is the most requests in one second after the first, [1, 2)
	// on: the retry waves of a burst created at 0, without the burst's
	// own first asks.
	Echo int
	// PerItem is the mean number of asks per item of the stream (all
	// its asks, in the span or not); the steady-state rate is
	// Arrivals·PerItem.
	PerItem float64
}

func (f Fleet) withDefaults() Fleet {
	if f.MaxAge == 0 {
		f.MaxAge = time.Hour
	}
	if f.Duration == 0 {
		f.Duration = 10 * time.Minute
	}
	return f
}

// Load simulates the fleet once, drawing creation times, settle ages
// and jitter from rng.
func (f Fleet) Load(rng *rand.Rand) (Load, error) {
	return f.load(context.Background(), rng)
}

// load is Load, stopping with ctx's error soon after ctx is done.
func (f Fleet) load(ctx context.Context, rng *rand.Rand) (Load, error) {
	f = f.withDefaults()
	if err := f.Policy.check(); err != nil {
		return Load{}, err
	}
	if f.MaxAge < 0 || f.Duration <= 0 || f.Burst < 0 {
		return Load{}, fmt.Errorf("fleet: negative max age, burst or duration")
	}
	if err := f.checkSize(); err != nil {
		return Load{}, err
	}
	var tl *schedule.Timeline
	if f.Policy.Schedule != nil {
		tl = f.Policy.Schedule.Timeline()
	}
	bins := make([]int, int((f.Duration+time.Second-1)/time.Second))
	var l Load
	total, stuck, asked := 0, false, 0
	item := func(created time.Duration) int {
		n := 0
		settle := f.MaxAge
		if len(f.Settle) > 0 {
			settle = min(settle, time.Duration(math.Ceil(f.Settle[rng.IntN(len(f.Settle))]*1e9)))
		}
		c := f.Policy.start(rng, tl, int64(created))
		age, ok := c.first()
		same, prev := 0, time.Duration(-1)
		for ok && age <= f.MaxAge {
			if asked++; asked > fleetAskLimit {
				return n
			}
			if age == prev {
				if same++; same >= maxSameAge {
					stuck = true
					return n
				}
			} else {
				same, prev = 0, age
			}
			n++
			if t := created + age; t >= 0 && t < f.Duration {
				bins[t/time.Second]++
				total++
			}
			if age >= settle || n > schedule.MaxAsks {
				break
			}
			age, ok = c.after(age)
		}
		return n
	}
	live := func(k int) bool { return k%ctxEvery != 0 || ctx.Err() == nil }
	for k := 0; k < f.Burst && live(k); k++ {
		item(0)
	}
	if f.Arrivals != (Rate{}) {
		rate, items, asks := f.Arrivals.PerSecond(), 0, 0
		for t := -f.MaxAge.Seconds() + rng.ExpFloat64()/rate; t < f.Duration.Seconds() && live(items); t += rng.ExpFloat64() / rate {
			asks += item(time.Duration(math.Round(t * 1e9)))
			items++
		}
		if items > 0 {
			l.PerItem = float64(asks) / float64(items)
		}
	}
	if ctx.Err() != nil {
		return Load{}, fmt.Errorf("simulate: stopped: %w", ctx.Err())
	}
	if asked > fleetAskLimit {
		return Load{}, fmt.Errorf("fleet: more than %d asks to simulate: lower the rate, burst or max age, or ask less often", fleetAskLimit)
	}
	if stuck {
		return Load{}, fmt.Errorf("fleet: %s asks %d times at one age: it retries without waiting", f.Policy, maxSameAge)
	}
	for k, b := range bins {
		l.Peak = max(l.Peak, b)
		if k > 0 {
			l.Echo = max(l.Echo, b)
		}
	}
	l.Mean = float64(total) / f.Duration.Seconds()
	return l, nil
}

// maxSameAge is how many asks in a row at one age Load tolerates before
// calling the policy stuck.
const maxSameAge = 1000

// FleetSummary is the spread of the loads of repeated runs.
type FleetSummary struct {
	Runs                   int
	Mean, Peak, Echo, Item backoff.Spread
}

// Repeat runs the fleet runs times (1 to MaxRuns); run i draws from a
// PCG seeded with (seed, i). The loads are folded into running quantile
// sketches, as Crowd.Repeat's results are, so memory does not grow with
// runs. It stops soon after ctx is done, with ctx's error wrapped.
func (f Fleet) Repeat(ctx context.Context, seed uint64, runs int) (FleetSummary, error) {
	if err := checkRuns(runs); err != nil {
		return FleetSummary{}, err
	}
	var mean, peak, echo, item quantile.Quantiles
	for i := range runs {
		l, err := f.load(ctx, rand.New(rand.NewPCG(seed, uint64(i))))
		if err != nil {
			return FleetSummary{}, err
		}
		mean.Add(l.Mean)
		peak.Add(float64(l.Peak))
		echo.Add(float64(l.Echo))
		item.Add(l.PerItem)
	}
	return FleetSummary{Runs: runs, Mean: mean.Spread(), Peak: peak.Spread(), Echo: echo.Spread(), Item: item.Spread()}, nil
}

// MarshalJSON writes the keys requests_per_s, peak_requests_per_s,
// echo_peak_per_s and asks_per_item, each {"median", "p10", "p90"}.
func (s FleetSummary) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Runs int        `json:"runs"`
		Mean jsonSpread `json:"requests_per_s"`
		Peak jsonSpread `json:"peak_requests_per_s"`
		Echo jsonSpread `json:"echo_peak_per_s"`
		Item jsonSpread `json:"asks_per_item"`
	}{s.Runs, jsonSpread(s.Mean), jsonSpread(s.Peak), jsonSpread(s.Echo), jsonSpread(s.Item)})
}
