package fit

import "sync"

// solveQueue is solve without interval limits, in O(n log n) rather than
// O(n²) (Galil and Park's queue for a concave least-weight subsequence).
//
// The cost of an ask at t[b] after one at t[a] is
//
//	c(a, b) = v[a] + lag(a, b) + λ·(total − f[a]) + (terms of b alone)
//
// and lag is Monge, so for a < a' the difference c(a', b) − c(a, b) does
// not increase with b: once the later predecessor a' is strictly cheaper
// it stays so. The queue holds the candidates that are still best for
// some b, each with the first b it wins, found by bisection when it is
// queued; each candidate is queued once and dropped once. Ties go to
// the earlier predecessor, as in solveScan, so both find the same path
// up to rounding.
func (g *grid) solveQueue(lambda, mu float64) []int {
	n := len(g.t)
	sc := getQueueScratch(n)
	defer queueScratches.Put(sc)
	v, from := sc.v[:n], sc.from[:n]
	v[0] = g.startCost(lambda, mu)
	// cost is v[a] + g.lag(a, b) + λ·(total − f[a]) for the mean, as
	// lag writes it, on slices of length n (no bounds checks).
	t, fi, ii, total, rms := g.t[:n], g.f[:n], g.i[:n], g.total, g.obj == RMS
	cost := func(a, b int) float64 {
		if rms {
			return v[a] + g.lag(a, b) + lambda*(total-fi[a])
		}
		return v[a] + (ii[b] - ii[a] - (t[b]-t[a])*fi[a]) + lambda*(total-fi[a])
	}
	// queue[head:] are the candidates, wins[k] the first b queue[k] is
	// best for; wins increases along the queue.
	queue, wins := sc.queue[:1], sc.wins[:1]
	queue[0], wins[0] = 0, 1
	head := 0
	for b := 1; b < n; b++ {
		for head+1 < len(queue) && wins[head+1] <= b {
			head++
		}
		a := queue[head]
		v[b], from[b] = cost(a, b)+g.askCost(b, lambda, mu), a
		if b == n-1 {
			break
		}
		// Queue b as a predecessor of the candidates after it.
		for len(queue) > head {
			k := len(queue) - 1
			s := max(wins[k], b+1)
			if cost(b, s) >= cost(queue[k], s) {
				break
			}
			queue, wins = queue[:k], wins[:k]
		}
		if len(queue) == head {
			queue, wins = append(queue, b), append(wins, b+1)
			continue
		}
		// b loses to the last candidate at the start of its run: find
		// the first b' after that where it wins, if any.
		k := len(queue) - 1
		lo, hi := max(wins[k], b+1), n // b loses at lo; wins at hi, if hi < n
		for hi-lo > 1 {
			mid := int(uint(lo+hi) >> 1)
			if cost(b, mid) < cost(queue[k], mid) {
				hi = mid
			} else {
				lo = mid
			}
		}
		if hi < n {
			queue, wins = append(queue, b), append(wins, hi)
		}
	}
	return pathOf(from)
}

// queueScratch holds a solve's working slices, reused from one solve to
// the next (a fit's search solves one grid a hundred times and more):
// every entry a solve reads it writes first, so nothing is cleared.
type queueScratch struct {
	v                 []float64
	from, queue, wins []int
}

var queueScratches = sync.Pool{New: func() any { return new(queueScratch) }}

// getQueueScratch is a scratch with room for n candidates.
func getQueueScratch(n int) *queueScratch {
	sc := queueScratches.Get().(*queueScratch)
	if cap(sc.v) < n {
		sc.v, sc.from = make([]float64, n), make([]int, n)
		sc.queue, sc.wins = make([]int, 1, n), make([]int, 1, n)
	}
	return sc
}
