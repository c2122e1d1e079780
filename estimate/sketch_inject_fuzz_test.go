package estimate

import (
	"bufio"
	"os"
	"strconv"
	"testing"
)

// FuzzSketchSQL puts one string in every field of the warehouse query
// that reaches SQL, in every dialect: the builder refuses it, or the
// query it writes is one statement as the dialect's engine splits it
// (countStatements, a lexer of its own). Seeded with the injection
// corpus that TestSketchSQLOneStatement runs.
func FuzzSketchSQL(f *testing.F) {
	fh, err := os.Open("testdata/sql/injection.txt")
	if err != nil {
		f.Fatal(err)
	}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		if s, err := strconv.Unquote(sc.Text()); err == nil {
			f.Add(s)
		}
	}
	fh.Close()
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		for _, d := range SQLDialects() {
			for field, o := range hostileOptions(d, s) {
				q, err := SketchSQL(o)
				if err != nil {
					continue
				}
				if n, why := countStatements(d, q); n != 1 {
					t.Fatalf("%s, %s %q: %d statements (%s):\n%s", d, field, s, n, why, q)
				}
			}
		}
	})
}
