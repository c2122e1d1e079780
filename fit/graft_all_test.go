package fit

import (
	"fmt"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// TestGraftAllKeepsOrder checks that the candidates grafted at once come
// back in the order a loop over them would have found them, and that the
// error returned is the first candidate's by order, not the first to
// finish: candidate i sleeps so that later ones end first.
func TestGraftAllKeepsOrder(t *testing.T) {
	sh := &shaper{}
	n := 7
	fits, err := sh.graftAll(n, func(i int) (*schedule.Schedule, Metrics, error) {
		time.Sleep(time.Duration(n-i) * time.Millisecond)
		s := &schedule.Schedule{Clauses: []schedule.Clause{{Every: time.Duration(i+1) * time.Second, Forever: true}}}
		return s, Metrics{Items: float64(i)}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range fits {
		if f.m.Items != float64(i) || f.s.Clauses[0].Every != time.Duration(i+1)*time.Second {
			t.Errorf("candidate %d came back as %v, %v", i, f.s, f.m.Items)
		}
	}
	bad := map[int]bool{2: true, 5: true}
	_, err = sh.graftAll(n, func(i int) (*schedule.Schedule, Metrics, error) {
		time.Sleep(time.Duration(n-i) * time.Millisecond)
		if bad[i] {
			return nil, Metrics{}, fmt.Errorf("candidate %d", i)
		}
		return nil, Metrics{}, nil
	})
	if err == nil || err.Error() != "candidate 2" {
		t.Errorf("error %v, want candidate 2's", err)
	}
}
