package loggen

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate/logs"
)

// rowsAllAtOnce is the generator as it was before it streamed: every
// creation time as a time.Time, sorted, then each row. Stream must give
// the same rows.
func rowsAllAtOnce(m Model, n int, seed uint64) []logs.Row {
	r := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	created := make([]time.Time, n)
	start := End.Add(-Window)
	for i := range created {
		created[i] = start.Add(time.Duration(r.Int64N(int64(Window)))).Truncate(time.Millisecond)
	}
	sort.Slice(created, func(i, j int) bool { return created[i].Before(created[j]) })
	rows := make([]logs.Row, n)
	for i, c := range created {
		rows[i] = row(c, m(r, c))
	}
	return rows
}

// TestStreamMatchesAllAtOnce: the streamed rows, in chunks of any size,
// are the rows of the generator that held them all.
func TestStreamMatchesAllAtOnce(t *testing.T) {
	for name, m := range Models {
		for _, n := range []int{1, 5, 3000} {
			want := rowsAllAtOnce(m, n, 7)
			for _, chunk := range []int{1, 7, n, 2 * n} {
				var got []logs.Row
				calls := 0
				if err := Stream(m, n, 7, chunk, func(rows []logs.Row) error {
					calls++
					got = append(got, rows...)
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s, %d rows in chunks of %d: rows differ", name, n, chunk)
				}
				if wantCalls := (n + min(chunk, n) - 1) / min(chunk, n); calls != wantCalls {
					t.Errorf("%s, %d rows in chunks of %d: %d calls, want %d", name, n, chunk, calls, wantCalls)
				}
			}
			if !reflect.DeepEqual(Rows(m, n, 7), want) {
				t.Errorf("%s: Rows differs from the rows all at once", name)
			}
		}
	}
}

// TestStreamStops: fn's error ends the stream at once.
func TestStreamStops(t *testing.T) {
	stop := errors.New("stop")
	calls := 0
	err := Stream(Payments, 1000, 1, 10, func([]logs.Row) error {
		calls++
		return stop
	})
	if err != stop || calls != 1 {
		t.Errorf("err %v after %d calls, want stop after 1", err, calls)
	}
}
