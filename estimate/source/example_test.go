package source_test

import (
	"context"
	"fmt"
	"log"
	"os"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
)

// The path of the package docs' "Start here", on the bundled log of
// 10000 payments, 177 of them still pending (checked row by row in
// TestReadSplitsAsTheHash): the log read in one pass into a sketch of a
// 30% hash split, whose item sample keeps every row, since the log has
// signals; the schedule fitted at 8 requests per item and measured on
// the held-out rows; the schedule written as pollfit's DSL.
func Example() {
	ctx := context.Background()
	in, err := source.Read(ctx, []string{"../../testdata/payments.csv"}, source.Options{
		Holdout: 0.3, Seed: 1, Needs: source.Needs{Signals: true, Batches: true},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d items (%d pending): %d to fit on, %d held out, from the item sample as %s\n",
		in.Stats.Items, in.Stats.Pending, in.FitOn.Len(), in.HeldOut.Sample.Len(), in.Sampled)
	var opt fit.StudyOptions
	opt.Budget.RequestsPerItem = 8
	res, err := fit.Study(ctx, in.FitOn, in.HeldOut, opt)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%.3g requests per item on the held-out rows\n", res.Fitted.RequestsPerItem)
	if err := export.Write(os.Stdout, "dsl", res.Schedule, nil, export.GoOptions{}); err != nil {
		log.Fatal(err)
	}
	// Output:
	// 10000 items (177 pending): 7038 to fit on, 2962 held out, from the item sample as the log has signals
	// 7.95 requests per item on the held-out rows
	// at 0s 2s 5s 10s, 2s until 20s, 5s until 1m, 10s until 5m, reset on signal
}

// A poller's own log of one row per ask, read into intervals. Worked by
// hand from the bundled log's 8 rows: a pending at +1s and +3s, settled
// at +8s, (3, 8]; b failed at its first ask, (0, 1]; c pending at +1s
// and +3s, never final, (3, +Inf); d pending at +2s, done at +5s, (2,
// 5]. Turnbull's innermost intervals are (0, 1] and (3, 5]: b's lies on
// the first alone, and each of the other three holds the second, so the
// likelihood is p₁·p₂³, greatest at p₁ = 1/4, p₂ = 3/4; S(2s) is the
// 3/4 past 1s, and the median lies in (3, 5], at its middle, 4s. The
// three answers (a, b, d) are each known only to lie in an interval (c
// has none), spread over estimate.DefaultSpreadNodes, 8, ages; spread
// into a sample, the four items keep their weight, 4.
func ExampleReadIntervals() {
	in, err := source.ReadIntervals(context.Background(), []string{"testdata/poller_asks.csv"}, source.IntervalOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(in.Input)
	fmt.Printf("%g items: %g final, %g pending\n", in.Final+in.Pending, in.Final, in.Pending)
	for _, iv := range in.Set.Intervals() {
		fmt.Printf("  (%g, %g] %g\n", iv.Lo, iv.Hi, iv.W)
	}
	tb, err := in.Set.Turnbull(estimate.TurnbullOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for i := range tb.Mass {
		fmt.Printf("mass %.4f on (%g, %g]\n", tb.Mass[i], tb.Lo[i], tb.Hi[i])
	}
	fmt.Printf("S(2s) %.4f, median %gs\n", tb.At(2), tb.Quantile(0.5))
	fmt.Println(source.ExpectedNote(in.Set))
	smp, err := source.Spread(in.Set, in.Set)
	if err != nil {
		log.Fatal(err)
	}
	w := 0.0
	for i := range smp.Items {
		w += smp.Weight(i)
	}
	fmt.Printf("spread: weight %.6g\n", w)
	// Output:
	// poller log (one row per ask, 8 rows) in testdata/poller_asks.csv
	// 4 items: 3 final, 1 pending
	//   (0, 1] 1
	//   (2, 5] 1
	//   (3, 8] 1
	//   (3, +Inf] 1
	// mass 0.2500 on (0, 1]
	// mass 0.7500 on (3, 5]
	// S(2s) 0.7500, median 4s
	// the answers of 3 of the 4 items are known only to lie in an interval: their lag and requests are expected figures, under the smoothed density within the interval (8 ages each); the other items' are exact
	// spread: weight 4
}
