package estimate

import (
	"encoding/binary"
	"math"
	"testing"
)

// FuzzEstimators feeds arbitrary ages, statuses and weights through the
// accumulator and the estimators of ages (Periodicity, slow under the
// fuzzer's instrumentation, is left out): no panic, S within [0, 1] and
// non-increasing, CDF within [0, 1 − Never] and non-decreasing.
func FuzzEstimators(f *testing.F) {
	f.Add([]byte{0, 0, 0, 0, 0, 0, 0x4e, 0x40, 1, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		var a Accumulator
		for len(data) >= 17 {
			age := math.Float64frombits(binary.LittleEndian.Uint64(data))
			w := math.Float64frombits(binary.LittleEndian.Uint64(data[8:]))
			st := Status(data[16] % 3)
			data = data[17:]
			a.AddWeighted(Item{Age: age, Status: st}, w)
		}
		s := a.Survival()
		prev := 1.0
		for _, v := range s.Surv {
			if !(v >= 0 && v <= prev+1e-12) {
				t.Fatalf("S not in [0, 1] or increasing: %v", s.Surv)
			}
			prev = v
		}
		s.Quantiles([]float64{0.5, 0.9})
		s.QuantileBand(0.5, 0.95, ConfLogLog)
		Deadlines(s, DeadlineOptions{})
		if a.Final == 0 {
			return
		}
		d := Density(s, DensityOptions{})
		prev = 0
		for x := 1e-4; x < 1e8; x *= 1.5 {
			c := d.CDF(x)
			if !(c >= prev-1e-12 && c <= 1-d.Never()+1e-9) {
				t.Fatalf("CDF(%v) = %v after %v, never %v", x, c, prev, d.Never())
			}
			prev = c
			d.PDF(x)
			d.Hazard(x)
		}
	})
}
