package fit

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Never, as a horizon, keeps a schedule that never stops (see
// StudyOptions.Horizon).
const Never time.Duration = -1

// horizonText is a horizon as text: "never" for Never.
func horizonText(h time.Duration) string {
	switch h {
	case Never:
		return "Never"
	case 0:
		return "0 (the default)"
	}
	return schedule.FormatDuration(h)
}

// DefaultGiveUpShare is the share of final answers that must have landed
// by the default give-up age.
const DefaultGiveUpShare = 0.99

// GiveUp is a give-up age H and why it was chosen: the poller stops
// asking at H, every schedule is replayed and costed to H, and an answer
// after H is missed.
type GiveUp struct {
	Age time.Duration
	// Share is the share of final answers that land by Age, among the
	// answers of Of (by their Kaplan–Meier estimate, or the model's law).
	Share float64
	// Of names the items Share counts the answers of: "the fitting
	// items" for a study (the give-up age is chosen without the held-out
	// items), "the model", "the log".
	Of string
	// Reason says where Age came from, for people, naming the set its
	// share counts: "99.3% of the fitting items' answers land by then",
	// "the --horizon given", "now stops there; ...".
	Reason string
}

// String is "15m (99.3% of the fitting items' answers land by then)".
func (g GiveUp) String() string {
	return fmt.Sprintf("%s (%s)", schedule.FormatDuration(g.Age), g.Reason)
}

// giveUpAges are the nice ages a default give-up age is chosen from:
// 1, 2, 5, 10, 15, 30 × s, min and h, then days.
func giveUpAges() []time.Duration {
	var out []time.Duration
	for _, u := range []time.Duration{time.Second, time.Minute, time.Hour} {
		for _, x := range []time.Duration{1, 2, 5, 10, 15, 30} {
			if u == time.Hour && x == 30 {
				continue
			}
			out = append(out, x*u)
		}
	}
	for _, d := range []time.Duration{1, 2, 3, 7, 14, 30, 60, 90, 365} {
		out = append(out, d*24*time.Hour)
	}
	return out
}

// DefaultGiveUp is the smallest nice age by which share (default
// DefaultGiveUpShare) of the final answers have landed, where answered
// is the share of all items with a final answer by age t (a CDF that may
// tend to less than 1: the rest never settles) and total its limit. It
// is never the width of a log's window: only where the answers land.
// of names the items answered counts ("the fitting items"), for Of and
// the reason.
func DefaultGiveUp(answered func(t float64) float64, total, share float64, of string) GiveUp {
	if share <= 0 || share > 1 {
		share = DefaultGiveUpShare
	}
	ages := giveUpAges()
	if !(total > 0) {
		return GiveUp{Age: ages[0], Share: 1, Of: of, Reason: "no answers to wait for among " + of}
	}
	for _, a := range ages {
		got := answered(a.Seconds()) / total
		if got >= share-1e-12 {
			return GiveUp{Age: a, Share: got, Of: of, Reason: fmt.Sprintf("%s of %s answers land by then", percent(got), possessive(of))}
		}
	}
	a := ages[len(ages)-1]
	got := answered(a.Seconds()) / total
	return GiveUp{Age: a, Share: got, Of: of, Reason: fmt.Sprintf("only %s of %s answers land by then", percent(got), possessive(of))}
}

// possessive is "the fitting items'" of "the fitting items", "the
// model's" of "the model".
func possessive(of string) string {
	if strings.HasSuffix(of, "s") {
		return of + "'"
	}
	return of + "'s"
}

// percent writes a share as "99.3%", never rounding a share below 1 up
// to "100%".
func percent(x float64) string {
	p := math.Floor(x*1000) / 10
	if x >= 1 {
		p = 100
	}
	return fmt.Sprintf("%.1f%%", p)
}

// capGiveUp caps g at the longest end of the baselines, when every one
// of them stops: a comparison is made at the age the baselines give up,
// rounded up to a whole second (10 ms below a second) so that the
// fitted schedule's last ask reads as a round age: a backoff's end,
// 3m20.751729705s, gives 3m21s.
func capGiveUp(g GiveUp, baselines []Baseline, answered func(t float64) float64, total float64) GiveUp {
	var longest time.Duration
	name := ""
	for _, b := range baselines {
		end, ok := b.Schedule.End()
		if !ok {
			return g
		}
		if end > longest {
			longest, name = end, b.Name
		}
	}
	if name == "" || longest >= g.Age {
		return g
	}
	age, where := roundUpAge(longest), "there"
	if age != longest {
		where = "at " + schedule.FormatDuration(longest.Round(time.Millisecond)) + ", rounded up"
	}
	if age >= g.Age {
		return g
	}
	got := 1.0
	if total > 0 {
		got = answered(age.Seconds()) / total
	}
	return GiveUp{Age: age, Share: got, Of: g.Of, Reason: fmt.Sprintf("%s stops %s; %s of %s answers land by then", name, where, percent(got), possessive(g.Of))}
}

// roundUpAge rounds an age up to a whole second, or to 10 ms below a
// second.
func roundUpAge(a time.Duration) time.Duration {
	u := time.Second
	if a < time.Second {
		u = 10 * time.Millisecond
	}
	if r := a % u; r != 0 {
		a += u - r
	}
	return a
}

// SampleGiveUp is DefaultGiveUp on a sample's Kaplan–Meier estimate:
// the nice age by which share of its final answers have landed; of
// names the sample ("the log").
func SampleGiveUp(smp Sample, share float64, of string) GiveUp {
	km := sampleKM(smp)
	return DefaultGiveUp(func(t float64) float64 { return 1 - km.At(t) }, 1-km.Never(), share, of)
}
