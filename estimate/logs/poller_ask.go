package logs

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"io"
	"os"
	"slices"
	"time"
)

// maxSpillID bounds an id read back from a spill: no CSV field is longer
// than a line.
const maxSpillID = 1 << 30

// ask reads one row of a one-row-per-ask log into the item's state. An
// ask of an item already open whose created_at reads as the item's first
// did is not parsed again.
func (r *pollerRead) ask(rec [][]byte, line int) error {
	p := r.form
	id, ctext := trim(rec[p.id]), trim(rec[p.created])
	old := r.open.find(id)
	var created int64
	if len(id) > 0 && old != nil && old.createdText(ctext) {
		created = old.created
	} else {
		var err error
		if created, err = r.time(rec, p.created, line, false); err != nil || created == noTime {
			return err
		}
		if len(id) == 0 {
			return r.bad(line, p.id, skipMissing, "empty %s", p.names[p.id])
		}
	}
	asked, err := r.time(rec, p.asked, line, false)
	if err != nil || asked == noTime {
		return err
	}
	if asked < created {
		return r.bad(line, p.asked, skipOrder, "%s before %s", p.names[p.asked], p.names[p.created])
	}
	if _, ok := ageBetween(created, asked); !ok {
		return r.bad(line, p.asked, skipAge, "%s", tooOld("ask age", secondsBetween(created, asked)))
	}
	st, ok, err := r.statusOf(rec, line)
	if !ok {
		return err
	}
	s := askState{created: created, lastPending: noTime, firstFinal: noTime, lastAsk: asked}
	if st.Final() {
		s.firstFinal = asked
	} else {
		s.lastPending = asked
	}
	if old != nil {
		if old.created != created {
			return r.bad(line, p.created, skipOrder, "item %q: %s differs from an earlier row's %s: one item has one creation time",
				id, p.names[p.created], time.Unix(0, old.created).UTC().Format(time.RFC3339Nano))
		}
		old.merge(s)
		return nil
	}
	r.open.add(id, ctext, s)
	if r.open.len() >= r.opt.MaxOpen {
		return r.spillOpen()
	}
	return nil
}

// itemRow reads one row of a one-row-per-item log and delivers it.
func (r *pollerRead) itemRow(rec [][]byte, line int, created int64) error {
	p := r.form
	lastPending, err := r.time(rec, p.lastPending, line, true)
	if err != nil {
		return err
	}
	firstFinal, err := r.time(rec, p.firstFinal, line, true)
	if err != nil {
		return err
	}
	if p.stat >= 0 {
		st, ok, err := r.statusOf(rec, line)
		if !ok {
			return err
		}
		if st.Final() != (firstFinal != noTime) {
			return r.bad(line, p.stat, skipStatus, "status %q with %s %q: a final status needs one and a pending status none",
				trim(rec[p.stat]), p.names[p.firstFinal], trim(rec[p.firstFinal]))
		}
	}
	switch {
	case lastPending == noTime && firstFinal == noTime:
		return r.bad(line, p.lastPending, skipMissing, "empty %s and %s: an item needs at least one ask", p.names[p.lastPending], p.names[p.firstFinal])
	case lastPending != noTime && lastPending < created:
		return r.bad(line, p.lastPending, skipOrder, "%s before %s", p.names[p.lastPending], p.names[p.created])
	case firstFinal != noTime && firstFinal < created:
		return r.bad(line, p.firstFinal, skipOrder, "%s before %s", p.names[p.firstFinal], p.names[p.created])
	case firstFinal != noTime && firstFinal < lastPending:
		return r.bad(line, p.firstFinal, skipOrder, "%s before %s", p.names[p.firstFinal], p.names[p.lastPending])
	case ageOK(created, lastPending, firstFinal) != nil:
		return r.bad(line, p.firstFinal, skipAge, "%s", ageOK(created, lastPending, firstFinal))
	}
	r.deliver(created, lastPending, firstFinal, lastPending)
	return nil
}

// ageOK checks that the ask times are within estimate.MaxAge of created.
func ageOK(created int64, times ...int64) error {
	for _, t := range times {
		if t == noTime {
			continue
		}
		if _, ok := ageBetween(created, t); !ok {
			return fmt.Errorf("%s", tooOld("ask age", secondsBetween(created, t)))
		}
	}
	return nil
}

// flushAsks delivers the items of a one-row-per-ask log, from memory or,
// after a spill, partition by partition.
func (r *pollerRead) flushAsks() error {
	if r.spill == nil {
		return r.deliverOpen()
	}
	if err := r.spillOpen(); err != nil {
		return err
	}
	return r.spill.each(r.open, r.deliverOpen)
}

