package fit_test

import (
	"fmt"
	"time"

	"github.com/pollfit/pollfit/fit"
)

// A Budget sets one cap; Kind says which, and String says it for people.
func ExampleBudget_Kind() {
	for _, b := range []fit.Budget{
		{RequestsPerItem: 8},
		{AsksBy: 20, AsksByAge: 2 * time.Minute},
		{MaxAttempts: 8},
		{Price: 0.5},
		{},
	} {
		fmt.Printf("%-17s counts asks: %-5t zero: %-5t %s\n", b.Kind(), b.Kind().CountsAsks(), b.IsZero(), b)
	}
	// Output:
	// requests-per-item counts asks: false zero: false 8 requests per item
	// asks-by           counts asks: true  zero: false 20 asks by 2m
	// max-attempts      counts asks: true  zero: false 8 attempts
	// price             counts asks: false zero: false price 0.5 s per request
	// none              counts asks: false zero: true  no budget
}
