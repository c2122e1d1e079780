package radix

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Sort gives what a stable comparison sort gives, keys and values,
// on keys with many ties, few distinct digits and the full range, for
// even and odd numbers of passes.
func TestSortIsStable(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	type kv struct {
		k uint64
		v int
	}
	gens := map[string]func() uint64{
		"ties":       func() uint64 { return uint64(r.IntN(50)) },
		"low digit":  func() uint64 { return uint64(r.IntN(1 << 11)) },
		"two digits": func() uint64 { return uint64(r.IntN(1 << 20)) },
		"full":       func() uint64 { return r.Uint64() },
		"ages":       func() uint64 { k, _ := FloatKey(math.Round(r.ExpFloat64()*300*1000) / 1000); return k },
	}
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 17, 5000} {
			keys, vals := make([]uint64, n), make([]int, n)
			want := make([]kv, n)
			for i := range keys {
				keys[i], vals[i] = gen(), i
				want[i] = kv{keys[i], i}
			}
			slices.SortStableFunc(want, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
			Sort(keys, vals)
			for i := range want {
				if keys[i] != want[i].k || vals[i] != want[i].v {
					t.Fatalf("%s, %d keys: position %d holds (%d, %d), want (%d, %d)", name, n, i, keys[i], vals[i], want[i].k, want[i].v)
				}
			}
			bare := slices.Clone(keys)
			r.Shuffle(len(bare), func(i, j int) { bare[i], bare[j] = bare[j], bare[i] })
			Sort[int](bare, nil)
			if !slices.Equal(bare, keys) {
				t.Fatalf("%s, %d keys without values: not sorted", name, n)
			}
		}
	}
}

// FloatKey orders the non-negative numbers as they compare, and refuses
// what it cannot order.
func TestFloatKey(t *testing.T) {
	xs := []float64{0, math.SmallestNonzeroFloat64, 1e-300, 0.5, 1, 1.5, 3e8, math.MaxFloat64, math.Inf(1)}
	for i := 1; i < len(xs); i++ {
		a, _ := FloatKey(xs[i-1])
		b, ok := FloatKey(xs[i])
		if !ok || !(a < b) {
			t.Errorf("%g and %g: keys %d and %d (ok %v)", xs[i-1], xs[i], a, b, ok)
		}
	}
	for _, x := range []float64{-1, math.Copysign(0, -1), math.NaN(), math.Inf(-1)} {
		if _, ok := FloatKey(x); ok {
			t.Errorf("%g: a key", x)
		}
	}
}

func BenchmarkSort(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 100_000
	keys, vals := make([]uint64, n), make([]int, n)
	src := make([]uint64, n)
	for i := range src {
		src[i], _ = FloatKey(math.Round(r.ExpFloat64()*300*1000) / 1000)
	}
	b.Run("radix", func(b *testing.B) {
		for range b.N {
			copy(keys, src)
			for i := range vals {
				vals[i] = i
			}
			Sort(keys, vals)
		}
	})
	b.Run("slices.SortStableFunc", func(b *testing.B) {
		type kv struct {
			k uint64
			v int
		}
		pairs := make([]kv, n)
		for range b.N {
			for i := range pairs {
				pairs[i] = kv{src[i], i}
			}
			slices.SortStableFunc(pairs, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		}
	})
}
