package logs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// TestPollerGenerated: a simulated poller (lognormal settle ages, asks
// at 1s, 2s, 5s, then every 15s up to 2 minutes, times in epoch
// milliseconds) writes one row per ask, shuffled over three files; the
// reader, with and without spilling, gives back exactly the intervals
// the simulation knew for each item.
func TestPollerGenerated(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 2))
	var want []estimate.Interval
	var rows []string
	gaps := []int64{1000, 2000, 5000, 15000}
	for i := 0; i < 2000; i++ {
		created := int64(1_772_000_000_000) + int64(r.IntN(3_600_000))
		age := 6000 * math.Exp(1.2*r.NormFloat64()) // ms
		last, ask := int64(0), int64(0)
		iv := estimate.Interval{W: 1}
		for k := 0; ; k++ {
			ask += gaps[min(k, len(gaps)-1)]
			if ask > 120_000 {
				iv.Lo, iv.Hi = float64(last)/1000, math.Inf(1)
				break
			}
			st := "pending"
			if age <= float64(ask) {
				st = []string{"settled", "failed"}[r.IntN(2)]
			}
			rows = append(rows, fmt.Sprintf("p%d,%d,%d,%s", i, created, created+ask, st))
			if st != "pending" {
				iv.Lo, iv.Hi = float64(last)/1000, float64(ask)/1000
				break
			}
			last = ask
		}
		want = append(want, iv)
	}
	r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	files := map[string]string{}
	for k := 0; k < 3; k++ {
		part := rows[k*len(rows)/3 : (k+1)*len(rows)/3]
		files[fmt.Sprintf("asks%d.csv", k)] = "id,created_at,asked_at,status\n" + strings.Join(part, "\n") + "\n"
	}
	dir := writeFiles(t, files)
	sortIntervals(want)
	for _, maxOpen := range []int{0, 100} {
		opt := PollerOptions{MaxOpen: maxOpen}
		opt.TimeUnit = "ms"
		got, st := readPoller(t, []string{filepath.Join(dir, "*.csv")}, opt)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("MaxOpen %d: intervals differ from the simulation's (%d vs %d)", maxOpen, len(got), len(want))
		}
		if st.Rows != int64(len(rows)) || st.Items != 2000 || st.Spilled != (maxOpen > 0) {
			t.Errorf("MaxOpen %d: stats %+v", maxOpen, st)
		}
	}
}
