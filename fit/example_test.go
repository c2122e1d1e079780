package fit_test

import (
	"context"
	"fmt"
	"time"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// The outputs below are worked out by hand in the comments, not pasted
// from a run.

// item is a log row with no creation time and no signal.
func item(age float64, st estimate.Status) estimate.Item {
	return estimate.Item{Age: age, Status: st}
}

func ExampleReplay() {
	// "5s until 30s" asks at 0s, 5s, 10s, ..., 30s: seven asks.
	s, err := schedule.Parse("5s until 30s")
	if err != nil {
		fmt.Println(err)
		return
	}
	items := []estimate.Item{
		item(3, estimate.Settled),   // seen at 5s: lag 2s, 2 asks
		item(10, estimate.Settled),  // seen at 10s, an exact tie: lag 0s, 3 asks
		item(12.5, estimate.Failed), // seen at 15s: lag 2.5s, 4 asks
		item(7, estimate.Pending),   // last seen at 7s: asked at 0s and 5s, 2 asks
		item(40, estimate.Settled),  // after the last ask: missed, all 7 asks
	}
	m, err := fit.Replay(s, items, fit.ReplayOptions{AsksBy: []time.Duration{time.Minute}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("horizon:", m.Horizon)
	fmt.Println("detected, missed, pending:", m.Detected, m.Missed, m.Pending)
	// Lags 0s, 2s, 2.5s: mean 4.5s/3, nearest-rank median the 2nd.
	fmt.Printf("lag: mean %.2fs, p50 %.2fs, max %.2fs\n", m.Lag.Mean, m.Lag.P50, m.Lag.Max)
	// (2+3+4+2+7)/5 = 18/5.
	fmt.Printf("requests per item: %.2f\n", m.RequestsPerItem)
	// An item that never settles is asked all seven times by 1m.
	fmt.Println("asks by 1m:", m.AsksBy[0])
	// Output:
	// horizon: 30s
	// detected, missed, pending: 3 1 1
	// lag: mean 1.50s, p50 2.00s, max 2.50s
	// requests per item: 3.60
	// asks by 1m: 7
}

func ExampleOptimal() {
	// Settle times exponential with mean μ = 10s. A fixed interval D
	// from age 0 sees an answer in ((k−1)D, kD] at kD, and k is
	// geometric with P(k) = (1−q)q^(k−1), q = e^(−D/μ); so
	//
	//	mean lag = D/(1−q) − μ,  requests = 1 + 1/(1−q).
	//
	// For D = 5s, 1−q = 1−e^(−0.5) = 0.393469: lag 5/0.393469 − 10 =
	// 2.707s at 1 + 2.541494 = 3.541 requests. D = 2s would cost
	// 1 + 1/(1−e^(−0.2)) = 6.517, over a budget of 3.6, so the best
	// single clause of nice intervals is 5s.
	m, err := estimate.ParseModel("exponential(mean=10s)")
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := fit.Optimal(m, fit.Options{Budget: fit.Budget{RequestsPerItem: 3.6}, Clauses: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: mean lag %.3fs, %.3f requests per item\n", r.Schedule, r.Fitted.Lag.Mean, r.Fitted.RequestsPerItem)
	// The exponential law is memoryless, so the continuous-rate optimum
	// asks at a constant rate: the interval that spends the budget
	// exactly, 1/(1−q) = 2.6, D = 10·ln(2.6/1.6) = 4.855s, with lag
	// 4.855 × 2.6 − 10 = 2.623s.
	c := r.Continuous
	fmt.Printf("continuous: interval %.3fs, mean lag %.3fs, %.3f requests per item\n",
		c.Asks[1]-c.Asks[0], c.Lag.Mean, c.RequestsPerItem)
	// Output:
	// 5s: mean lag 2.707s, 3.541 requests per item
	// continuous: interval 4.855s, mean lag 2.623s, 3.600 requests per item
}

func ExampleStudy() {
	// Ten answers, at 1s, 2s, ..., 10s.
	var items []estimate.Item
	for t := 1; t <= 10; t++ {
		items = append(items, item(float64(t), estimate.Settled))
	}
	smp := fit.ItemSample(items)

	// With a budget of 3 requests per item: every answer has landed by
	// 10s, the smallest nice age (1s, 2s, 5s, 10s, ...) by which 99%
	// have, and the stuck cap is 8 × 3 = 24 asks.
	res, err := fit.Study(context.Background(), smp, nil, fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{RequestsPerItem: 3}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("give up at", res.GiveUp)
	fmt.Printf("stuck cap %d (%s); fitted within it: %v\n", res.StuckCap, res.StuckCapReason, res.Fitted.Stuck <= float64(res.StuckCap))

	// Matching a baseline that stops at 5s instead: the give-up age is
	// capped there, where 5 of the 10 answers have landed; the budget is
	// the baseline's cost, (2+3+4+5+6)/10 asks for the five it sees at
	// once plus 6 asks for each of the five it misses, 5 per item; and
	// the stuck cap is its own 6 asks (0s to 5s).
	today, err := schedule.Parse("1s until 5s")
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err = fit.Study(context.Background(), smp, nil, fit.StudyOptions{Baselines: []fit.Baseline{{Name: "today", Schedule: today}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("give up at", res.GiveUp)
	fmt.Printf("budget %g requests per item from %s\n", res.Budget.RequestsPerItem, res.BudgetFrom)
	fmt.Printf("stuck cap %d (%s)\n", res.StuckCap, res.StuckCapReason)
	// Whatever the schedule, the answers after 5s are missed.
	fmt.Printf("fitted misses %.0f%%\n", 100*res.Fitted.MissedShare)
	// Output:
	// give up at 10s (100.0% of the fitting items' answers land by then)
	// stuck cap 24 (8 × the requests budget; StuckAsks to change); fitted within it: true
	// give up at 5s (today stops there; 50.0% of the fitting items' answers land by then)
	// budget 5 requests per item from today
	// stuck cap 6 (today's own)
	// fitted misses 50%
}
