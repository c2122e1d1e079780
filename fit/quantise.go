package fit

import (
	"math"
	"slices"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// clauseSet is the quantiser's problem: schedules of at most K clauses
// "D until B" of constant interval D, from a first ask at boundary B₀,
// where each clause but the last ends exactly on a boundary (B − B' is a
// multiple of D, so the clause's last ask is at B and the next clause
// starts there) and the last runs to the horizon: it ends exactly there
// (a schedule that stops must see every answer up to its horizon), or,
// when no horizon was given, goes on for ever. Each (start, interval,
// end) clause's lag, requests and asks are summed once; a dynamic
// programme over (clauses used, boundary) then finds the cheapest
// schedule at any multipliers in O(K·clauseSet).
type clauseSet struct {
	b       []time.Duration // boundaries; b[0] first ask, b[len-1] the horizon
	edges   []segEdge
	first   sums // the first ask alone
	firstN  float64
	forever bool // the last clause never stops (no horizon was given)
	// tieBreak is a tiny objective per ask (1e-9 × the horizon): where
	// asks cost next to nothing, as in the far tail of a model, the
	// schedule that asks less wins the tie.
	tieBreak float64
	// askPrice is an objective per ask of any kind, which caps the asks a
	// stuck item gets by the horizon (see problem.capStuck).
	askPrice float64
	// stuckK is where the stuck cap's last search on the set found its
	// bracket (see problem.stuckBracket).
	stuckK int
	w      *walker
	// scratch is solveWithin's table, kept between its calls.
	scratch *budgetTable
}

type segEdge struct {
	from, to int // boundary indices; to == len(b)-1 for a last clause
	every    time.Duration
	s        sums
	count    float64         // asks at ages ≤ countTo
	asks     float64         // asks in all
	at       []time.Duration // a prefix's asks (see addPrefixes), else nil
	last     time.Duration
	// tail: the clause's last ask falls short of the horizon, and an
	// explicit ask at the horizon follows it.
	tail bool
}

// maxClauseAsks bounds the asks one clause may make, to keep the walk
// over tiny intervals cheap.
const maxClauseAsks = 5000

// niceSets gives the values people write: intervals of 1, 2, 5, 10, 15
// and 30 ms, s or min (plus 100, 200 and 500 ms, hours, and 1, 2, 7 and
// 30 days), and
// boundaries from a slightly wider set (3m, 45s and 1.5h read well as
// "until" ages). any widens both for --nice=false.
func niceSets(any bool) (intervals, boundaries []time.Duration) {
	ms, s, m, h := time.Millisecond, time.Second, time.Minute, time.Hour
	steps := []float64{1, 2, 5, 10, 15, 30}
	bsteps := []float64{1, 2, 3, 5, 10, 15, 20, 30, 45}
	if any {
		steps = []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 40, 45, 50}
		bsteps = []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 7, 8, 9, 10, 12, 15, 20, 25, 30, 35, 40, 45, 50}
	}
	for _, u := range []time.Duration{ms, s, m} {
		for _, x := range steps {
			intervals = append(intervals, time.Duration(x*float64(u)))
		}
		for _, x := range bsteps {
			boundaries = append(boundaries, time.Duration(x*float64(u)))
		}
	}
	intervals = append(intervals, 100*ms, 200*ms, 500*ms, h, 2*h, 3*h, 6*h, 12*h, 24*h, 48*h, 7*24*h, 30*24*h)
	for _, x := range []float64{1, 1.5, 2, 3, 4, 6, 8, 12, 18, 24, 36, 48, 60, 72} {
		boundaries = append(boundaries, time.Duration(x*float64(h)))
	}
	for d := 4; d <= 60; d++ {
		boundaries = append(boundaries, time.Duration(d)*24*h)
	}
	return intervals, boundaries
}

// newClauseSet walks every (start, interval) pair once over the law. A
// walk stops once its clause alone spends more than spend (requests per
// item, or asks by countTo when countTo ≥ 0), unless spend is 0.
// Landmarks join the nice boundaries.
func newClauseSet(l law, first, horizon time.Duration, forever, any bool, landmarks []time.Duration, minGap, maxGap time.Duration, countTo, spend float64) *clauseSet {
	ds, bs := niceSets(any)
	bs = append(bs, landmarks...)
	sg := newClauseSetFrom(l, first, horizon, forever, ds, bs, minGap, maxGap, countTo, spend)
	sg.addPrefixes(sg.w, append(ds, bs...))
	return sg
}

