package adapters_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/pollfit/pollfit/export/adapters/poll"
)

var errNotYet = errors.New("not yet")

var schedules = map[string]poll.Schedule{
	"Poll": poll.Poll, "QuickLate": poll.QuickLate,
	"Steady": poll.Steady, "Seed4": poll.Seed4, "Late": poll.Late, "WallClock": poll.WallClock,
}

// fakeClock moves only when slept on.
type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(d time.Duration) {
	if d > 0 {
		c.now = c.now.Add(d)
	}
}

// check records the age of each call since start, takes slow and
// succeeds at call succeedAt (never when 0).
type check struct {
	now       func() time.Time
	sleep     func(time.Duration)
	start     time.Time
	slow      time.Duration
	succeedAt int
	ages      []time.Duration // when each call started
	ends      []time.Duration // when it returned
}

func (c *check) call() error {
	c.ages = append(c.ages, c.now().Sub(c.start))
	c.sleep(c.slow)
	c.ends = append(c.ends, c.now().Sub(c.start))
	if len(c.ages) == c.succeedAt {
		return nil
	}
	return errNotYet
}

// adapterCase is a schedule, a check duration and the call the check
// succeeds at (0: never).
type adapterCase struct {
	schedule  string
	slow      time.Duration
	succeedAt int
}

func (c adapterCase) String() string {
	return fmt.Sprintf("%s/slow=%v/succeed=%d", c.schedule, c.slow, c.succeedAt)
}

// want is the ages of the calls of c, from the schedule package's
// list: after a call at a, the first listed ask after a and at or after
// a+slow, until the check succeeds.
func (c adapterCase) want() []time.Duration {
	return c.wantAfter(func(_ int, a time.Duration) time.Duration { return a + c.slow })
}

// wantAfter is want for checks whose call i, at a, returns at end(i,
// a): on the real clock the checks take what they take, so the next
// call is due at the first ask after a and at or after that end.
func (c adapterCase) wantAfter(end func(i int, a time.Duration) time.Duration) []time.Duration {
	all := poll.Asks[c.schedule]
	var out []time.Duration
	for i := 0; i < len(all) && (c.succeedAt == 0 || len(out) < c.succeedAt); {
		out = append(out, all[i])
		due := end(len(out)-1, all[i])
		for i++; i < len(all) && all[i] < due; i++ {
		}
	}
	return out
}

// checkResult compares the ages and the error of a run with want,
// within tol of each ask (0 on a fake clock).
func checkResult(t *testing.T, c adapterCase, want, got []time.Duration, err error, tol time.Duration) {
	t.Helper()
	if succeeds := c.succeedAt > 0 && c.succeedAt == len(want); succeeds && err != nil {
		t.Errorf("%v: error %v, want success", c, err)
	} else if !succeeds && !errors.Is(err, errNotYet) {
		t.Errorf("%v: error %v, want %v", c, err, errNotYet)
	}
	if len(got) != len(want) {
		t.Fatalf("%v: calls at %v, want %v", c, got, want)
	}
	for i := range got {
		if got[i] < want[i]-time.Millisecond || got[i] > want[i]+tol {
			t.Errorf("%v: call %d at %v, want %v (within %v):\n got %v\nwant %v", c, i+1, got[i], want[i], tol, got, want)
		}
	}
}

// fakeCases run on a fake clock: every fake-clock schedule, with
// instant checks, checks of 300 ms and checks longer than some gaps.
func fakeCases() []adapterCase {
	var cases []adapterCase
	for _, s := range []string{"Steady", "Seed4", "Late", "WallClock"} {
		for _, slow := range []time.Duration{0, 300 * time.Millisecond, 1300 * time.Millisecond} {
			for _, n := range []int{0, 3} {
				cases = append(cases, adapterCase{s, slow, n})
			}
		}
	}
	return cases
}

// runFake runs adapter on a fake clock for each of fakeCases.
func runFake(t *testing.T, adapter func(b *poll.BackOff, clock *fakeClock, checkPayment func() error) error) {
	for _, c := range fakeCases() {
		clock := &fakeClock{now: poll.Created}
		b := schedules[c.schedule].BackOff()
		b.Now = clock.Now
		b.Reset()
		ch := &check{now: clock.Now, sleep: clock.Sleep, start: clock.Now(), slow: c.slow, succeedAt: c.succeedAt}
		err := adapter(b, clock, ch.call)
		checkResult(t, c, c.want(), ch.ages, err, 0)
	}
}

// realCases run on the real clock, in parallel: short schedules with
// instant checks, checks of 40 ms and checks longer than a gap.
var realCases = []adapterCase{
	{"Poll", 0, 0}, {"Poll", 40 * time.Millisecond, 0}, {"Poll", 130 * time.Millisecond, 0},
	{"Poll", 40 * time.Millisecond, 4}, {"QuickLate", 0, 0}, {"QuickLate", 40 * time.Millisecond, 2},
}

// realTolerance is how late a call on the real clock may be: how late
// a timer may fire on a loaded machine (40 ms and more at a load of 5
// on 2 cores). Falling behind by the checks' time, as gap-based waits
// do, would make the 3rd call with 40 ms checks 80 ms late and the 9th
// 320 ms.
const realTolerance = 80 * time.Millisecond

// runReal runs adapter on the real clock for each of realCases.
func runReal(t *testing.T, adapter func(b *poll.BackOff, checkPayment func() error) error) {
	if testing.Short() {
		t.Skip("skipping the real-clock runs in -short mode")
	}
	for _, c := range realCases {
		t.Run(c.String(), func(t *testing.T) {
			t.Parallel()
			start := time.Now()
			b := schedules[c.schedule].BackOff()
			ch := &check{now: time.Now, sleep: time.Sleep, start: start, slow: c.slow, succeedAt: c.succeedAt}
			err := adapter(b, ch.call)
			want := c.wantAfter(func(i int, a time.Duration) time.Duration {
				if i < len(ch.ends) {
					return ch.ends[i]
				}
				return a + c.slow
			})
			checkResult(t, c, want, ch.ages, err, realTolerance)
		})
	}
}
