package fit

import (
	"math"
	"math/big"
	"math/bits"
)

// prog is the arithmetic progression of ages first, first+step, ... up
// to last (all in nanoseconds, 0 ≤ first, step > 0). It is empty when
// first > last. A single age is {a, 1, a}.
type prog struct{ first, step, last int64 }

func (p prog) empty() bool { return p.first > p.last }

// size is the number of ages in p.
func (p prog) size() int64 {
	if p.empty() {
		return 0
	}
	return (p.last-p.first)/p.step + 1
}

// clip cuts p to ages in [lo, hi], keeping its phase.
func (p prog) clip(lo, hi int64) prog {
	if lo > p.first {
		k := (lo-p.first-1)/p.step + 1 // ⌈(lo−first)/step⌉, lo−first ≥ 1
		if k > (math.MaxInt64-p.first)/p.step {
			return prog{1, 1, 0}
		}
		p.first += k * p.step
	}
	p.last = min(p.last, hi)
	if !p.empty() {
		p.last = p.first + (p.last-p.first)/p.step*p.step
	}
	return p
}

// intersect is the progression of ages in both p and q (Chinese
// remainder theorem). It never overflows: a common step beyond int64
// leaves at most one age in range, found with big integers.
func (p prog) intersect(q prog) prog {
	lo, hi := max(p.first, q.first), min(p.last, q.last)
	if lo > hi {
		return prog{1, 1, 0}
	}
	g := gcd(p.step, q.step)
	diff := q.first - p.first // both in [0, MaxInt64]: no overflow
	if diff%g != 0 {
		return prog{1, 1, 0}
	}
	a, b := p.step/g, q.step/g
	// k ≡ (diff/g)·a⁻¹ (mod b); the common ages are p.first + p.step·k (mod l).
	k := mulMod(mod(diff/g, b), modInverse(a%b, b), b)
	if hiL, loL := bits.Mul64(uint64(a), uint64(q.step)); hiL != 0 || loL > math.MaxInt64 {
		return intersectBig(p, k, a, q.step, lo, hi)
	}
	l := a * q.step
	r := int64((uint64(mod(p.first, l)) + uint64(mulMod(p.step%l, k, l))) % uint64(l))
	off := mod(r-mod(lo, l), l)
	if off > hi-lo {
		return prog{1, 1, 0}
	}
	return prog{lo + off, l, hi}.clip(lo, hi)
}

// intersectBig finds the intersection with big integers, for a common
// step beyond int64: then at most one age lies in [lo, hi]. k is the
// solution of p.step/g·k ≡ diff/g (mod q.step/g).
func intersectBig(p prog, k, lcmA, lcmB, lo, hi int64) prog {
	l := new(big.Int).Mul(big.NewInt(lcmA), big.NewInt(lcmB))
	x := new(big.Int).Mul(big.NewInt(p.step), big.NewInt(k))
	x.Add(x, big.NewInt(p.first))
	x.Sub(x, big.NewInt(lo))
	x.Mod(x, l) // Euclidean: in [0, l)
	if !x.IsInt64() || x.Int64() > hi-lo {
		return prog{1, 1, 0}
	}
	a := lo + x.Int64()
	return prog{a, 1, a}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// mod is a mod m in [0, m) for m > 0.
func mod(a, m int64) int64 {
	r := a % m
	if r < 0 {
		r += m
	}
	return r
}

// mulMod is a·b mod m for a, b in [0, m), without overflow.
func mulMod(a, b, m int64) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	return int64(bits.Rem64(hi, lo, uint64(m)))
}

// modInverse is the inverse of a modulo m (a and m coprime, m ≥ 1).
func modInverse(a, m int64) int64 {
	if m == 1 {
		return 0
	}
	r0, r1 := m, a
	t0, t1 := int64(0), int64(1)
	for r1 != 0 {
		q := r0 / r1
		r0, r1 = r1, r0-q*r1
		t0, t1 = t1, t0-q*t1
	}
	return mod(t0, m)
}
