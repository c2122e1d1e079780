package fit

import (
	"github.com/pollfit/pollfit/internal/opterr"
)

// OptionError is an option value the fit refuses, naming its Go field
// ("Holdout", "StuckAsks", "Budget.AsksBy"); estimate refuses its own
// options with the same type, so one errors.As tells them apart:
//
//	var oe *fit.OptionError
//	if errors.As(err, &oe) && oe.Field == "Holdout" { … }
type OptionError = opterr.OptionError

// InfeasibleError says no schedule meets the budget within the limits:
// Problem is what cannot be met and Fix how to make room, naming the
// option fields listed in Change (as OptionError.Field spells them),
// the ones to try in turn.
type InfeasibleError struct {
	Problem string
	Fix     string
	Change  []string
}

// Error reads like "no schedule … within the budget: raise StuckAsks or
// the budget".
func (e *InfeasibleError) Error() string {
	if e.Fix == "" {
		return e.Problem
	}
	return e.Problem + ": " + e.Fix
}

// infeasible is an *InfeasibleError.
func infeasible(problem, fix string, change ...string) *InfeasibleError {
	return &InfeasibleError{Problem: problem, Fix: fix, Change: change}
}