// deliverOpen delivers the items in r.open, in the order they came, and
// empties it.
func (r *pollerRead) deliverOpen() error {
	for i := range r.open.items {
		s := &r.open.items[i]
		if s.firstFinal != noTime && s.lastPending > s.firstFinal {
			return fmt.Errorf("item %q: an ask at %s saw it pending after one at %s saw it final: check the status words (--final-status, --pending-status)",
				s.id(), time.Unix(0, s.lastPending).UTC().Format(time.RFC3339Nano), time.Unix(0, s.firstFinal).UTC().Format(time.RFC3339Nano))
		}
		r.deliver(s.created, s.lastPending, s.firstFinal, s.lastAsk)
	}
	r.open.reset()
	return nil
}

// spillOpen writes the open items to the spill's partitions.
func (r *pollerRead) spillOpen() error {
	if r.spill == nil {
		s, err := newAskSpill()
		if err != nil {
			return err
		}
		r.spill, r.stats.Spilled = s, true
	}
	for i := range r.open.items {
		s := &r.open.items[i]
		if err := r.spill.write(s.id(), s.askState); err != nil {
			return err
		}
	}
	r.open.reset()
	return nil
}

func (r *pollerRead) closeSpill() {
	if r.spill != nil {
		r.spill.close()
	}
}

// askSpill holds item states in askParts temporary files by id hash.
type askSpill struct {
	seed  maphash.Seed
	files [askParts]*os.File
	w     [askParts]*bufio.Writer
}

const askParts = 64

func newAskSpill() (*askSpill, error) {
	s := &askSpill{seed: maphash.MakeSeed()}
	for i := range s.files {
		f, err := os.CreateTemp("", "pollfit-asks-*")
		if err != nil {
			s.close()
			return nil, fmt.Errorf("spill poller-log items: %v", err)
		}
		os.Remove(f.Name()) // lives on until closed (on Unix)
		s.files[i], s.w[i] = f, bufio.NewWriterSize(f, 1<<12)
	}
	return s, nil
}

func (s *askSpill) write(id string, st askState) error {
	w := s.w[maphash.String(s.seed, id)%askParts]
	var b [4 + 32]byte
	binary.LittleEndian.PutUint32(b[:4], uint32(len(id)))
	for i, v := range []int64{st.created, st.lastPending, st.firstFinal, st.lastAsk} {
		binary.LittleEndian.PutUint64(b[4+8*i:], uint64(v))
	}
	if _, err := w.Write(b[:]); err != nil {
		return fmt.Errorf("spill poller-log items: %v", err)
	}
	if _, err := w.WriteString(id); err != nil {
		return fmt.Errorf("spill poller-log items: %v", err)
	}
	return nil
}

// each reads the partitions back one at a time into set (emptied
// first), merging each item's spilled states, and calls fn after each.
func (s *askSpill) each(set *openSet, fn func() error) error {
	for i, f := range s.files {
		if err := s.w[i].Flush(); err != nil {
			return fmt.Errorf("spill poller-log items: %v", err)
		}
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return err
		}
		set.reset()
		if err := readAskPart(bufio.NewReaderSize(f, 1<<16), set); err != nil {
			return err
		}
		if err := fn(); err != nil {
			return err
		}
	}
	return nil
}

func readAskPart(br *bufio.Reader, set *openSet) error {
	var b [4 + 32]byte
	var id []byte
	for {
		if _, err := io.ReadFull(br, b[:]); err == io.EOF {
			return nil
		} else if err != nil {
			return fmt.Errorf("read spilled poller-log items: %v", err)
		}
		n := binary.LittleEndian.Uint32(b[:4])
		if n > maxSpillID {
			return fmt.Errorf("read spilled poller-log items: an id of %d bytes: the temporary file is damaged", n)
		}
		id = slices.Grow(id[:0], int(n))[:n]
		if _, err := io.ReadFull(br, id); err != nil {
			return fmt.Errorf("read spilled poller-log items: %v", err)
		}
		var v [4]int64
		for i := range v {
			v[i] = int64(binary.LittleEndian.Uint64(b[4+8*i:]))
		}
		st := askState{v[0], v[1], v[2], v[3]}
		old := set.findOrAdd(id, st)
		if old == nil {
			continue
		}
		if old.created != st.created {
			return fmt.Errorf("item %q: rows give two creation times, %s and %s: one item has one creation time", id,
				time.Unix(0, old.created).UTC().Format(time.RFC3339Nano), time.Unix(0, st.created).UTC().Format(time.RFC3339Nano))
		}
		old.merge(st)
	}
}

func (s *askSpill) close() {
	for _, f := range s.files {
		if f != nil {
			f.Close()
		}
	}
}
