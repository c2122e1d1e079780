package loggen

import (
	"bufio"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"time"
)

// Each calls fn with the log's n rows in order of creation, one at a
// time: nothing is held but the row, so a log of any size streams. The
// creation times are n uniform draws over the window, sorted, made in
// order as descending order statistics (the largest of k uniforms is a
// uniform to the power 1/k, and the rest lie uniformly below it). It
// stops at fn's first error and returns it.
func (g *Realistic) Each(n int, fn func(RealisticRow) error) error {
	r := rand.New(rand.NewPCG(g.seed, 0x9e3779b97f4a7c15))
	start := g.End.Add(-g.Window)
	v := 1.0 // the largest of the draws not yet used, in (0, 1]
	for k := n; k >= 1; k-- {
		v *= math.Pow(r.Float64(), 1/float64(k))
		created := start.Add(time.Duration((1 - v) * float64(g.Window))).Truncate(time.Millisecond)
		if err := fn(g.row(r, n-k+1, created)); err != nil {
			return err
		}
	}
	return nil
}

// row draws the row of item id created at created.
func (g *Realistic) row(r *rand.Rand, id int, created time.Time) RealisticRow {
	age, declined, c := g.outcome(r, created)
	row := RealisticRow{ID: id, Channel: c.Name, Started: created, State: RealisticStuckAs}
	row.AmountCents = int64(math.Round(100 * 25 * math.Exp(r.NormFloat64())))
	if age < 0 {
		return row
	}
	row.State = RealisticPendingAs
	done := created.Add(max(age, 0)).Truncate(time.Millisecond)
	if done.After(g.End) {
		return row // still in flight when the log was taken
	}
	row.Finished, row.State = done, RealisticSettledAs
	if declined {
		row.State = RealisticFailedAs
	}
	return row
}

// realisticTime is the layout of the log's timestamps: RFC 3339 with
// milliseconds and the zone's offset.
const realisticTime = "2006-01-02T15:04:05.000Z07:00"

// WriteCSV writes the log's n rows as CSV with the header
// RealisticHeader, timestamps in the log's zone with its offsets, a
// pending row's finished empty, streaming (see Each).
func (g *Realistic) WriteCSV(w io.Writer, n int) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	if _, err := bw.WriteString(RealisticHeader + "\n"); err != nil {
		return err
	}
	var b []byte
	err := g.Each(n, func(row RealisticRow) error {
		b = append(b[:0], "pay_"...)
		b = strconv.AppendInt(b, int64(row.ID), 10)
		b = append(b, ',')
		b = append(b, row.Channel...)
		b = append(b, ',')
		b = row.Started.In(g.Zone).AppendFormat(b, realisticTime)
		b = append(b, ',')
		if !row.Finished.IsZero() {
			b = row.Finished.In(g.Zone).AppendFormat(b, realisticTime)
		}
		b = append(b, ',')
		b = append(b, row.State...)
		b = append(b, ',')
		b = strconv.AppendInt(b, row.AmountCents/100, 10)
		b = append(b, '.', byte('0'+row.AmountCents%100/10), byte('0'+row.AmountCents%10), '\n')
		_, err := bw.Write(b)
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// RealisticReadFlags are the pollfit flags that read a realistic log.
const RealisticReadFlags = "--created-col started --settled-col finished --status-col state --pending-status " + RealisticStuckAs
