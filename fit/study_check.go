package fit

import (
	"math"
	"strconv"

	"github.com/pollfit/pollfit/internal/opterr"
)

// Validate checks the settings alone, before any data is read: each
// rule has this one site, which Study, StudyModel and StudyGroups
// apply first. A refused setting is an *OptionError naming its field.
// A zero Horizon passes (Study chooses the give-up age), as does an
// empty Budget with Baselines (the first one's cost is the budget).
func (o StudyOptions) Validate() error {
	if err := opterr.Holdout(o.Holdout); err != nil {
		return err
	}
	if !(o.Bandwidth >= 0) || math.IsInf(o.Bandwidth, 0) {
		return opterr.Optionf("Bandwidth", o.Bandwidth, "want a positive kernel width on the log-age axis, or 0 to cross-validate it")
	}
	if o.Horizon < 0 && o.Horizon != Never {
		return opterr.Optionf("Horizon", o.Horizon, "want a positive age or Never")
	}
	if o.StuckAsks < 0 {
		return opterr.Optionf("StuckAsks", o.StuckAsks, "want a positive cap")
	}
	if err := o.validateBudget(); err != nil {
		return err
	}
	return o.validateFamily()
}

// validateBudget checks the budget, or that a baseline gives one.
func (o StudyOptions) validateBudget() error {
	if o.Budget.IsZero() {
		if len(o.Baselines) == 0 {
			return opterr.Optionf("Budget", nil, "give a budget (Budget) or a baseline to match (Baselines)")
		}
		return nil
	}
	if _, err := o.Budget.checkValues(); err != nil {
		return err
	}
	if o.Horizon == 0 {
		return nil // the give-up age Study chooses is the budget's
	}
	return o.Budget.checkHorizon(o.Horizon)
}

// validateFamily checks Family: a known name, at a requests budget (or
// a baseline's cost, which is one) and a give-up age.
func (o StudyOptions) validateFamily() error {
	switch o.Family {
	case "":
		return nil
	case "exponential", "grpc":
	default:
		return opterr.Optionf("Family", strconv.Quote(o.Family), "want exponential or grpc")
	}
	if k := o.Budget.Kind(); (k != BudgetNone && k != BudgetRequests) || o.Horizon == Never {
		return opterr.Optionf("Family", o.Family, "needs a requests budget and a give-up age")
	}
	return nil
}
