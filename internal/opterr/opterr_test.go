package opterr

import (
	"errors"
	"fmt"
	"math"
	"testing"
)

func TestOptionErrorText(t *testing.T) {
	for _, c := range []struct {
		err  *OptionError
		want string
	}{
		{Optionf("StuckAsks", -3, "want a positive cap"), "StuckAsks -3: want a positive cap"},
		{Optionf("Budget.Price", 0.25, "want %s", "more"), "Budget.Price 0.25: want more"},
		// Without a value the text is Want alone, naming the fields.
		{Optionf("Budget", nil, "give a budget (Budget) or a baseline to match (Baselines)"), "give a budget (Budget) or a baseline to match (Baselines)"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("%#v: %q, want %q", c.err, got, c.want)
		}
	}
}

// TestHoldout: the share is refused outside [0, 1), NaN included, as an
// *OptionError for Holdout that survives wrapping.
func TestHoldout(t *testing.T) {
	for _, x := range []float64{0, 0.3, math.Nextafter(1, 0)} {
		if err := Holdout(x); err != nil {
			t.Errorf("Holdout(%g): %v", x, err)
		}
	}
	for _, x := range []float64{-1e-9, 1, 2, math.NaN(), math.Inf(1)} {
		var oe *OptionError
		err := fmt.Errorf("sketch: %w", Holdout(x))
		if !errors.As(err, &oe) || oe.Field != "Holdout" || oe.Value != fmt.Sprint(x) {
			t.Errorf("Holdout(%g): %v, want an option error for Holdout", x, err)
		}
	}
}
