package fit

import "testing"

// TestGroupStudyChanges: the grouping figure names the requests'
// change wherever the two spend more than 0.5% apart on the held-out
// items, as a baseline's comparison does (worked out by hand).
func TestGroupStudyChanges(t *testing.T) {
	for _, c := range []struct {
		total, shared float64 // requests per item
		want          string
	}{
		{8, 8, "25.0% less mean lag"},
		{8.03, 8, "25.0% less mean lag"},                         // 0.375% apart
		{7.97, 8, "25.0% less mean lag"},                         // 0.375% apart
		{7.95, 8, "0.6% fewer requests and 25.0% less mean lag"}, // 7.95/8 − 1 = −0.625%
		{12.74, 12.40, "2.7% more requests and 25.0% less mean lag"},
	} {
		s := &GroupStudy{
			Total:  Total{LagMean: 0.75, RequestsPerItem: c.total},
			Shared: &StudyResult{Fitted: Row{Metrics: Metrics{RequestsPerItem: c.shared, Lag: LagStats{Mean: 1}}}},
		}
		if got := s.Changes(); got != c.want {
			t.Errorf("%.2f vs %.2f requests: %q, want %q", c.total, c.shared, got, c.want)
		}
	}
}
