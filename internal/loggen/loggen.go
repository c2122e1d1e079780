// Package loggen generates realistic settle-time logs from seeded models,
// for pollfit's sample data, tests and benchmarks.
//
// Every model creates items at a steady Poisson rate over a window that
// ends at the observation time End; an item whose answer would come after
// End is pending in the log (right-censored), as in a real export.
// Times are whole milliseconds, as databases usually store them.
//
// The models:
//
//   - Payments, the seed post's mix: 30% wallet payments settle almost at
//     once (lognormal, median 1.2 s, σ 0.5); 55% mobile money settle once
//     the customer approves the prompt (lognormal, median 12 s, σ 0.6:
//     nine in ten within 26 s), 3% of which are declined (failed, median
//     20 s); 10% drag on for minutes (lognormal, median 90 s, σ 0.8); 2%
//     are stuck and never settle. A push reaches the client for 70% of
//     final answers, a lognormal delay (median 1.5 s, σ 0.5) after it.
//   - Deadline: 75% approve (lognormal, median 10 s, σ 0.5) and 25% ignore
//     the prompt, which fails at the 60 s timeout (±50 ms, uniform; with
//     a spread σ, DeadlineSpread, normally distributed about 60 s).
//   - Timeout, a timeout spread by client timers, queues and retries:
//     50% approve (lognormal, median 8 s, σ 0.45: nineteen in twenty
//     within 17 s); 30% fail at the 60 s timeout, normally spread with
//     σ (1.5 s by default); 18% drag on for minutes (lognormal, median
//     2 min, σ 0.8); 2% are stuck and never settle.
//   - Batch: 80% settle in the batch run just after the first 5-minute
//     UTC wall-clock boundary after creation (lognormal, median 3 s, σ 0.3,
//     after the boundary); 20% settle on their own (lognormal, median 20 s,
//     σ 0.7).
//   - Segmented, a mix of four payment methods named in a method column
//     (Outcome.Method), each one of the shapes above: 35% wallet settle
//     at once (lognormal, median 0.8 s, σ 0.5); 30% mobile money settle
//     when the customer approves (lognormal, median 30 s, σ 0.5), 3% of
//     them declined (failed, median 40 s) and 5% stuck; 20% card payments
//     pass 3-D Secure (lognormal, median 6 s, σ 0.4) or, for 30% of them,
//     fail at its 60 s timeout (±50 ms, uniform); 15% bank transfers
//     settle in the batch run just after the first 5-minute UTC boundary
//     after creation (lognormal, median 3 s, σ 0.3, after the boundary).
//
// Realistic (NewRealistic) is not one model but a family: a payments
// export whose make-up (channels, modes, timeout, batches, stuck share)
// is itself drawn from the seed, written with its own column names and
// status words and Berlin offsets, streamed row by row.
package loggen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// End is the observation time of every generated log.
var End = time.Date(2026, 11, 2, 12, 0, 0, 0, time.UTC)

// Window is how long before End items are created.
const Window = 24 * time.Hour

// A Model draws the outcome of one item created at created.
type Model func(r *rand.Rand, created time.Time) Outcome

// Outcome is what happens to one item. Settle < 0 means never.
type Outcome struct {
	Settle time.Duration // age of the final answer, < 0 for never
	Failed bool
	Signal time.Duration // age of a signal, < 0 for none
	Method string        // the item's method column, empty for none
}

// Models lists the models by name, for the CLI.
var Models = map[string]Model{"payments": Payments, "deadline": Deadline, "batch": Batch, "timeout": Timeout(DefaultTimeoutSpread), "segmented": Segmented}

// DefaultTimeoutSpread is the spread of the Timeout model's timeouts in
// Models.
const DefaultTimeoutSpread = 1500 * time.Millisecond

// timeoutAge is the timeout of the Deadline and Timeout models.
const timeoutAge = 60 * time.Second

func lognormal(r *rand.Rand, median time.Duration, sigma float64) time.Duration {
	return time.Duration(float64(median) * math.Exp(sigma*r.NormFloat64()))
}

