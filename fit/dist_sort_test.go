package fit

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestAtomsSortedKeepsTieOrder checks the weighted atoms' sort against
// sorting a list of indices by age (the way it was done before), on ages
// with many ties and distinct weights: the weights must come out in the
// same order, so the prefix sums, and every fit on them, are unchanged to
// the last bit.
func TestAtomsSortedKeepsTieOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 1))
	for _, n := range []int{0, 1, 7, 12, 13, 50, 1000, 20000} {
		a := atoms{}
		for range n {
			a.add(float64(rng.IntN(40))/4, rng.Float64(), true)
		}
		idx := make([]int, n)
		for k := range idx {
			idx[k] = k
		}
		slices.SortFunc(idx, func(i, j int) int { return cmpFloat(a.age[i], a.age[j]) })
		want := make([]float64, 0, n)
		for _, i := range idx {
			want = append(want, a.w[i])
		}
		ages, cum, ws := a.sorted()
		if !slices.Equal(ws, want) {
			t.Fatalf("n %d: weights in another order than the index sort's", n)
		}
		if !slices.IsSorted(ages) || len(cum) != n+1 {
			t.Fatalf("n %d: ages not sorted or %d prefix sums", n, len(cum))
		}
		sum := 0.0
		for k, w := range want {
			if sum += w; cum[k+1] != sum {
				t.Fatalf("n %d: prefix sum %d is %v, want %v", n, k+1, cum[k+1], sum)
			}
		}
	}
}
