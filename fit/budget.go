package fit

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/opterr"
)

// Budget is what the schedule may spend. Set exactly one of the fields
// (AsksBy goes with AsksByAge, MaxAttempts with Options.Horizon).
type Budget struct {
	// RequestsPerItem caps the mean number of requests per item; requests
	// stop when the answer is seen. Its continuous optimum asks at a rate
	// ∝ √(f/S).
	RequestsPerItem float64
	// AsksBy caps the asks made by age AsksByAge to an item that never
	// settles; the schedule stops at AsksByAge. Its continuous optimum
	// asks at a rate ∝ √f.
	AsksBy    int
	AsksByAge time.Duration
	// MaxAttempts caps the asks in all, up to the horizon, where the last
	// one is made: for retry schedules that must deliver within a window.
	MaxAttempts int
	// Price is the lag, in seconds, that one more request per item is
	// worth: the fit minimises mean lag + Price × requests per item (for
	// the RMS objective, mean squared lag in s² + Price × requests).
	Price float64
}

// MaxBudgetAsks is the most asks an asks-by or max-attempts budget may
// allow. The quantiser's programme keeps a cell for every count of asks
// up to the budget ((clauses+1) × boundaries × (asks+1) cells, 12 bytes
// each), so the ceiling bounds its memory at about 300 MB with 12
// clauses; a clause asks at most 5000 times, so few schedules could
// spend more.
const MaxBudgetAsks = 10000

// BudgetKind is which of a Budget's caps is set.
type BudgetKind uint8

const (
	// BudgetNone: no cap is set.
	BudgetNone BudgetKind = iota
	// BudgetRequests: Budget.RequestsPerItem.
	BudgetRequests
	// BudgetAsksBy: Budget.AsksBy asks by Budget.AsksByAge.
	BudgetAsksBy
	// BudgetMaxAttempts: Budget.MaxAttempts.
	BudgetMaxAttempts
	// BudgetPrice: Budget.Price.
	BudgetPrice
)

// String is the kind as the CLI's flag spells it ("requests-per-item",
// "asks-by", "max-attempts", "price"), or "none".
func (k BudgetKind) String() string {
	switch k {
	case BudgetNone:
		return "none"
	case BudgetRequests:
		return "requests-per-item"
	case BudgetAsksBy:
		return "asks-by"
	case BudgetMaxAttempts:
		return "max-attempts"
	case BudgetPrice:
		return "price"
	}
	return fmt.Sprintf("BudgetKind(%d)", uint8(k))
}

// CountsAsks reports whether the kind caps a count of asks up to an age
// (asks-by and max attempts), which is also the cost of an item that
// never answers, rather than requests per item or a price.
func (k BudgetKind) CountsAsks() bool { return k == BudgetAsksBy || k == BudgetMaxAttempts }

// Kind is which cap b sets: the first non-zero of RequestsPerItem,
// AsksBy, MaxAttempts and Price, or BudgetNone. A budget that sets more
// than one is refused by Fit; Kind does not check.
func (b Budget) Kind() BudgetKind {
	switch {
	case b.RequestsPerItem != 0:
		return BudgetRequests
	case b.AsksBy != 0:
		return BudgetAsksBy
	case b.MaxAttempts != 0:
		return BudgetMaxAttempts
	case b.Price != 0:
		return BudgetPrice
	}
	return BudgetNone
}

// IsZero reports whether b sets no cap (AsksByAge alone sets none).
func (b Budget) IsZero() bool { return b.Kind() == BudgetNone }

// String describes b for people: "8 requests per item", "20 asks by
// 2m", "8 attempts", "price 0.5 s per request", or "no budget".
func (b Budget) String() string {
	switch b.Kind() {
	case BudgetRequests:
		return fmt.Sprintf("%.4g requests per item", b.RequestsPerItem)
	case BudgetAsksBy:
		return fmt.Sprintf("%d asks by %s", b.AsksBy, schedule.FormatDuration(b.AsksByAge))
	case BudgetMaxAttempts:
		return fmt.Sprintf("%d attempts", b.MaxAttempts)
	case BudgetPrice:
		return fmt.Sprintf("price %.4g s per request", b.Price)
	}
	return "no budget"
}

// check validates b, with the horizon rules at horizon, and returns
// its kind.
func (b Budget) check(horizon time.Duration) (BudgetKind, error) {
	kind, err := b.checkValues()
	if err != nil {
		return 0, err
	}
	return kind, b.checkHorizon(horizon)
}

