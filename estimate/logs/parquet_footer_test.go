package logs

import (
	"runtime"

	"bytes"
	"encoding/binary"
	"github.com/pollfit/pollfit/estimate"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// footerOf returns the Thrift bytes of a Parquet file's footer.
func footerOf(t *testing.T, data []byte) []byte {
	t.Helper()
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	return data[len(data)-8-n : len(data)-8]
}

// withFooter is data with its footer replaced by meta.
func withFooter(data, meta []byte) []byte {
	n := int(binary.LittleEndian.Uint32(data[len(data)-8:]))
	out := append(bytes.Clone(data[:len(data)-8-n]), meta...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(meta)))
	return append(out, "PAR1"...)
}

// rootChildren finds the root schema element's num_children varint in a
// footer: its offset and length, found by walking the Thrift compact
// encoding (FileMetaData field 2, the first element's field 5).
func rootChildren(t *testing.T, meta []byte) (off, n int) {
	t.Helper()
	r := &thriftReader{b: meta}
	for id := byte(0); ; {
		h, err := r.byte()
		if err != nil || h&0x0f == tStop {
			t.Fatalf("no schema in the footer: %v", err)
		}
		if h>>4 == 0 {
			t.Fatal("a long field header before the schema")
		}
		if id += h >> 4; id == 2 && h&0x0f == tList {
			break
		}
		if err := r.skipField(h & 0x0f); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := r.listHeader(); err != nil {
		t.Fatal(err)
	}
	r.fields(func(id int16, typ byte) (bool, error) {
		if id != 5 || n > 0 {
			return false, nil
		}
		off = r.pos
		_, err := r.varint()
		n = r.pos - off
		return true, err
	})
	if n == 0 {
		t.Fatal("no num_children in the root")
	}
	return off, n
}

// TestParquetFooterChildren: a root schema element claiming 2³¹−1
// children once ran arrow's schema.FromParquet out of memory (a fatal
// error, for any Parquet input, through IsParquetSketch). The footer is
// now checked first: a clear error, and a few MB allocated.
func TestParquetFooterChildren(t *testing.T) {
	var b bytes.Buffer
	if err := WriteParquet(&b, readLogRows(50, 3)); err != nil {
		t.Fatal(err)
	}
	valid := b.Bytes()
	meta := footerOf(t, valid)
	off, n := rootChildren(t, meta)
	forged := append(append(bytes.Clone(meta[:off]), zigzagVarint(1<<31-1)...), meta[off+n:]...)
	p := filepath.Join(t.TempDir(), "f.parquet")
	if err := os.WriteFile(p, withFooter(valid, forged), 0o644); err != nil {
		t.Fatal(err)
	}
	var err error
	grown := totalAlloc(func() {
		if IsParquetSketch(p) {
			t.Error("a forged footer is a sketch")
		}
		_, _, err = Read([]string{p}, Options{})
	})
	want := "corrupt Parquet footer: schema element 0 claims 2147483647 children, but "
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("read: %v, want %q", err, want)
	}
	if grown > 8<<20 {
		t.Errorf("reading the forged file allocated %d MB, want at most 8", grown>>20)
	}
	// The same file with its own count is read.
	if _, _, err := Read([]string{writeTemp(t, valid)}, Options{}); err != nil {
		t.Errorf("the valid file: %v", err)
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "v.parquet")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestParquetFooterCeilings checks each ceiling on Thrift bytes made by
// hand: a row-group list longer than MaxParquetRowGroups, key-value
// metadata longer than MaxParquetKeyValue, a list longer than the bytes
// left, and a footer longer than MaxParquetFooter.
func TestParquetFooterCeilings(t *testing.T) {
	rowGroups := append([]byte{0x49, 0xf5}, binary.AppendUvarint(nil, MaxParquetRowGroups+1)...) // field 4: list<i32> of 65537
	rowGroups = append(append(rowGroups, make([]byte, MaxParquetRowGroups+1)...), 0)
	big := MaxParquetKeyValue + 1
	kv := append([]byte{0x59, 0x1c, 0x18}, binary.AppendUvarint(nil, uint64(big))...) // field 5: list of 1 struct; field 1: binary
	kv = append(append(kv, make([]byte, big)...), 0, 0)
	for _, c := range []struct {
		name string
		meta []byte
		want string
	}{
		{"row groups", rowGroups, "65537 row groups, more than the 65536 pollfit reads"},
		{"key-value", kv, "key-value metadata of more than 1048576 bytes"},
		{"long list", []byte{0x49, 0xf5, 0xff, 0xff, 0xff, 0xff, 0x07, 0}, "a list of 2147483647 elements with 1 bytes left"},
		{"deep", bytes.Repeat([]byte{0x1c}, 100), "nested deeper than 16"},
	} {
		err := checkFileMeta(&thriftReader{b: c.meta})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A footer claiming more than MaxParquetFooter bytes, in a file that
	// long: refused before it is read.
	data := make([]byte, MaxParquetFooter+20)
	binary.LittleEndian.PutUint32(data[len(data)-8:], MaxParquetFooter+1)
	copy(data[len(data)-4:], "PAR1")
	_, err := checkParquetFooter(bytes.NewReader(data), int64(len(data)))
	if err == nil || !strings.Contains(err.Error(), "Parquet footer of 33554433 bytes is longer than the 33554432 pollfit reads") {
		t.Errorf("long footer: %v", err)
	}
}

// TestParquetRowGroupsMemory: arrow once kept every row group's decoded
// statistics for the whole read (a 20,000-row-group file took 500 MB;
// now 114 MB, most of it the items). The footer reaches arrow without
// them, so the heap in use while reading 4,000 row groups of 50 rows
// stays within a bound set by the rows read at a time, not the groups.
func TestParquetRowGroupsMemory(t *testing.T) {
	var b bytes.Buffer
	pw := NewParquetWriter(&b, true, false)
	rows := readLogRows(50, 5)
	for range 4000 {
		if err := pw.Write(rows); err != nil {
			t.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	p := writeTemp(t, b.Bytes())
	var st runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&st)
	base, peak, n := st.HeapAlloc, st.HeapAlloc, 0
	_, err := Each([]string{p}, Options{}, func(estimate.Item) {
		if n++; n%20000 == 0 {
			runtime.ReadMemStats(&st)
			peak = max(peak, st.HeapAlloc)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if n != 200000 {
		t.Errorf("%d items, want 200000", n)
	}
	if grown := peak - base; grown > 32<<20 {
		t.Errorf("reading 4000 row groups: %d MB of heap in use at most, want at most 32 (122 with the statistics)", grown>>20)
	}
}
