//go:build !purego

package csvscan

// scanMarks writes to pos the offsets of the delimiters and line feeds
// in b, sixteen bytes at a time with SSE2 (which every amd64 has), and
// returns their count and how far it read: a multiple of sixteen, the
// rest being left to scanWords. len(b) ≤ markBlock.
//
//go:noescape
func scanMarks(b []byte, delim byte, pos *[markBlock]uint16) (n, done int)

// scanMarksReads says that scanMarks reads all but the last few bytes.
const scanMarksReads = true
