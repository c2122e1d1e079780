package logs

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"github.com/pollfit/pollfit/estimate"
)

// readLogRows makes n seeded log rows with pending, failed and signals.
func readLogRows(n int, seed uint64) []Row {
	rng := rand.New(rand.NewPCG(seed, 7))
	start := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)
	rows := make([]Row, n)
	for i := range rows {
		c := start.Add(time.Duration(rng.Int64N(int64(48 * time.Hour)))).Truncate(time.Millisecond)
		age := time.Duration(rng.ExpFloat64() * 30e9).Truncate(time.Millisecond)
		r := Row{Created: c, Settled: c.Add(age), Status: "settled"}
		switch u := rng.Float64(); {
		case u < 0.1:
			r.Settled, r.Status = time.Time{}, "pending"
		case u < 0.15:
			r.Status = "failed"
		case u < 0.2:
			r.Status = ""
		}
		if rng.Float64() < 0.5 {
			r.Signal = c.Add(time.Duration(rng.Int64N(int64(10 * time.Second)))).Truncate(time.Millisecond)
		}
		rows[i] = r
	}
	return rows
}

// readWantItems works out the items of rows directly from the rows.
func readWantItems(rows []Row) (final, pending []estimate.Item) {
	var obs time.Time
	for _, r := range rows {
		for _, t := range []time.Time{r.Created, r.Settled, r.Signal} {
			if t.After(obs) {
				obs = t
			}
		}
	}
	for _, r := range rows {
		it := estimate.Item{Created: r.Created.UnixNano(), Dated: true, Status: estimate.Settled}
		if !r.Signal.IsZero() {
			it = it.WithSignal(r.Signal.Sub(r.Created).Seconds())
		}
		if r.Status == "failed" {
			it.Status = estimate.Failed
		}
		if r.Settled.IsZero() {
			it.Status, it.Age = estimate.Pending, obs.Sub(r.Created).Seconds()
			pending = append(pending, it)
			continue
		}
		it.Age = r.Settled.Sub(r.Created).Seconds()
		final = append(final, it)
	}
	return final, pending
}

func readSameItems(t *testing.T, what string, got, want []estimate.Item) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d items, want %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if !readClose(g.Age, w.Age) || g.Status != w.Status || g.Created != w.Created ||
			g.HasSignal() != w.HasSignal() || (w.HasSignal() && !readClose(g.Signal, w.Signal)) {
			t.Fatalf("%s: item %d = %+v, want %+v", what, i, g, w)
		}
	}
}

// TestReadCSVParquetSame: the CSV and Parquet forms of one log, written by
// WriteCSV and WriteParquet, give the items worked out from the rows.
func TestReadCSVParquetSame(t *testing.T) {
	defer func(n int64) { parquetBatch = n }(parquetBatch)
	parquetBatch = 100 // several batches per row group
	for _, signal := range []bool{true, false} {
		rows := readLogRows(3000, 1)
		if !signal { // the shape of the fast path
			for i := range rows {
				rows[i].Signal = time.Time{}
			}
		}
		testReadCSVParquetSame(t, rows)
	}
}

