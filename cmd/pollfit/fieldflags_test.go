package main

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
)

// TestErrorTextNamesFlags: the library's typed errors reach the user
// with pollfit's flags for the Go names, the wrapping and the user's
// values as they were.
func TestErrorTextNamesFlags(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
		code int
	}{
		{fmt.Errorf("fit: %w", &fit.OptionError{Field: "Holdout", Value: "1", Want: "want a share in [0, 1)"}), "fit: --holdout 1: want a share in [0, 1)", 2},
		{&fit.OptionError{Field: "Budget", Want: "give a budget (Budget) or a baseline to match (Baselines)"},
			"give a budget (--requests-per-item, --asks-by, --price or --max-attempts) or a baseline to match (--baseline)", 2},
		// A user's value that spells a Go name stays as given.
		{fmt.Errorf("fit: %w", &fit.OptionError{Field: "Family", Value: `"Horizon"`, Want: "want exponential or grpc"}), `fit: --family "Horizon": want exponential or grpc`, 2},
		{fmt.Errorf("report: %w", &fit.InfeasibleError{Problem: "the exact optimum asks an item that never answers 19 times by 1h, over the stuck cap of 2", Fix: "raise StuckAsks, or fit Clauses rather than the exact ask ages"}),
			"report: the exact optimum asks an item that never answers 19 times by 1h, over the stuck cap of 2: raise --stuck-asks, or fit --clauses rather than the exact ask ages", 1},
		{&fit.InfeasibleError{Problem: "p", Fix: "raise the budget or Clauses, set a shorter Horizon, or try AnyValues"}, "p: raise the budget or --clauses, set a shorter --horizon, or try --nice=false", 1},
		{usagef("fit: Horizon"), "fit: Horizon", 2},
		{errors.New("log.csv:3: Holdout"), "log.csv:3: Holdout", 1},
	} {
		if got := errorText(c.err); got != c.want {
			t.Errorf("errorText(%q) = %q, want %q", c.err, got, c.want)
		}
		if got := errorExit(c.err); got != c.code {
			t.Errorf("errorExit(%q) = %d, want %d", c.err, got, c.code)
		}
	}
}

// TestFlagTableIsReal: every Go name in the table is a field of the
// options it names (or fit.Never), and every flag it gives is a flag of
// some command.
func TestFlagTableIsReal(t *testing.T) {
	types := []reflect.Type{reflect.TypeFor[fit.StudyOptions](), reflect.TypeFor[fit.GroupOptions](), reflect.TypeFor[estimate.SQLOptions](),
		reflect.TypeFor[export.GoOptions](), reflect.TypeFor[export.KotlinOptions](), reflect.TypeFor[export.GRPCOptions](), reflect.TypeFor[export.AsksOptions](),
		reflect.TypeFor[logs.Options](), reflect.TypeFor[logs.MetricOptions]()}
	for name, flags := range flagOf {
		if name != "Never" && !hasField(types, name) {
			t.Errorf("flagOf[%q]: no such field of the options of fit, estimate.SQLOptions or export", name)
		}
		for _, f := range strings.Split(strings.NewReplacer(",", " ", " or ", " ").Replace(flags), " ") {
			if !strings.HasPrefix(f, "--") {
				continue
			}
			f, _, _ = strings.Cut(strings.TrimPrefix(f, "--"), "=")
			if !isFlag(f) {
				t.Errorf("flagOf[%q]: --%s is no command's flag", name, f)
			}
		}
	}
}

func hasField(types []reflect.Type, path string) bool {
	for _, typ := range types {
		ok := true
		cur := typ
		for _, part := range strings.Split(path, ".") {
			f, found := cur.FieldByName(part)
			if !found {
				ok = false
				break
			}
			cur = f.Type
		}
		if ok {
			return true
		}
	}
	return false
}

func isFlag(name string) bool {
	for _, c := range commands {
		fs, _ := newFlagSet(c)
		if fs.Lookup(name) != nil {
			return true
		}
	}
	return false
}