// checkValues validates b's own values: exactly one cap, in range.
func (b Budget) checkValues() (BudgetKind, error) {
	set := 0
	if b.RequestsPerItem != 0 {
		set++
		if !(b.RequestsPerItem >= 1) {
			return 0, opterr.Optionf("Budget.RequestsPerItem", b.RequestsPerItem, "want at least 1")
		}
	}
	if b.AsksBy != 0 {
		set++
		if b.AsksBy < 1 || b.AsksByAge <= 0 {
			return 0, opterr.Optionf("Budget.AsksBy", fmt.Sprintf("%d@%s", b.AsksBy, b.AsksByAge), "want a count ≥ 1 and a positive age, as in 20@2m")
		}
		if b.AsksBy > MaxBudgetAsks {
			return 0, opterr.Optionf("Budget.AsksBy", b.AsksBy, "want at most %d asks", MaxBudgetAsks)
		}
	}
	if b.MaxAttempts != 0 {
		set++
		if b.MaxAttempts < 2 {
			return 0, opterr.Optionf("Budget.MaxAttempts", b.MaxAttempts, "want at least 2")
		}
		if b.MaxAttempts > MaxBudgetAsks {
			return 0, opterr.Optionf("Budget.MaxAttempts", b.MaxAttempts, "want at most %d", MaxBudgetAsks)
		}
	}
	if b.Price != 0 {
		set++
		if !(b.Price > 0) || math.IsInf(b.Price, 0) {
			return 0, opterr.Optionf("Budget.Price", b.Price, "want a positive price")
		}
	}
	if set != 1 {
		return 0, opterr.Optionf("Budget", nil, "give exactly one budget: Budget.RequestsPerItem, Budget.AsksBy, Budget.MaxAttempts or Budget.Price")
	}
	return b.Kind(), nil
}

// checkHorizon validates the horizon a budget that counts asks stops
// at: an asks-by budget's own age (0 stands for it), a positive one for
// max attempts.
func (b Budget) checkHorizon(horizon time.Duration) error {
	switch b.Kind() {
	case BudgetAsksBy:
		if horizon != 0 && horizon != b.AsksByAge {
			return opterr.Optionf("Horizon", horizonText(horizon), "an asks-by budget N@T stops asking at T: give no other Horizon")
		}
	case BudgetMaxAttempts:
		if horizon <= 0 {
			return opterr.Optionf("Budget.MaxAttempts", b.MaxAttempts, "needs a Horizon, where the last attempt is made: not %s", horizonText(horizon))
		}
	}
	return nil
}

// limit is the budget's cap in its own measure (0 at a price).
func (b Budget) limit() float64 {
	switch b.Kind() {
	case BudgetRequests:
		return b.RequestsPerItem
	case BudgetAsksBy:
		return float64(b.AsksBy)
	case BudgetMaxAttempts:
		return float64(b.MaxAttempts)
	}
	return 0
}

// trial is one optimisation at a multiplier: what it spends and its
// objective.
type trial struct {
	mult      float64
	spent     float64
	objective float64
	ok        bool // a schedule exists at all
	sol       any
}

// search finds the multiplier whose optimum spends at most limit with the
// least objective. Spending falls as the multiplier rises; a discrete
// problem's spending jumps, so bisection brackets the budget, and every
// trial on the way (including a sweep between the bracketing
// multipliers) is kept if it fits: the duality gap is searched, not
// ignored.
func search(ctx context.Context, run func(mult float64) trial, limit float64) (trial, error) {
	return searchTol(ctx, run, limit, 1e-7, true)
}

// searchTol is search to a relative tolerance on the multiplier, with or
// without the sweep around the bracket. It stops, with ctx's error,
// once ctx is done.
func searchTol(ctx context.Context, run func(mult float64) trial, limit, tol float64, sweep bool) (trial, error) {
	best := trial{objective: math.Inf(1)}
	var err error
	keep := func(t trial) bool {
		if err = stopped(ctx, "fit"); err != nil {
			return false
		}
		fits := t.ok && t.spent <= limit*(1+1e-12)
		if fits && t.objective < best.objective {
			best = t
		}
		return fits
	}
	hi := 1.0
	for !keep(run(hi)) {
		hi *= 4
		if err != nil {
			return best, err
		}
		if hi > 1e15 {
			return best, infeasible("no schedule fits the budget", "it is too small for the first and last asks: raise it", "Budget")
		}
	}
	lo := hi / 4
	for err == nil && keep(run(lo)) {
		hi, lo = lo, lo/4
		if lo < 1e-15 {
			return best, nil // even a free ask fits
		}
	}
	for range 50 {
		if err != nil {
			return best, err
		}
		mid := math.Sqrt(lo * hi)
		if keep(run(mid)) {
			hi = mid
		} else {
			lo = mid
		}
		if hi/lo < 1+tol {
			break
		}
	}
	// Sweep a little either side of the bracket for a cheaper fit; hi
	// itself (k = 0) was run and kept already.
	for k := -4; k <= 4 && sweep && err == nil; k++ {
		if k != 0 {
			keep(run(hi * math.Pow(1.02, float64(k))))
		}
	}
	return best, err
}
