package export

import (
	"fmt"
	"math"
	"strconv"
)

// Explore makes the generated pollers (Go, JS, TS, Kotlin) explore: each
// item's age-based asks after the first and before the last are moved
// earlier by a seeded random fraction of the gap before them, so that
// the next poller log sees between the asks. See the package
// documentation, "Exploring". The zero value is off, and the output is
// then byte for byte what it is without Explore.
type Explore struct {
	// Fraction is F, in [0, 1]: an ask nominally at age a, the gap g
	// after the ask before it, is made at a − ⌊u·F·g⌋ (in the
	// language's unit) with u uniform in [0, 1). 0 is off.
	Fraction float64
	// Seed is the fleet's seed: an item's u are a hash of it, the
	// item's key and the ask's nominal age, so that the same seed and
	// key give the same asks and different items differ.
	Seed uint32
}

// On reports whether e explores.
func (e Explore) On() bool { return e.Fraction != 0 }

// Check refuses a fraction outside [0, 1].
func (e Explore) Check() error {
	if math.IsNaN(e.Fraction) || e.Fraction < 0 || e.Fraction > 1 {
		return fmt.Errorf("export: explore fraction %v is not in [0, 1] (0.1 moves each ask by up to a tenth of the gap before it)", e.Fraction)
	}
	return nil
}

// literal is the fraction as the shortest decimal that reads back as
// it, for the generated code.
func (e Explore) literal() string {
	s := strconv.FormatFloat(e.Fraction, 'g', -1, 64)
	if e.Fraction == 1 {
		s = "1.0"
	}
	return s
}

// ExploreLogHeader is the header of the one-row-per-item poller log
// that the exploring pollers' LogRow writes a row of, which pollfit
// reads back (estimate/logs.EachPoller).
const ExploreLogHeader = "created_at,last_pending_at,first_final_at,status"
