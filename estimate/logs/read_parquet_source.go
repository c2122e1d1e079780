package logs

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/metadata"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// openParquet opens a Parquet file reading column chunks through a
// buffer, so memory stays bounded whatever the row group size, once its
// footer has passed checkParquetFooter; arrow is given the footer
// without its statistics (see stripStats).
func openParquet(f *os.File) (*file.Reader, error) {
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	return openParquetAt(f, info.Size())
}

// openParquetAt is openParquet of the size bytes of f.
func openParquetAt(f parquetSource, size int64) (*file.Reader, error) {
	meta, err := checkParquetFooter(f, size)
	if err != nil {
		return nil, err
	}
	props := parquet.NewReaderProperties(nil)
	props.BufferedStreamEnabled = true
	props.BufferSize = 1 << 20
	opts := []file.ReadOption{file.WithReadProps(props)}
	if stripped, err := stripStats(meta); meta != nil && err == nil {
		md, err := metadata.NewFileMetaData(stripped, nil)
		if err != nil {
			return nil, fmt.Errorf("parquet: could not read footer: %w", err)
		}
		if !md.IsSetEncryptionAlgorithm() { // else arrow reads the footer itself
			opts = append(opts, file.WithMetadata(md))
		}
	}
	return file.NewParquetReader(f, opts...)
}

// colSource reads the chunks of one column, row group after row group,
// through one page reader and reused buffers. A chunk's pages are valid
// until the next chunk is opened: the column is decoded by one goroutine
// at a time, done with a page when it asks for the next.
type colSource struct {
	f       io.ReaderAt
	size    int64
	writer  *metadata.AppVersion
	descr   *schema.Column // for arrow's column reader
	buffers *sync.Pool     // the file reader's, for arrow's column reader
	pool    pagePool
	stream  chunkStream
	pr      file.PageReader
}

// fresh is a colSource reading the same file, with its own buffers, for
// another goroutine; nil for nil.
func (s *colSource) fresh() *colSource {
	if s == nil {
		return nil
	}
	return &colSource{f: s.f, size: s.size, writer: s.writer, descr: s.descr, buffers: s.buffers}
}

// pages returns a page reader of column col of rg, or nil, nil when the
// chunk is not one colSource reads (an old writer, encrypted).
// A nil colSource returns nil too.
// With plain set the page reader allocates from the Go heap, for
// arrow's column reader.
func (s *colSource) pages(rg *file.RowGroupReader, col int, plain bool) (file.PageReader, error) {
	if s == nil {
		return nil, nil
	}
	cc, err := rg.MetaData().ColumnChunk(col)
	if err != nil || cc.CryptoMetadata() != nil {
		return nil, nil
	}
	start, n, unc := cc.DataPageOffset(), cc.TotalCompressedSize(), cc.TotalUncompressedSize()
	if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && start > cc.DictionaryPageOffset() {
		start = cc.DictionaryPageOffset()
	}
	if start < 0 || n < 0 || start > s.size-n {
		return nil, fmt.Errorf("corrupt column chunk: %d bytes at offset %d of a %d-byte file", n, start, s.size)
	}
	if s.writer == nil || s.writer.LessThan(metadata.Parquet816FixedVersion) {
		// PARQUET-816, as arrow does: old parquet-mr left the dictionary
		// page header out of the sizes.
		pad := min(100, s.size-start-n)
		n, unc = n+pad, unc+pad
	}
	// No page is bigger uncompressed than twice the file plus
	// pageSlack: a footer that claims a bigger chunk cannot make the
	// page check let a page header claim more (reading a corrupt file
	// then allocates at most about 2 × its size plus a constant).
	s.stream.reset(s.f, start, n, min(unc, 2*s.size+pageSlack))
	if plain {
		// arrow's column reader keeps page buffers the pool would recycle
		return file.NewPageReader(&s.stream, cc.NumValues(), cc.Compression(), memory.DefaultAllocator, nil)
	}
	if s.pr == nil {
		s.pr, err = file.NewPageReader(&s.stream, cc.NumValues(), cc.Compression(), &s.pool, nil)
		return s.pr, err
	}
	s.pr.Reset(&s.stream, cc.NumValues(), cc.Compression(), nil)
	return s.pr, s.pr.Err()
}

// Arrow's page reader trusts a page header's sizes: it allocates the
// uncompressed size and reads the compressed size before finding out that
// the column chunk is shorter, so a 21 KB file claiming a 2 GB page makes
// it allocate 2 GB. chunkStream checks every page header against the
// chunk before arrow sees it (arrow peeks only at page headers).

// maxPageRatio bounds a page's uncompressed size by its compressed size:
// no codec Parquet uses packs page data tighter than 4096:1 (deflate's
// limit is about 1032:1), so a bigger claim is a corrupt header.
const maxPageRatio = 4096

// pageSlack is what a page's uncompressed size may exceed twice the
// file's size by: writers cut pages at about 1 MiB, so a page bigger
// than this and than twice the whole file is a corrupt header.
const pageSlack = 16 << 20

// pageSizes reads uncompressed_page_size (field 2) and
// compressed_page_size (field 3) from the start of a Thrift
// compact-protocol PageHeader. ok is false when they do not come first,
// as every writer puts them; the header is then left to arrow.
func pageSizes(b []byte) (uncompressed, compressed int64, ok bool) {
	id, seen := int16(0), 0
	for len(b) > 0 && seen < 2 {
		h := b[0]
		b = b[1:]
		delta, typ := int16(h>>4), h&0x0f
		if delta == 0 || typ != 5 { // only short-form i32 fields expected
			return 0, 0, false
		}
		id += delta
		v, n := uvarint(b)
		if n <= 0 {
			return 0, 0, false
		}
		b = b[n:]
		x := int64(v>>1) ^ -int64(v&1) // zigzag
		switch id {
		case 2:
			uncompressed, seen = x, seen+1
		case 3:
			compressed, seen = x, seen+1
		}
	}
	return uncompressed, compressed, seen == 2
}

// uvarint decodes a varint of at most 10 bytes; n ≤ 0 when malformed.
func uvarint(b []byte) (v uint64, n int) {
	for i, c := range b {
		if i == 10 {
			return 0, -1
		}
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1
		}
	}
	return 0, 0
}

// checkPage checks the page header at the start of head, with left bytes
// of the column chunk from there on (header included) and total the
// chunk's declared uncompressed size (at most twice the file's size
// plus pageSlack).
func checkPage(head []byte, left, total int64) error {
	u, c, ok := pageSizes(head)
	switch {
	case !ok:
		return nil
	case c < 0 || u < 0:
		return fmt.Errorf("corrupt page header: negative page size")
	case c > left:
		return fmt.Errorf("corrupt page header: a %d-byte page in the %d bytes left of its column chunk", c, left)
	case u > total || u > c*maxPageRatio+1<<20:
		return fmt.Errorf("corrupt page header: a page of %d bytes uncompressed from %d (the column chunk holds at most %d uncompressed, and no page more than twice the file plus 16 MiB)", u, c, total)
	}
	return nil
}
