package logs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/pollfit/pollfit/estimate"
)

// MaxByValues is the most distinct values of the Options.By column: a
// segment column is categorical (a payment method, a region, a client
// version), not an identifier.
const MaxByValues = 1000

// EachBy is EachWeighted with the value of the Options.By column: fn
// gets each item with its weight, its row's value (trimmed; an empty
// field is the value "") and that value's index in Stats.Values, which
// lists the distinct values in the order they were first delivered (so a
// value new to fn has the next index). The values
// travel beside the items, not in them, so estimate.Item is unchanged and
// memory stays flat; more than MaxByValues distinct values is an error.
// Histograms have no By column and are refused.
func EachBy(paths []string, opt Options, fn func(it estimate.Item, w float64, seg int, value string)) (Stats, error) {
	return EachByContext(context.Background(), paths, opt, fn)
}

// EachByContext is EachBy, stopping soon after ctx is done with ctx's
// error wrapped, as EachContext does.
func EachByContext(ctx context.Context, paths []string, opt Options, fn func(it estimate.Item, w float64, seg int, value string)) (Stats, error) {
	if opt.By == "" {
		return Stats{}, errors.New("EachBy needs Options.By, the column to group by")
	}
	if opt.Histogram {
		return Stats{}, errors.New("a histogram has no group column: give the raw log to group by " + opt.By)
	}
	var r *reader
	r, err := newReader(opt, func(it estimate.Item, w float64) { fn(it, w, r.seg, r.stats.Values[r.seg]) })
	if err != nil {
		return Stats{}, err
	}
	r.by = &segTable{ids: map[string]int32{}}
	r.ctx = ctx
	defer r.close()
	return r.readAll(paths)
}

// segTable gives each distinct value of the By column a provisional id,
// shared by the parsing workers (so in no set order); the reader maps
// them to final indices in delivery order (segIndex).
type segTable struct {
	mu     sync.Mutex
	ids    map[string]int32
	values []string
}

// id returns the provisional id of s, false when the table is full.
func (t *segTable) id(s []byte) (int32, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[string(s)]; ok {
		return id, true
	}
	if len(t.values) >= MaxByValues {
		return 0, false
	}
	id := int32(len(t.values))
	t.values = append(t.values, string(s))
	t.ids[string(s)] = id
	return id, true
}

// segOf sets the row's group from the text of its By field: through
// the worker's own cache, then the shared table.
func (c *rowConv) segOf(s []byte, b *batch, line int) bool {
	s = trim(s)
	if id, ok := c.segCache[string(s)]; ok {
		c.v.seg = id
		return true
	}
	id, ok := c.by.id(s)
	if !ok {
		if b.err == nil { // not skippable: the column is not categorical
			b.err = &RowError{File: c.l.file, Line: line, Col: c.l.by + 1, Column: c.l.name(c.l.by),
				Msg: fmt.Sprintf("more than %d distinct values: group by a categorical column (a payment method, a region), not an identifier", MaxByValues)}
		}
		return false
	}
	if c.segCache == nil {
		c.segCache = map[string]int32{}
	}
	c.segCache[string(s)] = id
	c.v.seg = id
	return true
}

// parquetBy is segOf for a Parquet By column of any scalar type.
func (c *rowConv) parquetBy(p *pqCol, b *batch, line int, buf []byte) bool {
	switch p.phys {
	case parquet.Types.Double:
		buf = strconv.AppendFloat(buf, p.f64[p.cur], 'g', -1, 64)
	case parquet.Types.Float:
		buf = strconv.AppendFloat(buf, float64(p.f32[p.cur]), 'g', -1, 32)
	default:
		buf = p.statusText(buf)
	}
	return c.segOf(buf, b, line)
}

// segIndex maps a provisional id to the value's final index, giving the
// next index to a value delivered for the first time.
func (r *reader) segIndex(id int32) int {
	for int(id) >= len(r.segFinal) {
		r.segFinal = append(r.segFinal, -1)
	}
	if r.segFinal[id] < 0 {
		r.by.mu.Lock()
		v := r.by.values[id]
		r.by.mu.Unlock()
		r.segFinal[id] = len(r.stats.Values)
		r.stats.Values = append(r.stats.Values, v)
	}
	return r.segFinal[id]
}
