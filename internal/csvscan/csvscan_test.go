package csvscan

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// readAll scans text in chunks of about size bytes.
func readAll(t *testing.T, text string, delim byte, size int) ([][]string, []int, error) {
	t.Helper()
	ch := NewChunker(strings.NewReader(text), delim, size)
	recs := NewRecords(delim)
	var out [][]string
	var lines []int
	var buf []byte
	for {
		chunk, line, err := ch.Next(buf)
		if err == io.EOF {
			return out, lines, nil
		}
		if err != nil {
			return out, lines, err
		}
		recs.Reset(chunk, line)
		for {
			f, l, ok, err := recs.Next()
			if !ok {
				break
			}
			if err != nil {
				return out, lines, err
			}
			rec := make([]string, len(f))
			for i := range f {
				rec[i] = string(f[i])
			}
			out = append(out, rec)
			lines = append(lines, l)
		}
		buf = chunk
	}
}

func TestRoundTripEncodingCSV(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", ",", ";", `"`, "\n", " ", "é", "\t"}
	for trial := range 300 {
		delim := []rune{',', ';', '\t'}[trial%3]
		nrec := 1 + rng.IntN(20)
		var want [][]string
		for range nrec {
			nf := 1 + rng.IntN(5)
			rec := make([]string, nf)
			for i := range rec {
				var b strings.Builder
				for range rng.IntN(6) {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				rec[i] = b.String()
			}
			if nf == 1 && rec[0] == "" {
				rec[0] = "x" // a blank line is no record
			}
			want = append(want, rec)
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Comma = delim
		if err := w.WriteAll(want); err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 7, 64, 1 << 20} {
			got, _, err := readAll(t, buf.String(), byte(delim), size)
			if err != nil {
				t.Fatalf("trial %d size %d: %v\n%q", trial, size, err, buf.String())
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d size %d:\n got %q\nwant %q\ntext %q", trial, size, got, want, buf.String())
			}
		}
	}
}

func TestDialect(t *testing.T) {
	text := "\xEF\xBB\xBFa,b\r\n\r\n1,\"x\r\ny\"\r\n2,\"q\"\"\"\r\n3,ab\"c\n4,last"
	got, lines, err := readAll(t, text, ',', 5)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"a", "b"}, {"1", "x\r\ny"}, {"2", `q"`}, {"3", `ab"c`}, {"4", "last"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Lines counted by hand: the blank line 2, the quoted newline on 3-4.
	if wantLines := []int{1, 3, 5, 6, 7}; !reflect.DeepEqual(lines, wantLines) {
		t.Errorf("lines %v, want %v", lines, wantLines)
	}
}

func TestErrors(t *testing.T) {
	for _, tc := range []struct {
		text string
		line int
		msg  string
	}{
		{"a,b\n1,\"open\n2,3\n", 2, "not closed"},
		{"a,b\n1,\"x\"y\n", 2, "after the closing quote"},
	} {
		_, _, err := readAll(t, tc.text, ',', 1<<10)
		e, ok := err.(*Error)
		if !ok || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
			t.Errorf("%q: got %v, want line %d %q", tc.text, err, tc.line, tc.msg)
		}
	}
}

// TestMaxRecord: a record beyond the limit is an *Error marked TooLong,
// from Records when the chunk holds it (the next record then reads) and
// from the Chunker when it would outgrow about twice the limit.
func TestMaxRecord(t *testing.T) {
	recs := NewRecords(',')
	recs.SetMaxRecord(10)
	recs.Reset([]byte("a,b\n0123456789abc\n\"x\ny\",\"0123456789\"\nc,d\n"), 1)
	var lines []int
	for {
		f, line, ok, err := recs.Next()
		if !ok {
			break
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || !e.TooLong) {
			t.Fatalf("line %d: %v", line, err)
		}
		if err != nil {
			lines = append(lines, -line)
		} else {
			lines = append(lines, line)
			_ = f
		}
	}
	if fmt.Sprint(lines) != "[1 -2 -3 5]" {
		t.Errorf("records at lines %v, want [1 -2 -3 5] (negative: too long)", lines)
	}
	ch := NewChunker(strings.NewReader("h\n"+strings.Repeat("z", 100)+"\n"), ',', 16)
	ch.SetMaxRecord(40)
	var err error
	for err == nil {
		_, _, err = ch.Next(nil)
	}
	var e *Error
	if !errors.As(err, &e) || !e.TooLong || e.Line != 2 {
		t.Fatalf("chunker: %v", err)
	}
}

// Records without quotes are split as strings.Split splits them, eight
// bytes at a time or byte by byte: fields of every length (the delimiter
// and the newline at every offset of a word), lines ending in LF or CRLF,
// blank lines, bytes above 0x7f and 0x01 (which the word test may flag),
// and a last line without its newline; in chunks of any size.
func TestUnquotedSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []string{"a", "\x01", "\xff", "é", " ", "9", ",", ";", "\t"}
	for trial := range 400 {
		delim := []byte{',', ';', '\t'}[trial%3]
		var text strings.Builder
		var want [][]string
		for range 1 + rng.IntN(12) {
			if rng.IntN(6) == 0 {
				text.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)]) // blank
				continue
			}
			var line strings.Builder
			for range rng.IntN(40) {
				line.WriteString(alphabet[rng.IntN(len(alphabet))])
			}
			if line.Len() == 0 {
				line.WriteString("x")
			}
			want = append(want, strings.Split(line.String(), string(delim)))
			text.WriteString(line.String())
			text.WriteString([]string{"\n", "\r\n"}[rng.IntN(2)])
		}
		body := text.String()
		if rng.IntN(2) == 0 {
			body = strings.TrimSuffix(strings.TrimSuffix(body, "\n"), "\r")
		}
		for _, size := range []int{1, 9, 64, 1 << 20} {
			got, _, err := readAll(t, body, delim, size)
			if err != nil {
				t.Fatalf("trial %d size %d: %v", trial, size, err)
			}
			if len(got) == 0 && len(want) == 0 {
				continue
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("trial %d size %d:\n got %q\nwant %q\ntext %q", trial, size, got, want, body)
			}
		}
	}
}
