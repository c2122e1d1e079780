package logs

import (
	"encoding/binary"
	"math"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/pollfit/pollfit/estimate"
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
	cre, ok1 := newTimeCursor(created)
	set, ok2 := newTimeCursor(settled)
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
		cr, ok1 := cre.at(k)
		s, ok2 := set.at(k)
		if !ok1 || !ok2 || cr == noTime {
			return undo()
		}
		st := estimate.Settled
		final := s != noTime
		if sts != nil && sts[k] != 0 {
			st = estimate.Status(sts[k] - 1)
			if st.Final() && s == noTime {
				return undo()
			}
		}
		if latest == noTime || cr > latest {
			latest = cr
		}
		var age float64
		switch {
		case final:
			var ok bool
			age, ok = ageBetween(cr, s)
			if s < cr || !ok {
				return undo()
			}
			if s > latest {
				latest = s
			}
		case c.fixedObs:
			var ok bool
			age, ok = ageBetween(cr, c.observed)
			if c.observed < cr || !ok {
				return undo()
			}
			st = estimate.Pending
		default:
			b.deferPending(estimate.Item{Created: cr, Dated: true, Status: estimate.Pending}, c.l.file, 0)
			continue
		}
		it := b.add()
		it.Age, it.Created, it.Status, it.Dated = age, cr, st, true
	}
	b.maxTime = latest
	b.rows += int64(n)
	return true
}

// fastBufs are the scratch columns of fastRows.
type fastBufs struct {
	sts   []uint8
	dict  []uint8 // status codes of dictionary entries
	cache statusCache
}

// timeCursor walks the rows of a timestamp column in order.
type timeCursor struct {
	p   *pqCol
	lim int64 // the largest value in range
	j   int   // the next value
}

// newTimeCursor reports false if p is not a timestamp column.
func newTimeCursor(p *pqCol) (timeCursor, bool) {
	if p.unit == 0 || p.phys != parquet.Types.Int64 {
		return timeCursor{}, false
	}
	return timeCursor{p: p, lim: math.MaxInt64 / p.unit}, true
}

// at returns row k as Unix ns (noTime for null), or false if the value
// is out of range.
func (t *timeCursor) at(k int) (int64, bool) {
	p := t.p
	if p.maxDef > 0 && p.defs[k] < p.maxDef {
		return noTime, true
	}
	v := p.i64[t.j]
	t.j++
	if v > t.lim || v <= -t.lim {
		return 0, false
	}
	return v * p.unit, true
}

// statusCodes returns estimate.Status+1 for each row, 0 for an empty status, or
// false at an unknown one.
func (c *rowConv) statusCodes(p *pqCol, n int) ([]uint8, bool) {
	out := grow(c.fast.sts, int64(n))
	c.fast.sts = out
	if p.lazy {
		return c.dictCodes(p, out)
	}
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

// dictCodes is statusCodes for a batch of dictionary indices: each
// dictionary entry is looked up once.
func (c *rowConv) dictCodes(p *pqCol, out []uint8) ([]uint8, bool) {
	const unknown = 255
	codes := c.fast.dict[:0]
	for _, e := range p.dict {
		s := trim(e)
		code := uint8(0)
		if len(s) > 0 {
			code = unknown
			if st, ok := c.status.Lookup(s); ok && int(st) < unknown-1 {
				code = uint8(st) + 1
			}
		}
		codes = append(codes, code)
	}
	c.fast.dict = codes
	j := 0
	for k := range out {
		if p.maxDef > 0 && p.defs[k] < p.maxDef {
			out[k] = 0
			continue
		}
		code := codes[p.idx[j]]
		j++
		if code == unknown {
			return nil, false
		}
		out[k] = code
	}
	return out, true
}

// hybrid decodes Parquet's RLE / bit-packed hybrid encoding.
type hybrid struct {
	data []byte
	bw   int
	rep  int    // values left in the current RLE run
	val  int32  // its value
	bp   int    // values left in the current bit-packed run
	bits []byte // the bit-packed run
	bpos int    // the next value's position in it
}

func (h *hybrid) init(data []byte, bw int) {
	*h = hybrid{data: data, bw: bw}
}

// run starts the next run, reporting false at the end or at a bad one.
func (h *hybrid) run() bool {
	hdr, k := binary.Uvarint(h.data)
	if k <= 0 {
		return false
	}
	h.data = h.data[k:]
	if hdr&1 == 0 {
		nb := (h.bw + 7) / 8
		if hdr>>1 > math.MaxInt32 || len(h.data) < nb {
			return false
		}
		var v uint32
		for i := range nb {
			v |= uint32(h.data[i]) << (8 * i)
		}
		h.rep, h.val, h.data = int(hdr>>1), int32(v), h.data[nb:]
		return true
	}
	groups := hdr >> 1
	if groups > math.MaxInt32/8 {
		return false
	}
	nbytes, nvals := int(groups)*h.bw, int(groups)*8
	if nbytes > len(h.data) { // a short last run: the values its bytes hold
		nbytes = len(h.data)
		if h.bw > 0 {
			nvals = nbytes * 8 / h.bw
		}
	}
	h.bits, h.bp, h.bpos, h.data = h.data[:nbytes], nvals, 0, h.data[nbytes:]
	return true
}

// hybridFill decodes len(out) values into out and returns how many it
// decoded: fewer at the end of the data.
func hybridFill[T int16 | int32](h *hybrid, out []T) int {
	i := 0
	for i < len(out) {
		switch {
		case h.rep > 0:
			m := min(h.rep, len(out)-i)
			v := T(h.val)
			for j := range out[i : i+m] {
				out[i+j] = v
			}
			i += m
			h.rep -= m
		case h.bp > 0:
			m := min(h.bp, len(out)-i)
			unpack(h, out[i:i+m])
			i += m
			h.bp -= m
		default:
			if !h.run() {
				return i
			}
		}
	}
	return i
}

// unpack decodes len(out) values of the bit-packed run: value by value
// up to a group of 8, then, for widths up to 8 bits, a group of 8 from
// each 64-bit load.
func unpack[T int16 | int32](h *hybrid, out []T) {
	bw, bits := uint(h.bw), h.bits
	mask := uint64(1)<<bw - 1
	o := uint(h.bpos) * bw // bit offset of out[j]
	j := 0
	one := func() {
		b := o >> 3
		var w uint64
		if int(b)+8 <= len(bits) {
			w = binary.LittleEndian.Uint64(bits[b:])
		} else {
			for k := 0; int(b)+k < len(bits); k++ {
				w |= uint64(bits[int(b)+k]) << (8 * k)
			}
		}
		out[j] = T((w >> (o & 7)) & mask)
		o += bw
		j++
	}
	for j < len(out) && (h.bpos+j)%8 != 0 {
		one()
	}
	if bw <= 8 {
		for j+8 <= len(out) && int(o>>3)+8 <= len(bits) {
			w := binary.LittleEndian.Uint64(bits[o>>3:])
			g := out[j : j+8 : j+8]
			g[0], g[1], g[2], g[3] = T(w&mask), T(w>>bw&mask), T(w>>(2*bw)&mask), T(w>>(3*bw)&mask)
			g[4], g[5], g[6], g[7] = T(w>>(4*bw)&mask), T(w>>(5*bw)&mask), T(w>>(6*bw)&mask), T(w>>(7*bw)&mask)
			o += 8 * bw
			j += 8
		}
	}
	for j < len(out) {
		one()
	}
	h.bpos += len(out)
}
