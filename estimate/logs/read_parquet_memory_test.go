package logs

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/file"
)

// corruptMemorySlack is the constant of the bound on what reading a
// corrupt Parquet file may allocate: 2 × its size plus this, the 16 MiB
// a page may exceed twice the file by (pageSlack) and 8 MiB for the
// rest (reading the valid 200-row file allocates about 0.3 MB).
const corruptMemorySlack = pageSlack + 8<<20

// TestParquetCorruptMemory: reading a corrupt Parquet file allocates at
// most twice the file's size plus corruptMemorySlack (counted as the Go
// heap's TotalAlloc, which arrow's Go allocator draws from: every byte
// allocated, freed or not), for the crafted files: a page header
// claiming a 2³¹−1-byte page (compressed or uncompressed), a page
// claiming 4000 times its compressed size with a footer claiming a
// terabyte-sized chunk (in a 6 KB file and in a 2 MB one, whose first
// page then claims about 400 MB), truncations, and 200 random damages.
func TestParquetCorruptMemory(t *testing.T) {
	var b, big bytes.Buffer
	if err := WriteParquet(&b, readLogRows(200, 3)); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&big, readLogRows(200_000, 3)); err != nil {
		t.Fatal(err)
	}
	valid := b.Bytes()
	start, unc := firstChunk(t, valid)
	bigStart, bigUnc := firstChunk(t, big.Bytes())
	crafted := map[string][]byte{
		"huge uncompressed": withPageSize(t, valid, start, 2, 1<<31-1),
		"huge compressed":   withPageSize(t, valid, start, 3, 1<<31-1),
		"inflated":          inflated(t, valid, start, unc),
		"inflated big":      inflated(t, big.Bytes(), bigStart, bigUnc),
		"truncated":         valid[:len(valid)*2/3],
		"no footer":         valid[:len(valid)-8],
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for i := range 200 {
		d := bytes.Clone(valid)
		for range 1 + rng.IntN(6) {
			d[rng.IntN(len(d))] ^= byte(1 + rng.IntN(255))
		}
		crafted["damaged "+string(rune('a'+i%26))+string(rune('a'+i/26))] = d
	}
	p := filepath.Join(t.TempDir(), "c.parquet")
	for name, data := range crafted {
		os.WriteFile(p, data, 0o644)
		grown := totalAlloc(func() { readWatchdog(t, func() { Read([]string{p}, Options{}) }) })
		if limit := uint64(2*len(data) + corruptMemorySlack); grown > limit {
			t.Errorf("%s: allocated %d bytes reading a %d-byte file, over 2× its size + %d", name, grown, len(data), corruptMemorySlack)
		}
	}
}

// totalAlloc is the bytes f allocates on the Go heap.
func totalAlloc(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// firstChunk is the offset of the first page of row group 0's first
// column and that chunk's declared uncompressed size.
func firstChunk(t *testing.T, data []byte) (int, int64) {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	cc, _ := pf.MetaData().RowGroup(0).ColumnChunk(0)
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
		start = min(start, cc.DictionaryPageOffset())
	}
	return int(start), cc.TotalUncompressedSize()
}

// inflated makes the first page claim 4000 times its compressed size
// uncompressed (within the ratio any codec could reach) and the
// footer claim the chunk holds a terabyte uncompressed, so that only a
// bound from the file's own size can refuse the page.
func inflated(t *testing.T, data []byte, start int, unc int64) []byte {
	_, c, ok := pageSizes(data[start:])
	if !ok {
		t.Fatal("no page sizes at the first chunk")
	}
	d := withPageSize(t, data, start, 2, 4000*c)
	// ColumnMetaData field 6 (i64 total_uncompressed_size) follows field
	// 5: the field header is 0x16, then the zigzag varint.
	flen := int(binary.LittleEndian.Uint32(d[len(d)-8:]))
	foot := d[len(d)-8-flen : len(d)-8]
	i := bytes.Index(foot, append([]byte{0x16}, zigzagVarint(unc)...))
	if i < 0 {
		t.Fatal("no total_uncompressed_size in the footer")
	}
	n := 1 + len(zigzagVarint(unc))
	nf := append(append(append([]byte{}, foot[:i+1]...), zigzagVarint(1<<40)...), foot[i+n:]...)
	out := append(bytes.Clone(d[:len(d)-8-flen]), nf...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(nf)))
	return append(out, "PAR1"...)
}
