package estimate

import "math"

// Period describes batch settling: final answers clustered just after
// wall-clock (UTC) boundaries every Period seconds.
type Period struct {
	// Period is the batch interval in seconds, a divisor of a day.
	Period float64
	// Phase is how long after each boundary the batch's answers come, in
	// seconds: the circular mean of the mass above the background.
	Phase float64
	// Share is the estimated share of final answers in the batch
	// component, above a uniform background.
	Share float64
	// PValue is the H-test's p-value for this period, corrected (Šidák)
	// for the number of candidate periods tried.
	PValue float64
}

// PeriodOptions tunes Periodicity. The zero value gives the defaults.
type PeriodOptions struct {
	// MinPeriod and MaxPeriod bound the candidate periods in seconds.
	// Defaults 10 and 3600.
	MinPeriod, MaxPeriod float64
	// Alpha is the largest corrected p-value reported. Default 0.001.
	Alpha float64
	// MinShare is the smallest batch share reported, so that a large log
	// with a tiny, significant concentration is not called a batch
	// process. Default 0.05.
	MinShare float64
	// MinConcentration is the smallest mean resultant length of the
	// excess mass around the circle of phases: a batch clusters just
	// after the boundary, while traffic that merely varies within the
	// period (a daily burst from 10:00 to 12:30 seen at a 45-minute
	// period) spreads its excess over a long arc. Default 0.8, which
	// passes a batch spread uniformly over a third of the period.
	MinConcentration float64
	// MinItems is the fewest final answers with known creation times
	// to test at all. Default 30.
	MinItems float64
}

func (o PeriodOptions) withDefaults() PeriodOptions {
	if o.MinPeriod <= 0 {
		o.MinPeriod = 10
	}
	if o.MaxPeriod <= 0 {
		o.MaxPeriod = 3600
	}
	if o.Alpha <= 0 {
		o.Alpha = 1e-3
	}
	if o.MinShare <= 0 {
		o.MinShare = 0.05
	}
	if o.MinConcentration <= 0 {
		o.MinConcentration = 0.8
	}
	if o.MinItems <= 0 {
		o.MinItems = 30
	}
	return o
}

// maxHarmonics is the H-test's usual limit on harmonics (de Jager 1989).
const maxHarmonics = 20

// Periodicity looks for batch settling in the wall-clock times of the
// final answers (items with a known creation time only). Candidate
// periods are the divisors of a day between MinPeriod and MaxPeriod (batch
// boundaries are wall-clock), each tested with de Jager's H-test on the
// settle times modulo the period, with p ≈ exp(−0.4·H). Harmonics are
// limited to half the timestamps' resolution (TimestampResolution), so
// timestamps rounded to whole seconds or minutes cannot make a period.
// A period qualifies when significant, holding MinShare of the answers,
// concentrated on a short arc after the boundary (MinConcentration) and
// seen in the parts of the day that carry 70% of the traffic, not in a
// burst of a few hours only.
//
// A batch every 5 minutes is also periodic at 10 minutes, and looks
// periodic at 150 s (every other boundary being empty) and at 100 s, so
// Periodicity reports the smallest qualifying period that explains the
// others: the one whose harmonics carry 90% of the power in the strong
// spectral lines the tests found. It returns nil when no period
// qualifies.
func Periodicity(a *Accumulator, opt PeriodOptions) *Period {
	opt = opt.withDefaults()
	if a.phaseW == 0 || a.phaseW < opt.MinItems {
		return nil
	}
	pf := newPhaseFolder(a)
	cands := pf.candidates(opt.MinPeriod, opt.MaxPeriod)
	var sig []Period
	for i := len(cands) - 1; i >= 0; i-- { // large first: they fold the small
		pf.fold(cands[i])
	}
	sums := pf.allPowerSums(cands)
	for i, P := range cands {
		p := pf.hTest(P, sums[i])
		pc := -math.Expm1(float64(len(cands)) * math.Log1p(-p)) // Šidák
		if !(pc < opt.Alpha) {
			continue
		}
		share, phase, conc := pf.batch(P)
		if share >= opt.MinShare && conc >= opt.MinConcentration && pf.everyBoundary(P, share) {
			sig = append(sig, Period{Period: P, Phase: phase, Share: share, PValue: pc})
		}
	}
	return pf.choose(sig)
}

// choose picks the period that explains the significant ones. The
// H-tests computed the power of the settle times at frequencies k/P (k
// harmonics of each candidate P); a batch every P* seconds puts its power
// at multiples of 1/P* only. choose returns the smallest significant
// period whose multiples of 1/P hold at least 90% of the power of the
// strong lines (those beyond a Bonferroni bound over all lines computed):
// not 150 s for a 300 s batch (that misses its odd harmonics), not 600 s
// (larger). Without strong lines it returns the most significant period.
func (pf *phaseFolder) choose(sig []Period) *Period {
	if len(sig) == 0 {
		return nil
	}
	bound := 2 * math.Log(float64(len(pf.lines))/1e-3)
	total := 0.0
	for _, z := range pf.lines {
		if z > bound {
			total += z
		}
	}
	if total > 0 {
		for i := range sig { // ascending periods
			base := int(math.Round(daySeconds / sig[i].Period))
			in := 0.0
			for j, z := range pf.lines {
				if z > bound && j%base == 0 {
					in += z
				}
			}
			if in >= 0.9*total {
				return &sig[i]
			}
		}
	}
	best := 0
	for i := range sig {
		if sig[i].PValue < sig[best].PValue {
			best = i
		}
	}
	return &sig[best]
}
