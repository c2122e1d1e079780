package fit

import (
	"math"
	"testing"
)

// The phrases are worked by hand: 0.575/0.631 − 1 = −8.87%, and an
// interval [−11.5%, −5.3%] of the change is a reduction of 5.3% to 11.5%.
func TestFormatChange(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		d    float64
		want string
	}{
		{0.575/0.631 - 1, "8.9% less"},
		{0.04, "4.0% more"},
		{-0.0004, "the same"},
		{0.00049, "the same"},
		{0.0006, "0.1% more"},
		{2, "200.0% more"},
		{nan, "no comparable"},
		{math.Inf(1), "no comparable"},
	} {
		if got := FormatChange(c.d); got != c.want {
			t.Errorf("FormatChange(%g) = %q, want %q", c.d, got, c.want)
		}
	}
	for _, c := range []struct {
		d    float64
		ci   Interval
		want string
	}{
		{0.575/0.631 - 1, Interval{-0.115, -0.053}, "8.9% less mean lag [5.3%, 11.5%]"},
		{-0.02, Interval{-0.05, 0.01}, "2.0% less mean lag [-1.0%, 5.0%]"},
		{0.1, Interval{0.04, 0.132}, "10.0% more mean lag [4.0%, 13.2%]"},
		{0.0001, Interval{-0.03, 0.02}, "the same mean lag [-3.0%, +2.0%]"},
		{-0.3, Interval{nan, nan}, "30.0% less mean lag"},
	} {
		if got := (Comparison{Change: c.d, ChangeCI: c.ci}).LagChange(); got != c.want {
			t.Errorf("LagChange(%g, %v) = %q, want %q", c.d, c.ci, got, c.want)
		}
	}
}
