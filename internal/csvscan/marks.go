package csvscan

import (
	"encoding/binary"
	"math/bits"
)

// marks finds the delimiters and line feeds of a stretch of a chunk that
// holds no quote, a block at a time: one pass over the bytes, where a
// search per field would start afresh for every short field. On amd64 the
// block is scanned sixteen bytes at a time (scanMarks, in assembly); the
// rest of a block, and all of it elsewhere, eight bytes at a time
// (scanWords).
type marks struct {
	at    int // the offset the marks were left at, -1 for none
	end   int // the stretch ends here: at the chunk's first quote, or its end
	next  int // the offset the next block starts at
	delim byte
	base  int // the offset of the block the marks are in
	i, n  int // the next mark and the block's count
	pos   [markBlock]uint16
}

// markBlock is how many bytes the marks are found in at once.
const markBlock = 1024

// seek starts the marks at off, in a stretch that ends at end.
func (m *marks) seek(off, end int, delim byte) {
	m.at, m.end, m.next, m.delim = off, end, off, delim
	m.i, m.n = 0, 0
}

// fill finds the marks of the next block of the stretch in buf; it
// reports false at the stretch's end.
func (m *marks) fill(buf []byte) bool {
	from := m.next
	to := min(from+markBlock, m.end)
	if from >= to {
		return false
	}
	b := buf[from:to]
	m.base, m.next, m.i = from, to, 0
	n, done := scanMarks(b, m.delim, &m.pos)
	m.n = scanWords(b, done, m.delim, &m.pos, n)
	return true
}

const (
	ones8 = 0x0101010101010101
	low7  = 0x7f7f7f7f7f7f7f7f
)

// scanWords adds to pos, after its first n, the offsets in b of the
// delimiters and line feeds at or after from, and returns their count.
// len(b) ≤ markBlock.
func scanWords(b []byte, from int, delim byte, pos *[markBlock]uint16, n int) int {
	d8, i := ones8*uint64(delim), from
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		for k := zeroBytes(w^ones8*'\n') | zeroBytes(w^d8); k != 0; k &= k - 1 {
			pos[n&(markBlock-1)] = uint16(i + bits.TrailingZeros64(k)>>3)
			n++
		}
	}
	for ; i < len(b); i++ {
		if b[i] == '\n' || b[i] == delim {
			pos[n&(markBlock-1)] = uint16(i)
			n++
		}
	}
	return n
}

// zeroBytes is 0x80 in each byte of x that is zero, and 0 in the others:
// exactly, as no byte's sum carries into the next.
func zeroBytes(x uint64) uint64 {
	return ^((x&low7 + low7) | x | low7)
}
