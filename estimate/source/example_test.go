package source_test

import (
	"context"
	"fmt"
	"log"
	"os"

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
