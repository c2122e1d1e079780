package logs

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// FuzzReadHistogram: a histogram (lo_s,hi_s,final,pending rows) reads
// to an error of bounded length or to items at ages in [0, MaxAge] with
// whole, positive weights up to MaxCount whose sum is the stats' final
// and pending counts;
// replayed, they show no negative lag and none beyond MaxAge.
func FuzzReadHistogram(f *testing.F) {
	f.Add([]byte("lo_s,hi_s,final,pending\n0,1,3,1\n1,10,5,0\n10,,0,2\n"), false)
	f.Add([]byte("lo_s,hi_s,final,pending\n0.001,0.002,1e15,0\n3e9,3.1e9,1,1\n"), true)
	f.Add([]byte("hi_s,lo_s,pending,final\r\n2,1,0,7\r\ninf,2,4,0\r\n"), false)
	f.Add([]byte("lo_s,hi_s,final,pending\n5,1,1,0\n-1,2,1,0\nNaN,1,1,0\n0,1,0.5,0\n"), true)
	f.Fuzz(func(t *testing.T, data []byte, skipBad bool) {
		p := filepath.Join(t.TempDir(), "h.csv")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var smp fit.Sample
		var total float64
		readWatchdog(t, func() {
			st, err := EachWeighted([]string{p}, Options{Histogram: true, SkipBad: skipBad}, func(it estimate.Item, w float64) {
				if math.IsNaN(it.Age) || it.Age < 0 || it.Age > maxAgeSeconds || !(w > 0) || w > MaxCount || w != math.Trunc(w) {
					t.Fatalf("histogram item %+v weight %v", it, w)
				}
				total += w
				if len(smp.Items) < 10_000 {
					smp.Items, smp.Weights = append(smp.Items, it), append(smp.Weights, w)
				}
			})
			if err != nil {
				if len(err.Error()) > 4096 {
					t.Fatalf("error of %d bytes", len(err.Error()))
				}
				return
			}
			if got := float64(st.Final + st.Pending); got != total && total < 1<<53 {
				t.Fatalf("stats count %g final and pending, the weights %g", got, total)
			}
		})
		if len(smp.Items) == 0 {
			return
		}
		s, _ := schedule.Parse("1s until 1m, 1h")
		m, err := fit.ReplaySample(s, smp, fit.ReplayOptions{})
		if err != nil {
			return
		}
		for _, x := range []float64{m.Lag.Mean, m.Lag.P50, m.Lag.Max} {
			if x < 0 || x > maxAgeSeconds {
				t.Fatalf("lag %+v", m.Lag)
			}
		}
	})
}
