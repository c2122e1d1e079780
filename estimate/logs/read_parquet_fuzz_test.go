package logs

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/pollfit/pollfit/estimate"
)

// maxFuzzParquet bounds a FuzzReadParquetFile input: its seeds are under
// 3 KB, and a mutation that grows one past this tells nothing more.
const maxFuzzParquet = 16 << 10

// maxFuzzPatch bounds the bytes a FuzzReadParquet input overwrites.
const maxFuzzPatch = 32

// fuzzParquetSeeds are small Parquet logs (4 rows, 1–2 KB): pollfit's
// PLAIN pages, and arrow's zstd-compressed and dictionary-encoded ones
// with data pages v2.
func fuzzParquetSeeds(tb testing.TB) [][]byte {
	var b bytes.Buffer
	if err := WriteParquet(&b, readLogRows(4, 3)); err != nil {
		tb.Fatal(err)
	}
	rows := noSignal(readLogRows(4, 3))
	return [][]byte{b.Bytes(),
		arrowLog(tb, rows, 4, parquet.WithCompression(compress.Codecs.Zstd)),
		arrowLog(tb, rows, 2, parquet.WithDictionaryDefault(true), parquet.WithDataPageVersion(parquet.DataPageV2)),
	}
}

// FuzzReadParquet reads damaged Parquet logs from memory. An input is
// not a file but a damage to one of fuzzParquetSeeds: byte 0 picks the
// seed, bytes 1–2 (little-endian) where the patch starts, bytes 3–4 how
// many bytes to cut off the end, and the rest, at most maxFuzzPatch
// bytes, overwrite the seed from there. Inputs stay a few bytes long, so
// a run is a read of a 1–2 KB file from memory and minimizing a new
// input takes a few hundred runs, not the minute (the limit) that
// minimizing a whole 2 KB file does; the seeds' pages and footer are
// where the patches land. FuzzReadParquetFile mutates whole files.
func FuzzReadParquet(f *testing.F) {
	seeds := fuzzParquetSeeds(f)
	for i := range seeds {
		f.Add([]byte{byte(i), 0, 0, 0, 0})
		f.Add([]byte{byte(i), 40, 0, 0, 0, 0xff, 0xff, 0xff, 0xff})
		f.Add([]byte{byte(i), 0, 0, 200, 0})
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		data, ok := fuzzPatch(seeds, in)
		if !ok {
			return
		}
		readFuzzParquet(t, data)
	})
}

// fuzzPatch applies the damage in to a copy of its seed.
func fuzzPatch(seeds [][]byte, in []byte) ([]byte, bool) {
	if len(in) < 5 || len(in) > 5+maxFuzzPatch {
		return nil, false
	}
	data := bytes.Clone(seeds[int(in[0])%len(seeds)])
	at := int(binary.LittleEndian.Uint16(in[1:])) % len(data)
	copy(data[at:], in[5:])
	cut := int(binary.LittleEndian.Uint16(in[3:])) % len(data)
	return data[:len(data)-cut], true
}

// FuzzReadParquetFile reads damaged Parquet logs, each input a whole
// file read from memory. Minimizing an input of this size takes up to a
// minute, so this target finds less in a given time than
// FuzzReadParquet; its corpus keeps the crashers it found.
func FuzzReadParquetFile(f *testing.F) {
	for _, seed := range fuzzParquetSeeds(f) {
		f.Add(seed)
		f.Add(seed[:len(seed)/2])
		f.Add(append([]byte("PAR1"), seed[len(seed)-min(200, len(seed)-8):]...))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzParquet {
			return
		}
		readFuzzParquet(t, data)
	})
}

// readFuzzParquet checks the read of data as readFuzzCheck does.
func readFuzzParquet(t *testing.T, data []byte) {
	readWatchdog(t, func() {
		readFuzzCheckWith(t, func(fn func(estimate.Item)) (Stats, error) {
			return eachParquetBytes(data, Options{}, fn)
		})
	})
}

// eachParquetBytes is Each of one Parquet log held in data.
func eachParquetBytes(data []byte, opt Options, fn func(estimate.Item)) (Stats, error) {
	r, err := newReader(opt, func(it estimate.Item, _ float64) { fn(it) })
	if err != nil {
		return Stats{}, err
	}
	defer r.close()
	const name = "fuzz.parquet"
	r.stats.Files, r.file, r.total = []string{name}, name, int64(len(data))
	if err := r.readParquetAt(name, bytes.NewReader(data), int64(len(data))); err != nil {
		return r.stats, err
	}
	return r.finish()
}
