package logs

// Arrow keeps the whole decoded footer while a file is read, and decodes
// every column chunk's statistics into buffers of 512 bytes or more each
// (thrift's safeReadBytes): for a file of 20,000 row groups that was most
// of the 500 MB its read took. pollfit reads no statistics, so
// stripStats drops them from the footer's Thrift bytes before arrow
// decodes it.

// fieldEdit is what rewriteStruct does with a field: keep its bytes,
// drop it, or rewrite its value with edit.
type fieldEdit struct {
	drop bool
	edit func(t *thriftReader, out []byte) ([]byte, error)
}

// stripStats is the FileMetaData meta without each ColumnMetaData's
// statistics (field 12), encoding_stats (13) and size_statistics (16).
func stripStats(meta []byte) ([]byte, error) {
	t := &thriftReader{b: meta}
	columnMeta := func(t *thriftReader, out []byte) ([]byte, error) {
		return rewriteStruct(t, out, func(id int16, _ byte) fieldEdit {
			return fieldEdit{drop: id == 12 || id == 13 || id == 16}
		})
	}
	chunk := func(t *thriftReader, out []byte) ([]byte, error) {
		return rewriteStruct(t, out, func(id int16, typ byte) fieldEdit {
			if id == 3 && typ == tStruct {
				return fieldEdit{edit: columnMeta}
			}
			return fieldEdit{}
		})
	}
	rowGroup := func(t *thriftReader, out []byte) ([]byte, error) {
		return rewriteStruct(t, out, func(id int16, typ byte) fieldEdit {
			if id == 1 && typ == tList {
				return fieldEdit{edit: structList(chunk)}
			}
			return fieldEdit{}
		})
	}
	out, err := rewriteStruct(t, make([]byte, 0, len(meta)), func(id int16, typ byte) fieldEdit {
		if id == 4 && typ == tList {
			return fieldEdit{edit: structList(rowGroup)}
		}
		return fieldEdit{}
	})
	return append(out, meta[t.pos:]...), err
}

// structList rewrites a list of structs element by element.
func structList(elem func(*thriftReader, []byte) ([]byte, error)) func(*thriftReader, []byte) ([]byte, error) {
	return func(t *thriftReader, out []byte) ([]byte, error) {
		start := t.pos
		n, typ, err := t.listHeader()
		if err != nil {
			return out, err
		}
		out = append(out, t.b[start:t.pos]...)
		for i := 0; i < n; i++ {
			if typ != tStruct {
				start := t.pos
				if err := t.skip(typ); err != nil {
					return out, err
				}
				out = append(out, t.b[start:t.pos]...)
				continue
			}
			if out, err = elem(t, out); err != nil {
				return out, err
			}
		}
		return out, nil
	}
}

// rewriteStruct copies a struct from t to out, field by field as how
// says, writing each kept field's header afresh (its id's delta from the
// last kept field changes when one between is dropped).
func rewriteStruct(t *thriftReader, out []byte, how func(id int16, typ byte) fieldEdit) ([]byte, error) {
	if t.depth++; t.depth > maxThriftDepth {
		return out, errThriftDepth
	}
	defer func() { t.depth-- }()
	var id, last int16
	for {
		h, err := t.byte()
		if err != nil {
			return out, err
		}
		typ := h & 0x0f
		if typ == tStop {
			return append(out, 0), nil
		}
		if d := int16(h >> 4); d != 0 {
			id += d
		} else {
			z, err := t.zigzag()
			if err != nil {
				return out, err
			}
			id = int16(z)
		}
		e := how(id, typ)
		if e.drop {
			if err := t.skipField(typ); err != nil {
				return out, err
			}
			continue
		}
		if d := id - last; d > 0 && d <= 15 {
			out = append(out, byte(d)<<4|typ)
		} else {
			out = append(append(out, typ), zigzag16(id)...)
		}
		last = id
		if e.edit != nil {
			if out, err = e.edit(t, out); err != nil {
				return out, err
			}
			continue
		}
		start := t.pos
		if err := t.skipField(typ); err != nil {
			return out, err
		}
		out = append(out, t.b[start:t.pos]...)
	}
}

// zigzag16 is a field id as the long form of a compact field header
// writes it.
func zigzag16(id int16) []byte {
	v := uint64(uint16(id<<1) ^ uint16(id>>15))
	var out []byte
	for v >= 0x80 {
		out = append(out, byte(v)|0x80)
		v >>= 7
	}
	return append(out, byte(v))
}