// newClauseSetFrom is newClauseSet with the intervals and boundaries given.
func newClauseSetFrom(l law, first, horizon time.Duration, forever bool, ds, bs []time.Duration, minGap, maxGap time.Duration, countTo, spend float64) *clauseSet {
	sg := &clauseSet{forever: forever, tieBreak: 1e-9 * horizon.Seconds()}
	sg.b = append(sg.b, first)
	for _, b := range bs {
		if b > first && b < horizon {
			sg.b = append(sg.b, b)
		}
	}
	sg.b = append(sg.b, horizon)
	slices.Sort(sg.b)
	sg.b = slices.Compact(sg.b)
	index := make(map[time.Duration]int, len(sg.b))
	for k, b := range sg.b {
		index[b] = k
	}
	f := first.Seconds()
	w := &walker{l: l, total: l.total(), index: index, horizon: horizon, countTo: countTo, spend: spend, minGap: minGap, maxGap: maxGap}
	if il, ok := l.(*itemLaw); ok {
		w.log = il
		if forever {
			w.stuck = 1 / il.n
		}
	} else {
		w.cache = map[time.Duration]pt{}
	}
	p0 := w.at(first)
	sg.first = sums{lag: firstPt(Mean, p0), lag2: firstPt(RMS, p0), requests: w.total + p0.pend, detected: p0.f}
	if f <= countTo {
		sg.firstN = 1
	}
	end := len(sg.b) - 1
	for i := 0; i < end; i++ {
		for _, d := range ds {
			if d < minGap || (maxGap > 0 && d > maxGap) || sg.b[i]+d > horizon {
				continue
			}
			w.walk(sg, i, d)
		}
	}
	sg.w = w
	return sg
}

// walker evaluates the law at the lattice of ages the walks visit: a
// density's each age once (its CDF is dear), a log's each time (two
// binary searches over its ages cost less than a map of them).
type walker struct {
	l     law
	total float64
	// log is l when it is a log's, read directly; cache holds another
	// law's values at the ages visited.
	log     *itemLaw
	cache   map[time.Duration]pt
	index   map[time.Duration]int
	horizon time.Duration
	countTo float64
	spend   float64
	minGap  time.Duration
	maxGap  time.Duration
	// stuck is the share of items assumed to stay pending past the
	// horizon, asked by a forever clause for one more horizon's length,
	// or an hour if that is longer (1/n on a log of n items: one more
	// stuck item than was seen). A log says nothing of the asks after
	// its last age, so without it a forever clause with a tiny interval
	// would look free.
	stuck float64
}

// ask adds to acc the lag and requests of an ask at v after one at p,
// and returns 1 if the ask counts towards an asks-by budget, else 0.
func (w *walker) ask(acc *sums, p, v pt) float64 {
	acc.lag += lagPt(Mean, p, v)
	acc.lag2 += lagPt(RMS, p, v)
	acc.requests += askPt(w.total, p, v)
	if v.t <= w.countTo {
		return 1
	}
	return 0
}

// overspent reports whether a clause alone spends more than the walk's
// limit (requests per item, or asks by countTo for an asks-by budget).
func (w *walker) overspent(acc sums, count float64) bool {
	return w.spend > 0 && (acc.requests > w.spend && w.countTo < 0 || count > w.spend)
}

func (w *walker) at(a time.Duration) pt {
	if w.log != nil {
		return w.log.at(a.Seconds())
	}
	v, ok := w.cache[a]
	if !ok {
		v = w.l.at(a.Seconds())
		w.cache[a] = v
	}
	return v
}

// walk adds the clauses that start at boundary i with interval d.
func (w *walker) walk(sg *clauseSet, i int, d time.Duration) {
	var acc sums
	var count, asks float64
	end := len(sg.b) - 1
	// Walk only as far as the last boundary the clause can end on.
	b0, reach := sg.b[i], time.Duration(maxClauseAsks)*d
	target := time.Duration(-1)
	if w.horizon-b0 <= reach {
		target = w.horizon
	} else {
		for k := end - 1; k > i; k-- {
			if x := sg.b[k] - b0; x <= reach && x%d == 0 {
				target = sg.b[k]
				break
			}
		}
	}
	p := w.at(b0)
	for m := 1; m <= maxClauseAsks; m++ {
		a := b0 + time.Duration(m)*d
		if a > target {
			break
		}
		v := w.at(a)
		count += w.ask(&acc, p, v)
		asks++
		p = v
		if w.overspent(acc, count) {
			return
		}
		if k, ok := w.index[a]; ok && k < end {
			sg.edges = append(sg.edges, segEdge{from: i, to: k, every: d, s: acc, count: count, asks: asks, last: a})
		}
		if a+d > w.horizon {
			// A schedule that stops must ask at the horizon, or it
			// would gain by missing the answers after its last ask. One
			// that never stops sees those answers at its next ask, past
			// the horizon: count that ask, or the walk would favour
			// intervals whose last ask falls just short of the horizon.
			switch {
			case a == w.horizon:
				acc.detected = v.f
			case sg.forever || a < w.horizon:
				// Forever: the next ask, past the horizon, sees the last
				// answers. Stopping: an explicit ask at the horizon does.
				seen := a + d
				if !sg.forever {
					seen = w.horizon
				}
				nx := w.at(seen)
				count += w.ask(&acc, v, nx)
				acc.requests += w.stuck * float64(max(w.horizon, time.Hour)/d)
				acc.detected = nx.f
				asks++
			default:
				return
			}
			tail := !sg.forever && a < w.horizon
			sg.edges = append(sg.edges, segEdge{from: i, to: end, every: d, s: acc, count: count, asks: asks, last: a, tail: tail})
			return
		}
	}
}

