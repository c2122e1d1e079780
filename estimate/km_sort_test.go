package estimate

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// sortByAge orders indices as a stable sort by age does, ties in index
// order, on short and long lists (the radix sort), with many ties, with
// a −0 among the ages (which the radix sort leaves to the comparison
// sort) and with indices that do not increase.
func TestSortByAgeIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{10, 3000, radixAges, 50_000} {
		for _, c := range []string{"ties", "spread", "minus zero", "shuffled"} {
			ts := make([]float64, n)
			for i := range ts {
				ts[i] = math.Round(r.ExpFloat64()*30*10) / 10
				if c == "spread" {
					ts[i] = r.ExpFloat64() * 300
				}
			}
			if c == "minus zero" {
				ts[n/2] = math.Copysign(0, -1)
			}
			idx := make([]int, 0, n)
			for i := range ts {
				if i%7 != 3 { // some left out, as KaplanMeier drops unusable items
					idx = append(idx, i)
				}
			}
			if c == "shuffled" {
				r.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
			}
			want := slices.Clone(idx)
			slices.SortStableFunc(want, func(a, b int) int { return cmp.Compare(ts[a], ts[b]) })
			if c == "shuffled" { // ties in index order, whatever order they came in
				slices.SortFunc(want, func(a, b int) int { return cmp.Or(cmp.Compare(ts[a], ts[b]), cmp.Compare(a, b)) })
			}
			sortByAge(idx, ts)
			if !slices.Equal(idx, want) {
				t.Fatalf("%d ages, %s: sorted differently from the stable sort", n, c)
			}
		}
	}
}