// Payments is the seed post's payment mix (see the package doc).
func Payments(r *rand.Rand, _ time.Time) Outcome {
	o := Outcome{Signal: -1}
	switch u := r.Float64(); {
	case u < 0.30:
		o.Settle = lognormal(r, 1200*time.Millisecond, 0.5)
	case u < 0.30+0.55*0.97:
		o.Settle = lognormal(r, 12*time.Second, 0.6)
	case u < 0.85:
		o.Settle, o.Failed = lognormal(r, 20*time.Second, 0.6), true
	case u < 0.98:
		o.Settle = lognormal(r, 90*time.Second, 0.8)
	default:
		o.Settle = -1
	}
	if o.Settle >= 0 && r.Float64() < 0.7 {
		o.Signal = o.Settle + lognormal(r, 1500*time.Millisecond, 0.5)
	}
	return o
}

// Deadline is the timeout model (see the package doc).
func Deadline(r *rand.Rand, _ time.Time) Outcome {
	if r.Float64() < 0.75 {
		return Outcome{Settle: lognormal(r, 10*time.Second, 0.5), Signal: -1}
	}
	jitter := time.Duration((r.Float64()*2 - 1) * float64(50*time.Millisecond))
	return Outcome{Settle: 60*time.Second + jitter, Failed: true, Signal: -1}
}

// DeadlineSpread is Deadline with its timeouts spread normally about
// 60 s with standard deviation sigma. A sigma of 0 is Deadline itself,
// draw for draw.
func DeadlineSpread(sigma time.Duration) Model {
	if sigma <= 0 {
		return Deadline
	}
	return func(r *rand.Rand, _ time.Time) Outcome {
		if r.Float64() < 0.75 {
			return Outcome{Settle: lognormal(r, 10*time.Second, 0.5), Signal: -1}
		}
		return Outcome{Settle: spread(r, timeoutAge, sigma), Failed: true, Signal: -1}
	}
}

// Timeout is the spread timeout model (see the package doc) with its
// timeouts spread normally with standard deviation sigma.
func Timeout(sigma time.Duration) Model {
	return func(r *rand.Rand, _ time.Time) Outcome {
		o := Outcome{Signal: -1}
		switch u := r.Float64(); {
		case u < 0.50:
			o.Settle = lognormal(r, 8*time.Second, 0.45)
		case u < 0.80:
			o.Settle, o.Failed = spread(r, timeoutAge, sigma), true
		case u < 0.98:
			o.Settle = lognormal(r, 2*time.Minute, 0.8)
		default:
			o.Settle = -1
		}
		return o
	}
}

// spread is age a jittered normally with standard deviation sigma,
// never below zero.
func spread(r *rand.Rand, a, sigma time.Duration) time.Duration {
	return max(0, a+time.Duration(float64(sigma)*r.NormFloat64()))
}

// Batch is the wall-clock batch model (see the package doc).
func Batch(r *rand.Rand, created time.Time) Outcome {
	if r.Float64() < 0.8 {
		return Outcome{Settle: batchRun(r, created), Signal: -1}
	}
	return Outcome{Settle: lognormal(r, 20*time.Second, 0.7), Signal: -1}
}

// Segmented is the four-method mix (see the package doc): a wallet,
// mobile money, card (3-D Secure) and bank transfer segment, each in the
// method column.
func Segmented(r *rand.Rand, created time.Time) Outcome {
	o := Outcome{Signal: -1}
	switch u := r.Float64(); {
	case u < 0.35:
		o.Method, o.Settle = "wallet", lognormal(r, 800*time.Millisecond, 0.5)
	case u < 0.65:
		o.Method = "mobile_money"
		switch v := r.Float64(); {
		case v < 0.05:
			o.Settle = -1
		case v < 0.08:
			o.Settle, o.Failed = lognormal(r, 40*time.Second, 0.5), true
		default:
			o.Settle = lognormal(r, 30*time.Second, 0.5)
		}
	case u < 0.85:
		o.Method = "card"
		if r.Float64() < 0.3 {
			jitter := time.Duration((r.Float64()*2 - 1) * float64(50*time.Millisecond))
			o.Settle, o.Failed = timeoutAge+jitter, true
		} else {
			o.Settle = lognormal(r, 6*time.Second, 0.4)
		}
	default:
		o.Method, o.Settle = "bank_transfer", batchRun(r, created)
	}
	return o
}

