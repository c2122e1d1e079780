package logs

import (
	"fmt"
	"os"
	"strconv"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/metadata"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/internal/quote"
)

// maxSketchGroupRows is the most rows ReadParquetSketch takes in one row
// group: a damaged footer must not make it allocate without bound.
const maxSketchGroupRows = 1 << 20

// ReadParquetSketch reads a Parquet sketch file (see WriteParquetSketch).
// A damaged file is an error naming it, and its row and column when a
// row is bad.
func ReadParquetSketch(name string) (s *estimate.Sketch, err error) {
	defer func() {
		if p := recover(); p != nil { // arrow panics on some corrupt files
			s, err = nil, fmt.Errorf("%s: damaged parquet sketch (%v): write it again with pollfit sketch", name, p)
		}
	}()
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	pf, err := openParquet(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable parquet file (%v): a damaged or truncated sketch? write it again with pollfit sketch", name, err)
	}
	defer pf.Close()
	if s, err = sketchOfMeta(pf.MetaData().KeyValueMetadata()); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	idx, err := sketchColumns(pf, s.By != "")
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	row := 0
	for g := range pf.NumRowGroups() {
		if err := readSketchGroup(pf.RowGroup(g), idx, s, &row); err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
	}
	return s, nil
}

// sketchOfMeta is the empty sketch the metadata's split and column say.
func sketchOfMeta(kv metadata.KeyValueMetadata) (*estimate.Sketch, error) {
	get := func(k string) string {
		if v := kv.FindValue(k); v != nil {
			return *v
		}
		return ""
	}
	switch v := get(pqSketchKey); v {
	case "":
		return nil, errNotPQSketch
	case strconv.Itoa(estimate.SketchVersion):
	default:
		return nil, fmt.Errorf("sketch version %q: this pollfit reads Parquet sketches of version %d", quote.Clip(v), estimate.SketchVersion)
	}
	holdout, err := strconv.ParseFloat(get(pqHoldoutKey), 64)
	if err != nil {
		return nil, fmt.Errorf("metadata %s %q: want a number", pqHoldoutKey, quote.Clip(get(pqHoldoutKey)))
	}
	seed, err := strconv.ParseUint(get(pqSeedKey), 10, 64)
	if err != nil {
		return nil, fmt.Errorf("metadata %s %q: want an integer ≥ 0", pqSeedKey, quote.Clip(get(pqSeedKey)))
	}
	var s *estimate.Sketch
	if by := kv.FindValue(pqByKey); by != nil {
		s, err = estimate.NewGroupedSketch(*by, holdout, seed)
	} else {
		s, err = estimate.NewSketch(holdout, seed)
	}
	if s != nil {
		s.Sample = 0 // a Parquet sketch keeps the bins only
	}
	return s, err
}

// sketchColumns are the leaf column indices of the sketch's columns, in
// the order of sketchSchema, checked for name, type and repetition.
func sketchColumns(pf *file.Reader, segmented bool) ([]int, error) {
	names := estimate.SketchColumns
	if segmented {
		names = append([]string{"segment"}, names...)
	}
	types := map[string]parquet.Type{"bin": parquet.Types.Int64, "age_s": parquet.Types.Double, "weight": parquet.Types.Double,
		"sum_s": parquet.Types.Double, "mixed": parquet.Types.Int32}
	sc := pf.MetaData().Schema
	idx := make([]int, len(names))
	for i, n := range names {
		c := sc.ColumnIndexByName(n)
		if c < 0 {
			return nil, fmt.Errorf("no column %s: a sketch has %v", n, names)
		}
		want, ok := types[n]
		if !ok {
			want = parquet.Types.ByteArray
		}
		if d := sc.Column(c); d.PhysicalType() != want || d.MaxDefinitionLevel() != 0 || d.MaxRepetitionLevel() != 0 {
			return nil, fmt.Errorf("column %s: %s, want a required %s", n, d.PhysicalType(), want)
		}
		idx[i] = c
	}
	return idx, nil
}

// batchReader is a typed column chunk reader.
type batchReader[T any] interface {
	ReadBatch(n int64, values []T, defs, reps []int16) (int64, int, error)
}

// readColumn reads n values of column c of a row group.
func readColumn[T any](rg *file.RowGroupReader, c int, n int64) ([]T, error) {
	cr, err := rg.Column(c)
	if err != nil {
		return nil, err
	}
	rd, ok := cr.(batchReader[T])
	if !ok {
		return nil, fmt.Errorf("column %s: unexpected type", cr.Descriptor().Name())
	}
	out := make([]T, n)
	for got := 0; int64(got) < n; {
		_, k, err := rd.ReadBatch(n-int64(got), out[got:], nil, nil)
		if err != nil {
			return nil, fmt.Errorf("column %s: %v", cr.Descriptor().Name(), err)
		}
		if k == 0 {
			return nil, fmt.Errorf("column %s: %d values, the row group says %d", cr.Descriptor().Name(), got, n)
		}
		got += k
	}
	return out, nil
}

// readSketchGroup adds the rows of one row group to s; row counts the
// file's rows read so far, for errors.
func readSketchGroup(rg *file.RowGroupReader, idx []int, s *estimate.Sketch, row *int) error {
	n := rg.NumRows()
	if n < 0 || n > maxSketchGroupRows {
		return fmt.Errorf("a row group of %d rows: more than a sketch writes; the file is damaged", n)
	}
	o := len(idx) - len(estimate.SketchColumns) // 1 with a segment column
	strs := make([][]parquet.ByteArray, o+2)
	for i := range strs {
		var err error
		if strs[i], err = readColumn[parquet.ByteArray](rg, idx[i], n); err != nil {
			return err
		}
	}
	bins, err := readColumn[int64](rg, idx[o+2], n)
	if err != nil {
		return err
	}
	var nums [3][]float64
	for k := range nums {
		if nums[k], err = readColumn[float64](rg, idx[o+3+k], n); err != nil {
			return err
		}
	}
	mixed, err := readColumn[int32](rg, idx[o+6], n)
	if err != nil {
		return err
	}
	for i := range int(n) {
		*row++
		r := estimate.SketchRow{Part: string(strs[o][i]), Kind: string(strs[o+1][i]), Bin: int(bins[i]),
			Age: nums[0][i], Weight: nums[1][i], Sum: nums[2][i], Mixed: mixed[i] == 1}
		if o == 1 {
			r.Group = string(strs[0][i])
		}
		if bins[i] != int64(r.Bin) {
			r.Bin = -1 // out of int's range: AddRow says so
		}
		if err := s.AddRow(r); err != nil {
			return fmt.Errorf("row %d: %v", *row, err)
		}
	}
	return nil
}
