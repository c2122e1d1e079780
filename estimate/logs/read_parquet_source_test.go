package logs

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/file"
)

// TestParquetHugePageHeader: a page header claiming a 2³¹−1-byte page
// in a small file is refused before anything that size is allocated.
func TestParquetHugePageHeader(t *testing.T) {
	var b bytes.Buffer
	if err := WriteParquet(&b, readLogRows(200, 3)); err != nil {
		t.Fatal(err)
	}
	valid := b.Bytes()
	pf, err := file.NewParquetReader(bytes.NewReader(valid))
	if err != nil {
		t.Fatal(err)
	}
	cc, _ := pf.MetaData().RowGroup(0).ColumnChunk(0)
	start := cc.DataPageOffset()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 {
		start = min(start, cc.DictionaryPageOffset())
	}
	for _, field := range []int16{2, 3} { // uncompressed, compressed size
		data := withPageSize(t, valid, int(start), field, 1<<31-1)
		p := filepath.Join(t.TempDir(), "huge.parquet")
		os.WriteFile(p, data, 0o644)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _, err := Read([]string{p}, Options{})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "huge.parquet: row group 0: column created_at: corrupt page header: a ") {
			t.Errorf("field %d: got %v", field, err)
		}
		if grown := after.TotalAlloc - before.TotalAlloc; grown > 256<<20 {
			t.Errorf("field %d: allocated %d MB reading a %d-byte file", field, grown>>20, len(data))
		}
	}
}

// withPageSize rewrites field (2 or 3) of the page header at off to
// size, re-encoding its varint (the bytes after it shift).
func withPageSize(t *testing.T, data []byte, off int, field int16, size int64) []byte {
	t.Helper()
	id, i := int16(0), off
	for {
		id += int16(data[i] >> 4)
		_, n := uvarint(data[i+1:])
		if id == field {
			out := append(bytes.Clone(data[:i+1]), zigzagVarint(size)...)
			return append(out, data[i+1+n:]...)
		}
		if id > 3 || n <= 0 {
			t.Fatalf("no field %d in the page header at %d", field, off)
		}
		i += 1 + n
	}
}

func zigzagVarint(x int64) []byte {
	v := uint64(x<<1) ^ uint64(x>>63)
	var out []byte
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}

func TestPageSizes(t *testing.T) {
	// type DATA_PAGE (0), uncompressed 100, compressed 60, then more.
	head := []byte{0x15, 0x00, 0x15, 0xc8, 0x01, 0x15, 0x78, 0x2c}
	if u, c, ok := pageSizes(head); !ok || u != 100 || c != 60 {
		t.Fatalf("pageSizes = %d, %d, %v", u, c, ok)
	}
	if err := checkPage(head, 59, 1000); err == nil {
		t.Error("a 60-byte page in 59 bytes passed")
	}
	if err := checkPage(head, 70, 99); err == nil {
		t.Error("100 uncompressed bytes in a chunk of 99 passed")
	}
	if err := checkPage(head, 70, 1000); err != nil {
		t.Error(err)
	}
}