func testReadCSVParquetSame(t *testing.T, rows []Row) {
	final, pending := readWantItems(rows)
	want := append(final, pending...)
	dir := t.TempDir()
	var csvBuf, pqBuf bytes.Buffer
	if err := WriteCSV(&csvBuf, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteParquet(&pqBuf, rows); err != nil {
		t.Fatal(err)
	}
	csvPath, pqPath := filepath.Join(dir, "log.csv"), filepath.Join(dir, "log.parquet")
	os.WriteFile(csvPath, csvBuf.Bytes(), 0o644)
	os.WriteFile(pqPath, pqBuf.Bytes(), 0o644)
	for _, p := range []string{csvPath, pqPath} {
		got, st, err := Read([]string{p}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		readSameItems(t, p, got, want)
		if st.Final != int64(len(final)) || st.Pending != int64(len(pending)) || !st.HasCreated {
			t.Errorf("%s: stats %+v", p, st)
		}
	}
	// A Parquet file without its extension is known by its magic bytes;
	// CSV and Parquet mix.
	noExt := filepath.Join(dir, "log.data")
	os.WriteFile(noExt, pqBuf.Bytes(), 0o644)
	got, _, err := Read([]string{noExt, csvPath}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	readSameItems(t, "mixed", got, append(append(append([]estimate.Item{}, final...), final...), append(pending, pending...)...))
	// The same bad row is reported at the same place in both forms.
	rows = append([]Row(nil), rows...)
	rows[10].Status = "lost"
	for _, write := range []func(*bytes.Buffer) error{
		func(b *bytes.Buffer) error { return WriteCSV(b, rows) },
		func(b *bytes.Buffer) error { return WriteParquet(b, rows) },
	} {
		var b bytes.Buffer
		write(&b)
		p := filepath.Join(dir, "bad")
		os.WriteFile(p, b.Bytes(), 0o644)
		_, _, err := Read([]string{p}, Options{})
		if err == nil || !strings.HasSuffix(err.Error(), `bad:12:3: column status: unknown status "lost" (neither a known final word nor a pending one)`) {
			t.Errorf("error %v", err)
		}
	}
}

// readArrowParquet writes columns to a Parquet file with pqarrow.
func readArrowParquet(t *testing.T, fields []arrow.Field, cols []arrow.Array, rowGroup int64) string {
	t.Helper()
	rec := array.NewRecord(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	p := filepath.Join(t.TempDir(), "t.parquet")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	props := parquet.NewWriterProperties(parquet.WithDictionaryDefault(true))
	if err := pqarrow.WriteTable(tbl, f, rowGroup, props, pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema())); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return p
}

// TestReadParquetTypes: the column types a Parquet log may use.
func TestReadParquetTypes(t *testing.T) {
	mem := memory.DefaultAllocator
	base := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
	tsT := func(typ *arrow.TimestampType, vals []time.Time) arrow.Array {
		unit := typ.Unit
		b := array.NewTimestampBuilder(mem, typ)
		for _, v := range vals {
			if v.IsZero() {
				b.AppendNull()
				continue
			}
			t, _ := arrow.TimestampFromTime(v, unit)
			b.Append(t)
		}
		return b.NewArray()
	}
	ts := func(unit arrow.TimeUnit, vals []time.Time) arrow.Array {
		return tsT(&arrow.TimestampType{Unit: unit, TimeZone: "UTC"}, vals)
	}
	strs := func(vals ...string) arrow.Array {
		b := array.NewStringBuilder(mem)
		for _, v := range vals {
			if v == "<null>" {
				b.AppendNull()
			} else {
				b.Append(v)
			}
		}
		return b.NewArray()
	}
	created := []time.Time{base, base.Add(time.Second), base.Add(2 * time.Second)}
	settled := []time.Time{base.Add(1500 * time.Millisecond), {}, base.Add(5 * time.Second)}
	wantAges := []float64{1.5, 4, 3} // the pending one censored at the latest settle, base+5s
	wantStatus := []estimate.Status{estimate.Settled, estimate.Pending, estimate.Failed}
	status := strs("ok", "<null>", "declined")
	check := func(name string, p string, opt Options) {
		t.Helper()
		items, _, err := Read([]string{p}, opt)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(items) != 3 {
			t.Fatalf("%s: %d items, want 3", name, len(items))
		}
		got := map[estimate.Status]float64{}
		for _, it := range items {
			got[it.Status] = it.Age
		}
		for i := range wantAges {
			if !readClose(got[wantStatus[i]], wantAges[i]) {
				t.Errorf("%s: %v age %v, want %v", name, wantStatus[i], got[wantStatus[i]], wantAges[i])
			}
		}
	}
	for _, unit := range []arrow.TimeUnit{arrow.Millisecond, arrow.Microsecond, arrow.Nanosecond} {
		p := readArrowParquet(t, []arrow.Field{{Name: "created_at", Type: &arrow.TimestampType{Unit: unit, TimeZone: "UTC"}},
			{Name: "settled_at", Type: &arrow.TimestampType{Unit: unit, TimeZone: "UTC"}, Nullable: true},
			{Name: "status", Type: arrow.BinaryTypes.String, Nullable: true}},
			[]arrow.Array{ts(unit, created), ts(unit, settled), status}, 2)
		check(unit.String(), p, Options{})
	}
	// Wall-clock timestamps (not adjusted to UTC) take the zone option:
	// 12:00 in Paris in May (UTC+2) is 10:00 UTC.
	if paris, err := time.LoadLocation("Europe/Paris"); err == nil {
		local := &arrow.TimestampType{Unit: arrow.Microsecond}
		shift := func(v []time.Time) []time.Time {
			out := make([]time.Time, len(v))
			for i, t := range v {
				if !t.IsZero() {
					out[i] = t.Add(2 * time.Hour)
				}
			}
			return out
		}
		p := readArrowParquet(t, []arrow.Field{{Name: "created_at", Type: local},
			{Name: "settled_at", Type: local, Nullable: true}},
			[]arrow.Array{tsT(local, shift(created)), tsT(local, shift(settled))}, 3)
		items, _, err := Read([]string{p}, Options{Location: paris})
		if err != nil {
			t.Fatal(err)
		}
		if got := time.Unix(0, items[0].Created).UTC(); !got.Equal(base) || items[0].Age != 1.5 {
			t.Errorf("wall-clock: created %v, want %v; %+v", got, base, items[0])
		}
	}
	// Epoch milliseconds as int64, a dictionary-encoded status.
	ms := func(vals []time.Time) arrow.Array {
		b := array.NewInt64Builder(mem)
		for _, v := range vals {
			if v.IsZero() {
				b.AppendNull()
			} else {
				b.Append(v.UnixMilli())
			}
		}
		return b.NewArray()
	}
	db := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	db.AppendString("ok")
	db.AppendNull()
	db.AppendString("declined")
	p := readArrowParquet(t, []arrow.Field{{Name: "created_at", Type: arrow.PrimitiveTypes.Int64},
		{Name: "settled_at", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "status", Type: db.Type(), Nullable: true}},
		[]arrow.Array{ms(created), ms(settled), db.NewArray()}, 1)
	check("epoch ms", p, Options{TimeUnit: "ms"})
	// String timestamps.
	p = readArrowParquet(t, []arrow.Field{{Name: "created_at", Type: arrow.BinaryTypes.String},
		{Name: "settled_at", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "status", Type: arrow.BinaryTypes.String, Nullable: true}},
		[]arrow.Array{strs("2026-05-01 10:00:00", "2026-05-01T10:00:01Z", "2026-05-01T12:00:02+02:00"),
			strs("2026-05-01T10:00:01.5Z", "", "2026-05-01T10:00:05Z"), status}, 3)
	check("strings", p, Options{})
	// Float durations with a boolean status.
	fb := array.NewFloat64Builder(mem)
	fb.AppendValues([]float64{1.5, 4, 3}, nil)
	bb := array.NewBooleanBuilder(mem)
	bb.AppendValues([]bool{true, false, true}, nil)
	p = readArrowParquet(t, []arrow.Field{{Name: "duration", Type: arrow.PrimitiveTypes.Float64},
		{Name: "done", Type: arrow.FixedWidthTypes.Boolean}},
		[]arrow.Array{fb.NewArray(), bb.NewArray()}, 2)
	// One column in one-row groups: the row groups decode in parallel.
	fb.AppendValues([]float64{1.5, 4, 3, 0.25, 7}, nil)
	p1 := readArrowParquet(t, []arrow.Field{{Name: "duration", Type: arrow.PrimitiveTypes.Float64}}, []arrow.Array{fb.NewArray()}, 1)
	if items, st, err := Read([]string{p1}, Options{}); err != nil || len(items) != 5 || items[3].Age != 0.25 || items[4].Age != 7 || st.Final != 5 {
		t.Errorf("one column: %+v %v", items, err)
	}
	items, _, err := Read([]string{p}, Options{StatusCol: "done", FinalStatus: []string{"true"}, PendingStatus: []string{"false"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 3 || items[0].Age != 1.5 || items[1].Status != estimate.Pending || items[1].Age != 4 || items[2].Status != estimate.Settled {
		t.Errorf("durations: %+v", items)
	}
}

// TestReadParquetPages: logs written with other page layouts — data
// pages v2, no dictionaries, dictionaries falling back to PLAIN pages
// mid-chunk, tiny pages, other codecs — read to the items worked out
// from the rows, batches straddling pages and row groups.
func TestReadParquetPages(t *testing.T) {
	defer func(n int64) { parquetBatch = n }(parquetBatch)
	parquetBatch = 250
	rows := readLogRows(3000, 5)
	for i := range rows {
		rows[i].Signal = time.Time{}
	}
	final, pending := readWantItems(rows)
	want := append(final, pending...)
	mem := memory.DefaultAllocator
	us := &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
	cb, sb := array.NewTimestampBuilder(mem, us), array.NewTimestampBuilder(mem, us)
	stb := array.NewStringBuilder(mem)
	for _, r := range rows {
		cb.Append(arrow.Timestamp(r.Created.UnixMicro()))
		if r.Settled.IsZero() {
			sb.AppendNull()
		} else {
			sb.Append(arrow.Timestamp(r.Settled.UnixMicro()))
		}
		if r.Status == "" {
			stb.AppendNull()
		} else {
			stb.Append(r.Status)
		}
	}
	fields := []arrow.Field{{Name: "created_at", Type: us},
		{Name: "settled_at", Type: us, Nullable: true}, {Name: "status", Type: arrow.BinaryTypes.String, Nullable: true}}
	cols := []arrow.Array{cb.NewArray(), sb.NewArray(), stb.NewArray()}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), cols, int64(len(rows)))
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	for name, opts := range map[string][]parquet.WriterProperty{
		"v2 dict snappy": {parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithCompression(compress.Codecs.Snappy)},
		"v1 plain":       {parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(1 << 10)},
		"v2 plain gzip":  {parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryDefault(false), parquet.WithCompression(compress.Codecs.Gzip)},
		"dict fallback":  {parquet.WithDictionaryPageSizeLimit(20), parquet.WithDataPageSize(512), parquet.WithBatchSize(64)},
		"v2 fallback":    {parquet.WithDataPageVersion(parquet.DataPageV2), parquet.WithDictionaryPageSizeLimit(300), parquet.WithDataPageSize(700), parquet.WithBatchSize(100)},
	} {
		p := filepath.Join(t.TempDir(), "log.parquet")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		props := parquet.NewWriterProperties(opts...)
		if err := pqarrow.WriteTable(tbl, f, 1100, props, pqarrow.DefaultWriterProps()); err != nil {
			t.Fatal(err)
		}
		f.Close()
		got, st, err := Read([]string{p}, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		readSameItems(t, name, got, want)
		if st.Rows != int64(len(rows)) || st.Final != int64(len(final)) || st.Pending != int64(len(pending)) {
			t.Errorf("%s: stats %+v", name, st)
		}
	}
}

// TestReadParquetDamagedPages: logs with random bytes damaged read to an
// error or to items, never a panic or a hang.
func TestReadParquetDamagedPages(t *testing.T) {
	var b bytes.Buffer
	if err := WriteParquet(&b, readLogRows(500, 6)); err != nil {
		t.Fatal(err)
	}
	valid := b.Bytes()
	rng := rand.New(rand.NewPCG(6, 1))
	p := filepath.Join(t.TempDir(), "d.parquet")
	for range 300 {
		data := bytes.Clone(valid)
		for range 1 + rng.IntN(4) {
			data[4+rng.IntN(len(data)-200)] ^= byte(1 + rng.IntN(255)) // pages, not the footer
		}
		os.WriteFile(p, data, 0o644)
		readWatchdog(t, func() { Read([]string{p}, Options{}) })
	}
}

// TestHybrid decodes RLE / bit-packed hybrid runs written by a plain
// encoder following the Parquet spec, at every bit width, in chunks of
// random sizes.
func TestHybrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 2))
	for bw := 0; bw <= 32; bw++ {
		var data []byte
		var want []int32
		for range 40 {
			v := func() uint32 { return uint32(rng.Uint64() & (1<<bw - 1)) }
			if rng.IntN(2) == 0 { // an RLE run: uvarint(n<<1), the value in ceil(bw/8) bytes
				n, x := 1+rng.IntN(30), v()
				data = binary.AppendUvarint(data, uint64(n)<<1)
				for i := range (bw + 7) / 8 {
					data = append(data, byte(x>>(8*i)))
				}
				for range n {
					want = append(want, int32(x))
				}
				continue
			}
			groups := 1 + rng.IntN(5) // bit-packed: uvarint(groups<<1|1), values LSB first
			data = binary.AppendUvarint(data, uint64(groups)<<1|1)
			bitsOut := make([]byte, groups*bw)
			for i := range groups * 8 {
				x := v()
				for b := range bw {
					if x>>b&1 == 1 {
						pos := i*bw + b
						bitsOut[pos/8] |= 1 << (pos % 8)
					}
				}
				want = append(want, int32(x))
			}
			data = append(data, bitsOut...)
		}
		var h hybrid
		h.init(data, bw)
		got := make([]int32, len(want))
		for i := 0; i < len(got); {
			n := min(len(got)-i, 1+rng.IntN(20))
			if k := hybridFill(&h, got[i:i+n]); k != n {
				t.Fatalf("width %d: %d of %d values at %d", bw, k, n, i)
			}
			i += n
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("width %d: value %d = %d, want %d", bw, i, got[i], want[i])
			}
		}
		if k := hybridFill(&h, got[:1]); k != 0 {
			t.Errorf("width %d: a value past the end", bw)
		}
	}
}
