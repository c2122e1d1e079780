package fit

import (
	"testing"
	"time"
)

func TestBudgetKind(t *testing.T) {
	for _, c := range []struct {
		b    Budget
		want BudgetKind
		text string
	}{
		{Budget{RequestsPerItem: 2.5}, BudgetRequests, "2.5 requests per item"},
		{Budget{RequestsPerItem: 123456}, BudgetRequests, "1.235e+05 requests per item"},
		{Budget{AsksBy: 40, AsksByAge: 15 * time.Minute}, BudgetAsksBy, "40 asks by 15m"},
		{Budget{MaxAttempts: 3}, BudgetMaxAttempts, "3 attempts"},
		{Budget{Price: 0.01}, BudgetPrice, "price 0.01 s per request"},
		{Budget{AsksByAge: time.Minute}, BudgetNone, "no budget"}, // an age alone caps nothing
		{Budget{}, BudgetNone, "no budget"},
	} {
		if got := c.b.Kind(); got != c.want {
			t.Errorf("%+v: kind %v, want %v", c.b, got, c.want)
		}
		if got := c.b.String(); got != c.text {
			t.Errorf("%+v: %q, want %q", c.b, got, c.text)
		}
		if c.b.IsZero() != (c.want == BudgetNone) {
			t.Errorf("%+v: IsZero %t", c.b, c.b.IsZero())
		}
	}
	if s := BudgetKind(9).String(); s != "BudgetKind(9)" {
		t.Errorf("unknown kind prints %q", s)
	}
}

// TestBudgetCheckKind checks that check agrees with Kind on valid budgets
// and refuses two caps at once whatever Kind would say.
func TestBudgetCheckKind(t *testing.T) {
	k, err := Budget{MaxAttempts: 4}.check(time.Hour)
	if err != nil || k != BudgetMaxAttempts {
		t.Errorf("max attempts: %v, %v", k, err)
	}
	if _, err := (Budget{RequestsPerItem: 4, Price: 1}).check(0); err == nil {
		t.Error("two caps were accepted")
	}
}

// TestBudgetAsksCeiling: asks-by and max-attempts budgets above
// MaxBudgetAsks are refused before the quantiser sizes its table by
// them (10¹² once panicked in makeslice, 10⁸ ran out of memory).
func TestBudgetAsksCeiling(t *testing.T) {
	for _, c := range []struct {
		b    Budget
		want string
	}{
		{Budget{MaxAttempts: 1e12}, "Budget.MaxAttempts 1000000000000: want at most 10000"},
		{Budget{MaxAttempts: MaxBudgetAsks + 1}, "Budget.MaxAttempts 10001: want at most 10000"},
		{Budget{AsksBy: 1e7, AsksByAge: time.Minute}, "Budget.AsksBy 10000000: want at most 10000 asks"},
	} {
		if _, err := c.b.check(time.Hour); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %q", c.b, err, c.want)
		}
	}
	for _, b := range []Budget{{MaxAttempts: MaxBudgetAsks}, {AsksBy: MaxBudgetAsks, AsksByAge: time.Hour}} {
		if _, err := b.check(time.Hour); err != nil {
			t.Errorf("%v: %v", b, err)
		}
	}
}