// batchRun is the age at which an item created at created settles in the
// batch run just after the next 5-minute UTC boundary.
func batchRun(r *rand.Rand, created time.Time) time.Duration {
	const period = 5 * time.Minute
	next := created.Truncate(period).Add(period)
	return next.Add(lognormal(r, 3*time.Second, 0.3)).Sub(created)
}

// Rows generates n log rows from model m with the given seed, sorted by
// creation time.
func Rows(m Model, n int, seed uint64) []logs.Row {
	var rows []logs.Row
	Stream(m, n, seed, n, func(chunk []logs.Row) error {
		rows = chunk
		return nil
	})
	return rows
}

// Stream generates the rows of Rows(m, n, seed) and hands them to fn in
// order, chunk rows at a time (the last chunk may be shorter; fn may not
// keep a chunk, which the next one reuses), stopping at fn's first
// error. It holds 4 bytes a row (the creation times, drawn and sorted
// first, in milliseconds into Window) and one chunk.
func Stream(m Model, n int, seed uint64, chunk int, fn func([]logs.Row) error) error {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	ms := make([]uint32, n) // Window is 86.4 million ms: 32 bits hold it
	for i := range ms {
		ms[i] = uint32(r.Int64N(int64(Window)) / int64(time.Millisecond))
	}
	slices.Sort(ms)
	start := End.Add(-Window)
	rows := make([]logs.Row, 0, max(1, min(chunk, n)))
	for i, x := range ms {
		c := start.Add(time.Duration(x) * time.Millisecond)
		rows = append(rows, row(c, m(r, c)))
		if len(rows) == cap(rows) || i == n-1 {
			if err := fn(rows); err != nil {
				return err
			}
			rows = rows[:0]
		}
	}
	return nil
}

func row(c time.Time, o Outcome) logs.Row {
	lr := logs.Row{Created: c, Status: "pending", Method: o.Method}
	if o.Settle < 0 {
		return lr
	}
	settled := c.Add(o.Settle).Truncate(time.Millisecond)
	if settled.After(End) {
		return lr
	}
	lr.Settled, lr.Status = settled, "settled"
	if o.Failed {
		lr.Status = "failed"
	}
	if o.Signal >= 0 {
		if sig := c.Add(o.Signal).Truncate(time.Millisecond); !sig.After(End) {
			lr.Signal = sig
		}
	}
	return lr
}

// Items converts generated rows to items as a reader would, censoring
// pending rows at End.
func Items(rows []logs.Row) []estimate.Item {
	items := make([]estimate.Item, len(rows))
	for i, lr := range rows {
		it := estimate.Item{Created: lr.Created.UnixNano(), Dated: true, Status: estimate.Pending, Age: End.Sub(lr.Created).Seconds()}
		if !lr.Settled.IsZero() {
			it.Age = lr.Settled.Sub(lr.Created).Seconds()
			it.Status = estimate.Settled
			if lr.Status == "failed" {
				it.Status = estimate.Failed
			}
		}
		if !lr.Signal.IsZero() {
			it = it.WithSignal(lr.Signal.Sub(lr.Created).Seconds())
		}
		items[i] = it
	}
	return items
}

// Lookup returns the model called name.
func Lookup(name string) (Model, error) {
	if m, ok := Models[name]; ok {
		return m, nil
	}
	return nil, fmt.Errorf("unknown model %q (payments, deadline, batch, timeout, segmented, realistic)", name)
}

// LookupSpread returns the model called name with its timeouts spread by
// sigma: the deadline model (sigma 0 is Deadline) or the timeout model.
// Other models have no timeout to spread.
func LookupSpread(name string, sigma time.Duration) (Model, error) {
	if sigma < 0 {
		return nil, fmt.Errorf("spread %v: want zero or more", sigma)
	}
	switch name {
	case "deadline":
		return DeadlineSpread(sigma), nil
	case "timeout":
		return Timeout(sigma), nil
	}
	if _, err := Lookup(name); err != nil {
		return nil, err
	}
	return nil, fmt.Errorf("model %q has no timeout to spread (deadline, timeout)", name)
}
