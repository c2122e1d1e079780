package logs

import (
	"math"
	"time"

	"github.com/apache/arrow/go/v17/parquet"
)

func timeOfDays(d int64) time.Time { return time.Unix(d*86400, 0).UTC() }

// parquetRows turns n decoded rows into items; rowBase is the number of
// rows of the file before them.
func (c *rowConv) parquetRows(cols []*pqCol, n int, rowBase int64, b *batch) {
	if c.fastRows(cols, n, b) {
		return
	}
	for _, p := range cols {
		p.materialize(len(p.idx))
	}
	var sc statusCache
	var buf [24]byte
	epochCreated := false
	for _, p := range cols {
		if p.role == roleCreated && !p.isTime() && p.phys != parquet.Types.ByteArray {
			epochCreated = true
		}
	}
	for k := 0; k < n; k++ {
		for _, p := range cols {
			p.advance(k)
		}
		b.rows++
		line := int(rowBase) + k + 2
		if c.parquetRow(cols, line, b, &sc, buf[:0], epochCreated) {
			c.build(b, line)
		}
		if b.err != nil {
			return
		}
	}
}

// parquetRow reads the current row of cols into c.v.
func (c *rowConv) parquetRow(cols []*pqCol, line int, b *batch, sc *statusCache, buf []byte, epochCreated bool) bool {
	v := &c.v
	v.reset()
	for _, p := range cols {
		if p.role == roleBy && c.by != nil {
			if p.cur < 0 && !c.segOf(nil, b, line) || p.cur >= 0 && !c.parquetBy(p, b, line, buf[:0]) {
				return false
			}
			continue
		}
		if p.cur < 0 {
			continue
		}
		switch p.role {
		case roleCreated, roleSettled:
			if p.phys == parquet.Types.ByteArray && len(trim(p.ba[p.cur])) == 0 {
				continue // an empty string is no time, as in CSV
			}
			t, err := p.time(&c.tp)
			if err != nil {
				return c.fail(b, line, p.col, skipTime, "%v", err)
			}
			if p.role == roleCreated {
				v.created = t
			} else {
				v.settled = t
			}
		case roleDuration:
			if p.phys == parquet.Types.ByteArray {
				s := trim(p.ba[p.cur])
				if len(s) == 0 {
					continue
				}
				d, err := parseDuration(s)
				if err != nil {
					return c.fail(b, line, p.col, skipDuration, "%v", err)
				}
				v.dur = d
				continue
			}
			d := p.number()
			if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
				return c.fail(b, line, p.col, skipDuration, "bad duration %v (want seconds >= 0)", d)
			}
			v.dur = d
		case roleStatus:
			s := p.statusText(buf)
			if len(s) == 0 {
				continue
			}
			st, ok := c.lookupCached(sc, s)
			if !ok {
				return c.fail(b, line, p.col, skipStatus,
					"unknown status %q (neither a known final word nor a pending one)", s)
			}
			v.status, v.hasStatus = st, true
		case roleSignal:
			if !c.parquetSignal(p, line, b, epochCreated) {
				return false
			}
		}
	}
	return true
}

func (c *rowConv) parquetSignal(p *pqCol, line int, b *batch, epochCreated bool) bool {
	v := &c.v
	switch {
	case p.phys == parquet.Types.ByteArray:
		if s := trim(p.ba[p.cur]); len(s) > 0 {
			return c.signal(s, epochCreated, line, b)
		}
	case p.isTime() || epochCreated:
		t, err := p.time(&c.tp)
		if err != nil {
			return c.fail(b, line, p.col, skipSignal, "%v", err)
		}
		v.sigTime = t
	default:
		d := p.number()
		if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
			return c.fail(b, line, p.col, skipSignal, "bad signal age %v (want seconds >= 0)", d)
		}
		v.sigAge = d
	}
	return true
}
