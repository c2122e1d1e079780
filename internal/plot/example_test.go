package plot_test

import (
	"fmt"

	"github.com/pollfit/pollfit/internal/plot"
)

func ExampleFormatAge() {
	for _, s := range []float64{0.25, 1.5, 90, 600, 1340, 9360, 3 * 86400} {
		fmt.Print(plot.FormatAge(s), " ")
	}
	fmt.Println()
	// Output: 250ms 1.5s 90s 10m 22m20s 2h36m 3d
}

func ExampleFrontier() {
	fig := plot.Frontier(
		[]plot.Curve{{Name: "exact optimum", X: []float64{2, 4, 8, 16}, Y: []float64{30, 10, 4, 1.5}}},
		[]plot.Point{{Name: "now", Cost: 6, Wait: 9}},
	)
	for _, s := range fig.Series {
		fmt.Println(s.Name, s.Kind, s.N)
	}
	// Output:
	// exact optimum line 4
	// now points 1
}
