package main

import (
	"fmt"
	"math"

	"github.com/pollfit/pollfit/fit"
)

// exactFitNote says what the exact (fit) row is, how its density was
// smoothed, and how far it is from the limit.
func exactFitNote(res *fit.StudyResult) string {
	note := "exact (fit): the exact optimum fitted to the fitting items themselves (--smooth=false), replayed here"
	if sm := res.Smoothing; sm != nil {
		note = fmt.Sprintf("exact (fit): the exact optimum fitted to the fitting items' smoothed density (kernel bandwidth %.3g on the log-age axis, %s), replayed here",
			sm.Bandwidth, smoothingRule(sm))
	}
	e, l := res.ExactFit, res.Limit
	if r := e.Lag.Mean / l.Lag.Mean; l.Lag.Mean > 0 && !math.IsNaN(r) && !math.IsInf(r, 0) {
		note += fmt.Sprintf(": its mean lag is %.2f× the limit's, at %.2f requests per item against %.2f", r, e.RequestsPerItem, l.RequestsPerItem)
	}
	return note + "; it may lose to the clauses"
}

// smoothingRule says how the bandwidth was chosen.
func smoothingRule(sm *fit.Smoothing) string {
	switch sm.Rule {
	case fit.SmoothCrossValidated:
		if sm.Factor == 1 {
			return "the density estimate's own, chosen by cross-validation on the fitting items"
		}
		return fmt.Sprintf("%.2g× the density estimate's own, chosen by cross-validation on the fitting items", sm.Factor)
	case fit.SmoothGiven:
		return "given by --smooth"
	}
	return "the density estimate's own (" + sm.Rule + "): too few items to cross-validate"
}
