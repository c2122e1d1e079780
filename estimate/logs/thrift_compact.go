package logs

import (
	"errors"
	"fmt"
)

// Thrift compact protocol types, as a field header or list header
// writes them.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

var errThriftEnd = errors.New("ends inside a value")

var errThriftDepth = fmt.Errorf("nested deeper than %d", maxThriftDepth)

// thriftReader walks Thrift compact protocol bytes without allocating:
// every length is checked against the bytes left, every nesting against
// maxThriftDepth.
type thriftReader struct {
	b     []byte
	pos   int
	depth int
}

func (t *thriftReader) byte() (byte, error) {
	if t.pos >= len(t.b) {
		return 0, errThriftEnd
	}
	t.pos++
	return t.b[t.pos-1], nil
}

func (t *thriftReader) varint() (uint64, error) {
	var x uint64
	for shift := 0; shift < 64; shift += 7 {
		c, err := t.byte()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("a varint longer than 10 bytes")
}

func (t *thriftReader) zigzag() (int64, error) {
	x, err := t.varint()
	return int64(x>>1) ^ -int64(x&1), err
}

// advance skips n bytes, which must be there.
func (t *thriftReader) advance(n uint64) error {
	if n > uint64(len(t.b)-t.pos) {
		return fmt.Errorf("a length of %d with %d bytes left", n, len(t.b)-t.pos)
	}
	t.pos += int(n)
	return nil
}

// listHeader reads a list or set header: its size, at most the bytes
// left (every element takes one at least), and its elements' type.
func (t *thriftReader) listHeader() (int, byte, error) {
	h, err := t.byte()
	if err != nil {
		return 0, 0, err
	}
	n := uint64(h >> 4)
	if n == 15 {
		if n, err = t.varint(); err != nil {
			return 0, 0, err
		}
	}
	if n > uint64(len(t.b)-t.pos) {
		return 0, 0, fmt.Errorf("a list of %d elements with %d bytes left", n, len(t.b)-t.pos)
	}
	return int(n), h & 0x0f, nil
}

// fields walks a struct's fields to its stop; fn reads the value of a
// field it handles, and the others are skipped.
func (t *thriftReader) fields(fn func(id int16, typ byte) (bool, error)) error {
	if t.depth++; t.depth > maxThriftDepth {
		return errThriftDepth
	}
	defer func() { t.depth-- }()
	var id int16
	for {
		h, err := t.byte()
		if err != nil {
			return err
		}
		typ := h & 0x0f
		if typ == tStop {
			return nil
		}
		if d := int16(h >> 4); d != 0 {
			id += d
		} else {
			z, err := t.zigzag()
			if err != nil {
				return err
			}
			id = int16(z)
		}
		handled, err := fn(id, typ)
		if err == nil && !handled {
			err = t.skipField(typ)
		}
		if err != nil {
			return err
		}
	}
}

// skipField skips a field's value: a boolean's is in its type.
func (t *thriftReader) skipField(typ byte) error {
	if typ == tTrue || typ == tFalse {
		return nil
	}
	return t.skip(typ)
}

// skip skips one value of type typ (a boolean in a list takes a byte).
func (t *thriftReader) skip(typ byte) error {
	switch typ {
	case tTrue, tFalse, tByte:
		return t.advance(1)
	case tI16, tI32, tI64:
		_, err := t.varint()
		return err
	case tDouble:
		return t.advance(8)
	case tBinary:
		n, err := t.varint()
		if err != nil {
			return err
		}
		return t.advance(n)
	case tList, tSet:
		return t.skipList()
	case tMap:
		return t.skipMap()
	case tStruct:
		return t.fields(func(int16, byte) (bool, error) { return false, nil })
	}
	return fmt.Errorf("unknown Thrift type %d", typ)
}

func (t *thriftReader) skipList() error {
	if t.depth++; t.depth > maxThriftDepth {
		return errThriftDepth
	}
	defer func() { t.depth-- }()
	n, elem, err := t.listHeader()
	for i := 0; err == nil && i < n; i++ {
		err = t.skip(elem)
	}
	return err
}

func (t *thriftReader) skipMap() error {
	if t.depth++; t.depth > maxThriftDepth {
		return errThriftDepth
	}
	defer func() { t.depth-- }()
	n, err := t.varint()
	if err != nil || n == 0 {
		return err
	}
	if n > uint64(len(t.b)-t.pos) {
		return fmt.Errorf("a map of %d entries with %d bytes left", n, len(t.b)-t.pos)
	}
	kv, err := t.byte()
	for i := uint64(0); err == nil && i < n; i++ {
		if err = t.skip(kv >> 4); err == nil {
			err = t.skip(kv & 0x0f)
		}
	}
	return err
}
