package logs

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Ceilings on a Parquet file's footer, checked by checkParquetFooter
// with its own bounded read of the footer's Thrift encoding before arrow
// decodes it: arrow sizes its allocations from the footer's counts, and a
// root schema element claiming 2³¹−1 children ran the process out of
// memory, which no recover catches.
const (
	// MaxParquetFooter is the longest footer pollfit reads, 32 MiB: a
	// footer of 65536 row groups of three columns takes about 20 MB.
	MaxParquetFooter = 32 << 20
	// MaxParquetRowGroups is the most row groups a Parquet file may have.
	MaxParquetRowGroups = 1 << 16
	// MaxParquetKeyValue is the most bytes of key-value metadata (keys
	// and values together), 1 MiB; a sketch's takes a few dozen.
	MaxParquetKeyValue = 1 << 20
)

// maxThriftDepth bounds the nesting of Thrift structs and lists walked:
// the footer's deepest is five.
const maxThriftDepth = 16

// checkParquetFooter reads the footer of the Parquet file r of size
// bytes and checks it against the ceilings: its length, its row groups,
// its key-value metadata, every list's and string's length against the
// bytes left, and each schema element's children against the elements
// there are. It returns the footer's bytes, or nil for an encrypted
// footer, which is left to arrow.
func checkParquetFooter(r io.ReaderAt, size int64) ([]byte, error) {
	var tail [8]byte
	if size < 12 {
		return nil, fmt.Errorf("not a Parquet file: %d bytes", size)
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return nil, err
	}
	switch string(tail[4:]) {
	case "PARE":
		return nil, nil
	case "PAR1":
	default:
		return nil, errors.New("not a Parquet file: no PAR1 at its end")
	}
	n := int64(binary.LittleEndian.Uint32(tail[:4]))
	switch {
	case n > size-12:
		return nil, fmt.Errorf("corrupt Parquet footer: %d bytes claimed in a %d-byte file", n, size)
	case n > MaxParquetFooter:
		return nil, fmt.Errorf("Parquet footer of %d bytes is longer than the %d pollfit reads", n, MaxParquetFooter)
	}
	meta := make([]byte, n)
	if _, err := r.ReadAt(meta, size-8-n); err != nil {
		return nil, err
	}
	if err := checkFileMeta(&thriftReader{b: meta}); err != nil {
		return nil, fmt.Errorf("corrupt Parquet footer: %w", err)
	}
	return meta, nil
}

// checkFileMeta walks a FileMetaData struct: schema (field 2), row
// groups (4) and key-value metadata (5) are checked, the rest skipped.
func checkFileMeta(t *thriftReader) error {
	return t.fields(func(id int16, typ byte) (bool, error) {
		if typ != tList {
			return false, nil
		}
		switch id {
		case 2:
			return true, checkSchema(t)
		case 4:
			n, elem, err := t.listHeader()
			if err == nil && n > MaxParquetRowGroups {
				err = fmt.Errorf("%d row groups, more than the %d pollfit reads (write fewer, larger ones)", n, MaxParquetRowGroups)
			}
			for i := 0; err == nil && i < n; i++ {
				err = t.skip(elem)
			}
			return true, err
		case 5:
			return true, checkKeyValues(t)
		}
		return false, nil
	})
}

// checkSchema checks that no schema element claims more children than
// the elements after it.
func checkSchema(t *thriftReader) error {
	n, elem, err := t.listHeader()
	if err != nil {
		return err
	}
	if elem != tStruct {
		return fmt.Errorf("schema: a list of type %d, not of structs", elem)
	}
	for i := range n {
		err := t.fields(func(id int16, typ byte) (bool, error) {
			if id != 5 || typ != tI32 {
				return false, nil
			}
			c, err := t.zigzag()
			if err == nil && (c < 0 || c > int64(n-1-i)) {
				err = fmt.Errorf("schema element %d claims %d children, but %d elements follow it", i, c, n-1-i)
			}
			return true, err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkKeyValues bounds the key-value metadata's total length.
func checkKeyValues(t *thriftReader) error {
	n, elem, err := t.listHeader()
	if err != nil {
		return err
	}
	if elem != tStruct {
		return fmt.Errorf("key-value metadata: a list of type %d, not of structs", elem)
	}
	total := 0
	for range n {
		start := t.pos
		if err := t.skip(tStruct); err != nil {
			return err
		}
		if total += t.pos - start; total > MaxParquetKeyValue {
			return fmt.Errorf("key-value metadata of more than %d bytes, the most pollfit reads", MaxParquetKeyValue)
		}
	}
	return nil
}
