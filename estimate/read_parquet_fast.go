package estimate

import (
	"math"

	"github.com/apache/arrow/go/v17/parquet"
)

// fastRows is parquetRows for the common shape — created_at and
// settled_at timestamp columns and an optional string status — decoding
// column by column without per-row calls. It reports false, leaving b as
// it was, when the shape differs or a row needs a closer look (a bad row,
// an out-of-range time); parquetRows then goes row by row.
func (c *rowConv) fastRows(cols []*pqCol, n int, b *batch) bool {
	var created, settled, status *pqCol
	for _, p := range cols {
		switch p.role {
		case roleCreated:
			created = p
		case roleSettled:
			settled = p
		case roleStatus:
			status = p
		default:
			return false
		}
	}
	if c.l.mode != modeTimes || created == nil || settled == nil ||
		(status != nil && status.phys != parquet.Types.ByteArray) {
		return false
	}
	if (created.local || settled.local) && c.tp.loc != nil {
		return false // wall-clock times in a zone: row by row
	}
	cre, ok1 := created.times(n, &c.fast.cre)
	set, ok2 := settled.times(n, &c.fast.set)
	if !ok1 || !ok2 {
		return false
	}
	var sts []uint8
	if status != nil {
		var ok bool
		if sts, ok = c.statusCodes(status, n); !ok {
			return false
		}
	}
	nItems, nDef, maxTime := len(b.items), len(b.deferred), b.maxTime
	undo := func() bool {
		b.items, b.deferred, b.maxTime = b.items[:nItems], b.deferred[:nDef], maxTime
		return false
	}
	latest := b.maxTime
	for k := 0; k < n; k++ {
		cr, s := cre[k], set[k]
		if cr == NoTime {
			return undo()
		}
		it := Item{Created: cr, Signal: math.NaN(), Status: Settled}
		final := s != NoTime
		if sts != nil && sts[k] != 0 {
			it.Status = Status(sts[k] - 1)
			if it.Status.Final() && s == NoTime {
				return undo()
			}
		}
		if latest == NoTime || cr > latest {
			latest = cr
		}
		switch {
		case final:
			if s < cr {
				return undo()
			}
			it.Age = float64(s-cr) / 1e9
			if s > latest {
				latest = s
			}
		case c.fixedObs:
			if c.observed < cr {
				return undo()
			}
			it.Status, it.Age = Pending, float64(c.observed-cr)/1e9
		default:
			it.Status = Pending
			b.deferred = append(b.deferred, it)
			continue
		}
		b.items = append(b.items, it)
	}
	b.maxTime = latest
	b.rows += int64(n)
	return true
}

// fastBufs are the scratch columns of fastRows.
type fastBufs struct {
	cre, set []int64
	sts      []uint8
	cache    statusCache
}

// times returns the column's first n rows as Unix ns (NoTime for null),
// or false if it is not a timestamp column or a value is out of range.
func (p *pqCol) times(n int, buf *[]int64) ([]int64, bool) {
	if p.unit == 0 || p.phys != parquet.Types.Int64 {
		return nil, false
	}
	out := grow(*buf, int64(n))
	*buf = out
	lim := int64(math.MaxInt64) / p.unit
	j := 0
	for k := range out {
		if p.maxDef > 0 && p.defs[k] < p.maxDef {
			out[k] = NoTime
			continue
		}
		v := p.i64[j]
		j++
		if v > lim || v <= -lim {
			return nil, false
		}
		out[k] = v * p.unit
	}
	return out, true
}

// statusCodes returns Status+1 for each row, 0 for an empty status, or
// false at an unknown one.
func (c *rowConv) statusCodes(p *pqCol, n int) ([]uint8, bool) {
	out := grow(c.fast.sts, int64(n))
	c.fast.sts = out
	j := 0
	for k := range out {
		if p.maxDef > 0 && p.defs[k] < p.maxDef {
			out[k] = 0
			continue
		}
		s := trim(p.ba[j])
		j++
		if len(s) == 0 {
			out[k] = 0
			continue
		}
		st, ok := c.lookupCached(&c.fast.cache, s)
		if !ok {
			return nil, false
		}
		out[k] = uint8(st) + 1
	}
	return out, true
}
