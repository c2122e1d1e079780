package csvscan

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// The marks of a block, found sixteen bytes at a time (scanMarks, then
// scanWords for the rest) and eight at a time (scanWords alone), are the
// offsets a byte-by-byte loop finds: blocks of every length to
// markBlock, of bytes that are marks, that are marks but for the top bit
// or the lowest, and 0x00 and 0xff; with the delimiters pollfit reads.
func TestScanMarks(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 3000 {
		delim := []byte{',', ';', '\t', '|'}[trial%4]
		palette := []byte{'a', '0', delim, '\n', delim | 0x80, '\n' | 0x80, delim ^ 1, '\n' ^ 1, 0, 0xff, '"'}
		b := make([]byte, trial%(markBlock+1))
		for i := range b {
			b[i] = palette[rng.IntN(len(palette))]
		}
		var want []uint16
		for i, c := range b {
			if c == delim || c == '\n' {
				want = append(want, uint16(i))
			}
		}
		var pos [markBlock]uint16
		n, done := scanMarks(b, delim, &pos)
		if done%16 != 0 || done > len(b) || len(b)-done >= 16 && scanMarksReads {
			t.Fatalf("trial %d: scanMarks read %d of %d bytes", trial, done, len(b))
		}
		n = scanWords(b, done, delim, &pos, n)
		if got := pos[:n]; !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("trial %d (%d bytes, delim %q): scanMarks, scanWords found %v, want %v", trial, len(b), delim, got, want)
		}
		n = scanWords(b, 0, delim, &pos, 0)
		if got := pos[:n]; !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Fatalf("trial %d (%d bytes, delim %q): scanWords found %v, want %v", trial, len(b), delim, got, want)
		}
	}
}
