package logs

import (
	"bufio"
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/apache/arrow/go/v17/parquet"
)

// OtherColumns lists the columns of the first file at paths that opt
// does not read (neither times, duration, status nor signal) and that
// could be categorical: for Parquet the string, boolean and integer
// columns, for CSV every other column. It reads only the header, and
// returns nothing for standard input or a histogram.
func OtherColumns(paths []string, opt Options) ([]string, error) {
	files, err := expandPaths(paths)
	if err != nil || len(files) == 0 || files[0] == "-" || opt.Histogram {
		return nil, err
	}
	name := files[0]
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var magic [4]byte
	n, _ := io.ReadFull(f, magic[:])
	lower := strings.ToLower(name)
	if string(magic[:n]) == "PAR1" || strings.HasSuffix(lower, ".parquet") || strings.HasSuffix(lower, ".pq") {
		return parquetOtherColumns(name, f, &opt)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	br := bufio.NewReaderSize(f, 1<<16)
	var in io.Reader = br
	if m, _ := br.Peek(2); len(m) == 2 && m[0] == 0x1f && m[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		defer zr.Close()
		in = zr
	}
	cr := csv.NewReader(in)
	cr.Comma, cr.LazyQuotes = rune((&reader{opt: opt}).delimFor(name)), true
	header, err := cr.Read()
	if err != nil {
		return nil, nil // the read proper says what is wrong
	}
	l, err := resolveColumns(name, header, &opt)
	if err != nil {
		return nil, nil
	}
	return l.others(func(int) bool { return true }), nil
}

func parquetOtherColumns(name string, f *os.File, opt *Options) ([]string, error) {
	pf, err := openParquet(f)
	if err != nil {
		return nil, nil
	}
	defer pf.Close()
	sc := pf.MetaData().Schema
	header := make([]string, sc.NumColumns())
	for i := range header {
		header[i] = sc.Column(i).Path()
	}
	l, err := resolveColumns(name, header, opt)
	if err != nil {
		return nil, nil
	}
	return l.others(func(i int) bool {
		switch sc.Column(i).PhysicalType() {
		case parquet.Types.ByteArray, parquet.Types.Boolean, parquet.Types.Int32, parquet.Types.Int64:
			return sc.Column(i).MaxRepetitionLevel() == 0
		}
		return false
	}), nil
}

// others are the named columns the layout does not use, for which ok.
func (l *layout) others(ok func(col int) bool) []string {
	used := map[int]bool{l.created: true, l.settled: true, l.duration: true, l.status: true, l.signal: true}
	var out []string
	for i, n := range l.names {
		if !used[i] && n != "" && ok(i) {
			out = append(out, n)
		}
	}
	return out
}
