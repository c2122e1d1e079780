package logs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/metadata"
	"github.com/apache/arrow/go/v17/parquet/schema"
	"github.com/pollfit/pollfit/estimate"
)

// The Parquet sketch file holds the rows of the CSV sketch file (see
// estimate.WriteSketch) in the columns segment (string, segmented
// sketches only), part and kind (strings), bin (int64), age_s, weight
// and sum_s (doubles) and mixed (int32, 0 or 1), all required, and the
// first line's fields in the file's key-value metadata:
// pollfit.sketch (the version, 2), pollfit.holdout, pollfit.seed and,
// segmented, pollfit.by. The metadata key pollfit.sketch is what tells a
// sketch from a Parquet log. A Parquet sketch keeps the bins only, not
// the item sample (see estimate's "The item sample"): it serves
// schedules asking by age, as a SQL engine's sketch does; write a CSV
// sketch of a log with signals or batches.
const (
	pqSketchKey  = "pollfit.sketch"
	pqHoldoutKey = "pollfit.holdout"
	pqSeedKey    = "pollfit.seed"
	pqByKey      = "pollfit.by"
)

// pqSketchGroup is the most rows a row group of a sketch holds.
const pqSketchGroup = 1 << 16

// WriteParquetSketch writes s as a Parquet sketch file, snappy-compressed.
func WriteParquetSketch(w io.Writer, s *estimate.Sketch) (err error) {
	defer func() {
		if r := recover(); r != nil { // the arrow writer panics on I/O errors
			err = fmt.Errorf("write parquet sketch: %v", r)
		}
	}()
	if s.HasIntervals() {
		return fmt.Errorf("write parquet sketch: the sketch holds interval-censored items, which a Parquet sketch cannot keep yet: write it as CSV (-o NAME.sketch.csv)")
	}
	segmented := s.By != ""
	var rows []estimate.SketchRow
	if err := s.Rows(func(r estimate.SketchRow) error { rows = append(rows, r); return nil }); err != nil {
		return err
	}
	meta := metadata.NewKeyValueMetadata()
	meta.Append(pqSketchKey, strconv.Itoa(estimate.SketchVersion))
	meta.Append(pqHoldoutKey, strconv.FormatFloat(s.Holdout, 'g', -1, 64))
	meta.Append(pqSeedKey, strconv.FormatUint(s.Seed, 10))
	if segmented {
		meta.Append(pqByKey, s.By)
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Snappy), parquet.WithCreatedBy("pollfit"),
		parquet.WithDictionaryDefault(false), parquet.WithDictionaryFor("segment", true),
		parquet.WithDictionaryFor("part", true), parquet.WithDictionaryFor("kind", true))
	fw := file.NewParquetWriter(w, sketchSchema(segmented), file.WithWriterProps(props), file.WithWriteMetadata(meta))
	for len(rows) > 0 {
		k := min(len(rows), pqSketchGroup)
		if err := writeSketchGroup(fw, rows[:k], segmented); err != nil {
			fw.Close()
			return err
		}
		rows = rows[k:]
	}
	return fw.Close()
}

// sketchSchema is the Parquet sketch's schema.
func sketchSchema(segmented bool) *schema.GroupNode {
	str := func(name string) schema.Node {
		return schema.Must(schema.NewPrimitiveNodeLogical(name, parquet.Repetitions.Required, schema.StringLogicalType{}, parquet.Types.ByteArray, -1, -1))
	}
	prim := func(name string, t parquet.Type) schema.Node {
		return schema.Must(schema.NewPrimitiveNode(name, parquet.Repetitions.Required, t, -1, -1))
	}
	var fields schema.FieldList
	if segmented {
		fields = append(fields, str("segment"))
	}
	fields = append(fields, str("part"), str("kind"), prim("bin", parquet.Types.Int64),
		prim("age_s", parquet.Types.Double), prim("weight", parquet.Types.Double), prim("sum_s", parquet.Types.Double),
		prim("mixed", parquet.Types.Int32))
	return schema.MustGroup(schema.NewGroupNode("schema", parquet.Repetitions.Required, fields, -1))
}

// writeSketchGroup writes rows as one row group.
func writeSketchGroup(fw *file.Writer, rows []estimate.SketchRow, segmented bool) error {
	rg := fw.AppendRowGroup()
	for _, write := range sketchColumnWriters(rows, segmented) {
		cw, err := rg.NextColumn()
		if err != nil {
			return err
		}
		if err := write(cw); err != nil {
			return err
		}
		if err := cw.Close(); err != nil {
			return err
		}
	}
	return rg.Close()
}

// sketchColumnWriters write each column of rows, in the schema's order.
func sketchColumnWriters(rows []estimate.SketchRow, segmented bool) []func(file.ColumnChunkWriter) error {
	strs := func(get func(*estimate.SketchRow) string) func(file.ColumnChunkWriter) error {
		return func(cw file.ColumnChunkWriter) error {
			v := make([]parquet.ByteArray, len(rows))
			for i := range rows {
				v[i] = parquet.ByteArray(get(&rows[i]))
			}
			_, err := cw.(*file.ByteArrayColumnChunkWriter).WriteBatch(v, nil, nil)
			return err
		}
	}
	doubles := func(get func(*estimate.SketchRow) float64) func(file.ColumnChunkWriter) error {
		return func(cw file.ColumnChunkWriter) error {
			v := make([]float64, len(rows))
			for i := range rows {
				v[i] = get(&rows[i])
			}
			_, err := cw.(*file.Float64ColumnChunkWriter).WriteBatch(v, nil, nil)
			return err
		}
	}
	bins := func(cw file.ColumnChunkWriter) error {
		v := make([]int64, len(rows))
		for i := range rows {
			v[i] = int64(rows[i].Bin)
		}
		_, err := cw.(*file.Int64ColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	}
	mixed := func(cw file.ColumnChunkWriter) error {
		v := make([]int32, len(rows))
		for i := range rows {
			if rows[i].Mixed {
				v[i] = 1
			}
		}
		_, err := cw.(*file.Int32ColumnChunkWriter).WriteBatch(v, nil, nil)
		return err
	}
	var cols []func(file.ColumnChunkWriter) error
	if segmented {
		cols = append(cols, strs(func(r *estimate.SketchRow) string { return r.Group }))
	}
	return append(cols, strs(func(r *estimate.SketchRow) string { return r.Part }), strs(func(r *estimate.SketchRow) string { return r.Kind }), bins,
		doubles(func(r *estimate.SketchRow) float64 { return r.Age }), doubles(func(r *estimate.SketchRow) float64 { return r.Weight }),
		doubles(func(r *estimate.SketchRow) float64 { return r.Sum }), mixed)
}

// IsParquetSketch reports whether the file called name is a Parquet
// sketch: a Parquet file whose key-value metadata has pollfit.sketch.
// A file whose footer cannot be read is not.
func IsParquetSketch(name string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	pf, err := openParquet(f)
	if err != nil {
		return false
	}
	defer pf.Close()
	return pf.MetaData().KeyValueMetadata().FindValue(pqSketchKey) != nil
}

// errNotPQSketch says a Parquet file has no sketch metadata.
var errNotPQSketch = errors.New("not a pollfit sketch: no " + pqSketchKey + " in its key-value metadata (a Parquet log is read with the log readers)")
