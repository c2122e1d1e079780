package plot_test

import (
	"fmt"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
)

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
