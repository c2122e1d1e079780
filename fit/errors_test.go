package fit

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// TestOptionErrorsNameTheField: each refused setting is an *OptionError
// naming its Go field, found by errors.As through every wrapping, and
// the text names no flag of the command.
func TestOptionErrorsNameTheField(t *testing.T) {
	base := func() StudyOptions { return StudyOptions{Options: Options{Budget: Budget{RequestsPerItem: 5}}} }
	prod, _ := schedule.Parse("2s until 1m")
	for _, c := range []struct {
		name        string
		edit        func(*StudyOptions)
		field, text string
	}{
		{"holdout 1", func(o *StudyOptions) { o.Holdout = 1 }, "Holdout", "Holdout 1: want a share in [0, 1)"},
		{"holdout -0.1", func(o *StudyOptions) { o.Holdout = -0.1 }, "Holdout", "Holdout -0.1: want a share in [0, 1)"},
		{"stuck", func(o *StudyOptions) { o.StuckAsks = -3 }, "StuckAsks", "StuckAsks -3: want a positive cap"},
		{"horizon", func(o *StudyOptions) { o.Horizon = -time.Second }, "Horizon", "Horizon -1s: want a positive age or Never"},
		{"no budget", func(o *StudyOptions) { o.Budget = Budget{} }, "Budget", "give a budget (Budget) or a baseline to match (Baselines)"},
		{"two budgets", func(o *StudyOptions) { o.Budget.Price = 1 }, "Budget", "give exactly one budget: Budget.RequestsPerItem, Budget.AsksBy, Budget.MaxAttempts or Budget.Price"},
		{"requests", func(o *StudyOptions) { o.Budget.RequestsPerItem = 0.5 }, "Budget.RequestsPerItem", "Budget.RequestsPerItem 0.5: want at least 1"},
		{"attempts", func(o *StudyOptions) { o.Budget = Budget{MaxAttempts: MaxBudgetAsks + 1} }, "Budget.MaxAttempts", "Budget.MaxAttempts 10001: want at most 10000"},
		{"attempts never", func(o *StudyOptions) { o.Budget, o.Horizon = Budget{MaxAttempts: 5}, Never }, "Budget.MaxAttempts", "Budget.MaxAttempts 5: needs a Horizon, where the last attempt is made: not Never"},
		{"asks-by horizon", func(o *StudyOptions) { o.Budget, o.Horizon = Budget{AsksBy: 5, AsksByAge: time.Minute}, time.Hour }, "Horizon", "Horizon 1h: an asks-by budget N@T stops asking at T: give no other Horizon"},
		{"asks-by never", func(o *StudyOptions) { o.Budget, o.Horizon = Budget{AsksBy: 5, AsksByAge: time.Minute}, Never }, "Horizon", "Horizon Never: an asks-by budget N@T stops asking at T: give no other Horizon"},
		{"family", func(o *StudyOptions) { o.Family = "nope" }, "Family", `Family "nope": want exponential or grpc`},
		{"family price", func(o *StudyOptions) { o.Family, o.Budget = "grpc", Budget{Price: 1} }, "Family", "Family grpc: needs a requests budget and a give-up age"},
	} {
		o := base()
		c.edit(&o)
		for _, run := range []struct {
			name string
			err  error
		}{
			{"Validate", o.Validate()},
			{"Study", studyErr(o)},
			{"StudyGroups", groupsErr(o)},
		} {
			var oe *OptionError
			if !errors.As(run.err, &oe) || oe.Field != c.field || oe.Error() != c.text {
				t.Errorf("%s: %s: %v (%#v), want an *OptionError for %s: %q", c.name, run.name, run.err, oe, c.field, c.text)
			}
		}
	}
	// A baseline stands for the budget, at which a family fits.
	o := base()
	o.Budget, o.Baselines, o.Family = Budget{}, []Baseline{{Name: "prod", Schedule: prod}}, "exponential"
	if err := o.Validate(); err != nil {
		t.Errorf("a baseline's cost as the budget: %v", err)
	}
}

func studyErr(o StudyOptions) error {
	_, err := Study(context.Background(), ItemSample(testItems(50, 1)), nil, o)
	return err
}

func groupsErr(o StudyOptions) error {
	_, err := StudyGroups(context.Background(), nil, []Group{{Value: "a", Sample: ItemSample(testItems(50, 1))}}, GroupOptions{StudyOptions: o})
	return err
}

// TestInfeasibleErrorsSayWhatToChange: a stuck cap no schedule meets is
// an *InfeasibleError listing the fields to change, and is no option
// error (each setting alone is fine).
func TestInfeasibleErrorsSayWhatToChange(t *testing.T) {
	smp := ItemSample(testItems(300, 2))
	for _, c := range []struct {
		name   string
		opt    Options
		change []string
	}{
		// The exact optimum of 5 requests per item asks a stuck item
		// more than twice by the hour.
		{"exact", Options{Budget: Budget{RequestsPerItem: 5}, Exact: true, StuckAsks: 2, Horizon: time.Hour}, []string{"StuckAsks", "Clauses"}},
		// No schedule of one clause reaches the hour asking a stuck
		// item once.
		{"one clause", Options{Budget: Budget{RequestsPerItem: 5}, Clauses: 1, StuckAsks: 1, Horizon: time.Hour}, []string{"StuckAsks", "Budget", "Horizon"}},
	} {
		_, err := Study(context.Background(), smp, nil, StudyOptions{Options: c.opt})
		var ie *InfeasibleError
		var oe *OptionError
		if !errors.As(err, &ie) || errors.As(err, &oe) || !slices.Equal(ie.Change, c.change) {
			t.Errorf("%s: %v (%#v), want an *InfeasibleError changing %v", c.name, err, ie, c.change)
			continue
		}
		if ie.Error() != ie.Problem+": "+ie.Fix || strings.Contains(ie.Error(), "--") {
			t.Errorf("%s: %q: want problem and fix in Go names", c.name, ie.Error())
		}
	}
}
