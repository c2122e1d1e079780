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