// solve finds the cheapest schedule of at most k clauses at λ, μ and
// returns its edges in order, or nil if none reaches the horizon.
func (sg *clauseSet) solve(obj Objective, k int, lambda, mu float64) []segEdge {
	n := len(sg.b)
	inf := math.Inf(1)
	v := make([][]float64, k+1)
	from := make([][]int, k+1)
	for s := range v {
		v[s] = make([]float64, n)
		from[s] = make([]int, n)
		for j := range v[s] {
			v[s][j] = inf
			from[s][j] = -1
		}
	}
	v[0][0] = sg.first.objective(obj) + lambda*sg.first.requests + mu*sg.firstN + sg.askPrice
	for s := 0; s < k; s++ {
		last := s == k-1 // its row is read at the horizon only
		for e, ed := range sg.edges {
			if v[s][ed.from] == inf || last && ed.to != n-1 {
				continue
			}
			c := v[s][ed.from] + ed.s.objective(obj) + (sg.tieBreak+sg.askPrice)*ed.asks + lambda*ed.s.requests + mu*ed.count
			if c < v[s+1][ed.to] {
				v[s+1][ed.to], from[s+1][ed.to] = c, e
			}
		}
	}
	bestS := -1
	for s := 1; s <= k; s++ {
		if bestS < 0 || v[s][n-1] < v[bestS][n-1] {
			bestS = s
		}
	}
	if bestS < 0 || v[bestS][n-1] == inf {
		return nil
	}
	path := make([]segEdge, bestS)
	for s, j := bestS, n-1; s > 0; s-- {
		ed := sg.edges[from[s][j]]
		path[s-1] = ed
		j = ed.from
	}
	return path
}

// schedule writes the edges as a schedule: an "at" clause for a first
// ask after age 0, then "D until B" clauses (equal neighbours merged),
// the last running forever when no horizon was given.
func (sg *clauseSet) schedule(path []segEdge) *schedule.Schedule {
	s := &schedule.Schedule{}
	if sg.b[0] > 0 || (len(path) > 0 && path[0].at != nil) {
		s.Clauses = append(s.Clauses, schedule.Clause{At: []time.Duration{sg.b[0]}})
	}
	prev := sg.b[0]
	for _, ed := range path {
		if ed.at != nil {
			s.Clauses = append(s.Clauses, schedule.Clause{At: ed.at})
			prev = ed.last
			continue
		}
		until := ed.last
		if ed.to == len(sg.b)-1 && !ed.tail {
			until = sg.b[ed.to]
		}
		n := len(s.Clauses)
		switch {
		case n > 0 && !s.Clauses[n-1].IsAt() && s.Clauses[n-1].Every == ed.every:
			s.Clauses[n-1].Until = until
		case ed.last == prev+ed.every && (ed.to < len(sg.b)-1 || !sg.forever):
			// A clause that asks once reads better as "at".
			if n == 0 {
				s.Clauses = append(s.Clauses, schedule.Clause{At: []time.Duration{sg.b[0]}})
			}
			s.Clauses = append(s.Clauses, schedule.Clause{At: []time.Duration{ed.last}})
		default:
			s.Clauses = append(s.Clauses, schedule.Clause{Every: ed.every, Until: until})
		}
		prev = ed.last
		if ed.tail {
			s.Clauses = append(s.Clauses, schedule.Clause{At: []time.Duration{sg.b[ed.to]}})
		}
	}
	if last := &s.Clauses[len(s.Clauses)-1]; sg.forever && !last.IsAt() {
		last.Until, last.Forever = 0, true
	}
	return schedule.Canonical(s)
}

// stuck is the number of asks a path makes to an item that never
// answers, up to the horizon (and the one past it of a forever clause).
func stuckAsks(path []segEdge) float64 {
	n := 1.0 // the first ask
	for _, ed := range path {
		n += ed.asks
	}
	return n
}

// total sums a path's lag, requests and priced asks.
func (sg *clauseSet) total(path []segEdge) (sums, float64) {
	s, n := sg.first, sg.firstN
	for _, ed := range path {
		s.lag += ed.s.lag
		s.lag2 += ed.s.lag2
		s.requests += ed.s.requests
		s.detected = ed.s.detected
		n += ed.count
	}
	return s, n
}
