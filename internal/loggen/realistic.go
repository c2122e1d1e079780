package loggen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Realistic is the make-up of one realistic payments export, drawn at
// random from a seed by NewRealistic: the shapes a team's own log shows
// and the bundled models each show one of. Items are created over Window
// before End; the log is written with Europe/Berlin offsets, and its
// window spans the October change from summer to winter time.
//
//   - 1 to 4 channels, each with its own share of the items and its own
//     mixture of 1 to 4 lognormal modes (medians from 300 ms to 5 min,
//     σ from 0.2 to 1.2), so they settle at different speeds;
//   - a share of each channel's answers declined (failed) early, drawn
//     from the same mixture;
//   - in about half the logs a PSP timeout: a spike of declines at a
//     whole number of seconds from 10 s to 2 min, spread uniformly by
//     ±50 ms or normally by up to 1.5 s;
//   - in about four logs of ten one channel settles in wall-clock
//     batches: most of its items a few seconds after the first 1-, 5- or
//     15-minute boundary after creation;
//   - 0 to 10% of the items stuck, pending forever.
type Realistic struct {
	End    time.Time
	Window time.Duration
	Zone   *time.Location
	// Channels are the values of the channel column, with their shares
	// (adding up to one) and settle-time shapes.
	Channels []Channel
	// Stuck is the share of items that never settle.
	Stuck float64
	// Timeout is the PSP timeout's spike of declines, nil for none.
	Timeout *Spike
	seed    uint64
}

// Channel is one value of the channel column.
type Channel struct {
	Name  string
	Share float64
	// Modes are the lognormal modes the channel's answers come from.
	Modes []Mode
	// Declined is the share of its answers that are declines.
	Declined float64
	// Timeout is the share of its items declined at the PSP timeout.
	Timeout float64
	// Batch is the wall-clock period its batches run at, 0 for none, and
	// Batched the share of its items settled in them.
	Batch   time.Duration
	Batched float64
}

// Mode is a lognormal mode of a mixture.
type Mode struct {
	Weight float64
	Median time.Duration
	Sigma  float64
}

// Spike is a timeout: answers at Age, spread uniformly by ±Jitter or,
// when Sigma is set, normally with standard deviation Sigma.
type Spike struct {
	Age           time.Duration
	Jitter, Sigma time.Duration
}

// The realistic log's columns and status words. Stuck items carry a
// pending word the reader does not know by default.
const (
	RealisticHeader    = "payment_id,channel,started,finished,state,amount_eur"
	RealisticCreated   = "started"
	RealisticSettled   = "finished"
	RealisticStatus    = "state"
	RealisticBy        = "channel"
	RealisticSettledAs = "COMPLETED"
	RealisticFailedAs  = "DECLINED"
	RealisticPendingAs = "IN_PROGRESS"
	RealisticStuckAs   = "AWAITING_PSP"
)

// RealisticEnd is the observation time of a realistic log: noon UTC on
// the day Europe/Berlin changes from summer time (+02:00) to winter time
// (+01:00), at 01:00 UTC, so its 24-hour window spans the change.
var RealisticEnd = time.Date(2026, 10, 25, 12, 0, 0, 0, time.UTC)

var channelNames = []string{"card", "wallet", "sepa", "ideal"}

// NewRealistic draws a realistic log's make-up from seed. It fails only
// when the system has no time zone data for Europe/Berlin.
func NewRealistic(seed uint64) (*Realistic, error) {
	zone, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		return nil, fmt.Errorf("realistic log: time zone Europe/Berlin: %v (install the tzdata package)", err)
	}
	r := rand.New(rand.NewPCG(seed, 0x5eed_ca5e))
	g := &Realistic{End: RealisticEnd, Window: Window, Zone: zone, seed: seed, Stuck: 0.1 * r.Float64()}
	if r.Float64() < 0.5 {
		g.Timeout = &Spike{Age: time.Duration(10+r.IntN(111)) * time.Second}
		if r.Float64() < 0.5 {
			g.Timeout.Jitter = 50 * time.Millisecond
		} else {
			g.Timeout.Sigma = time.Duration(r.Float64() * float64(1500*time.Millisecond))
		}
	}
	k := 1 + r.IntN(4)
	shares := dirichlet(r, k)
	batched := -1
	if r.Float64() < 0.4 {
		batched = r.IntN(k)
	}
	for i := range k {
		c := Channel{Name: channelNames[i], Share: shares[i], Declined: 0.1 * r.Float64()}
		c.Modes = drawModes(r)
		if g.Timeout != nil && r.Float64() < 0.7 {
			c.Timeout = 0.03 + 0.22*r.Float64()
		}
		if i == batched {
			c.Batch = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute}[r.IntN(3)]
			c.Batched = 0.6 + 0.3*r.Float64()
		}
		g.Channels = append(g.Channels, c)
	}
	return g, nil
}

// drawModes draws a mixture of 1 to 4 lognormal modes.
func drawModes(r *rand.Rand) []Mode {
	n := 1 + r.IntN(4)
	ws := dirichlet(r, n)
	modes := make([]Mode, n)
	for i := range modes {
		median := 0.3 * math.Pow(1000, r.Float64()) // 300 ms to 5 min
		modes[i] = Mode{Weight: ws[i], Median: time.Duration(median * float64(time.Second)), Sigma: 0.2 + r.Float64()}
	}
	return modes
}

// dirichlet is k shares drawn uniformly from the simplex, none below 5%.
func dirichlet(r *rand.Rand, k int) []float64 {
	ws := make([]float64, k)
	var t float64
	for i := range ws {
		ws[i] = r.ExpFloat64() + 0.05*float64(k)
		t += ws[i]
	}
	for i := range ws {
		ws[i] /= t
	}
	return ws
}

// RealisticRow is one row of a realistic log.
type RealisticRow struct {
	ID      int
	Channel string
	// Started is the creation time; Finished the final answer's time,
	// zero while pending.
	Started, Finished time.Time
	State             string
	AmountCents       int64
}

// outcome draws when and how an item created at created ends: its age
// (< 0 for never), whether it is declined, and its channel.
func (g *Realistic) outcome(r *rand.Rand, created time.Time) (time.Duration, bool, *Channel) {
	c := &g.Channels[len(g.Channels)-1]
	u := r.Float64()
	for i := range g.Channels {
		if u < g.Channels[i].Share {
			c = &g.Channels[i]
			break
		}
		u -= g.Channels[i].Share
	}
	if r.Float64() < g.Stuck {
		return -1, false, c
	}
	switch v := r.Float64(); {
	case v < c.Timeout:
		return g.Timeout.draw(r), true, c
	case c.Batch > 0 && v < c.Timeout+(1-c.Timeout)*c.Batched:
		next := created.Truncate(c.Batch).Add(c.Batch)
		return next.Add(lognormal(r, 4*time.Second, 0.3)).Sub(created), false, c
	}
	return mixture(r, c.Modes), r.Float64() < c.Declined, c
}

func (s *Spike) draw(r *rand.Rand) time.Duration {
	if s.Sigma > 0 {
		return spread(r, s.Age, s.Sigma)
	}
	return s.Age + time.Duration((r.Float64()*2-1)*float64(s.Jitter))
}

func mixture(r *rand.Rand, modes []Mode) time.Duration {
	u := r.Float64()
	for _, m := range modes[:len(modes)-1] {
		if u < m.Weight {
			return lognormal(r, m.Median, m.Sigma)
		}
		u -= m.Weight
	}
	m := modes[len(modes)-1]
	return lognormal(r, m.Median, m.Sigma)
}
