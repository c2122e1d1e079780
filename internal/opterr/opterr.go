// Package opterr holds the error types the library's layers share for a
// setting they refuse, so that a caller tells them apart with one
// errors.As whichever layer (fit, estimate, export) refused it. Each
// names the settings by their Go fields; pollfit's command maps those
// to its flags.
package opterr

import "fmt"

// OptionError is an option value refused: Field is the Go field as its
// struct spells it ("Holdout", "StuckAsks", "Budget.AsksBy"), Value the
// value refused as text ("" when the problem is between fields), and
// Want what would do. The text names fields as Field spells them, so a
// command can put its own names for them (its flags) in their place.
type OptionError struct {
	Field string
	Value string
	Want  string
}

// Error reads like "Holdout 1.5: want a share in [0, 1)"; without a
// Value it is Want alone, which then names the fields itself.
func (e *OptionError) Error() string {
	if e.Value == "" {
		return e.Want
	}
	return e.Field + " " + e.Value + ": " + e.Want
}

// Optionf is an *OptionError for field and value with Want formatted.
func Optionf(field string, value any, format string, args ...any) *OptionError {
	v := ""
	if value != nil {
		v = fmt.Sprint(value)
	}
	return &OptionError{Field: field, Value: v, Want: fmt.Sprintf(format, args...)}
}

// Holdout checks a hold-out share, the one rule for every layer that
// splits a sample: 0 ≤ share < 1.
func Holdout(share float64) error {
	if !(share >= 0 && share < 1) {
		return Optionf("Holdout", share, "want a share in [0, 1)")
	}
	return nil
}
