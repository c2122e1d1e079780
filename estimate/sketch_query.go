package estimate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pollfit/pollfit/internal/opterr"
	"github.com/pollfit/pollfit/internal/quote"
)

// maxQueryBytes is the longest SQLOptions.Query.
const maxQueryBytes = 64 << 10

// checkQuery checks SQLOptions.Query, a SELECT the sketch reads its rows
// from: one statement (no semicolon anywhere, even in a string: a view
// holds such a query), no backslash, its quotes, comments and
// parentheses closed, and a SELECT, WITH or FROM first.
func checkQuery(q string) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("sql: %w", opterr.Optionf("Query", fmt.Sprintf("%q", quote.Clip(q)), format, a...))
	}
	switch {
	case len(q) > maxQueryBytes:
		return fail("longer than %d bytes: put it in a view and give Table", maxQueryBytes)
	case !utf8.ValidString(q):
		return fail("invalid UTF-8")
	}
	if i := strings.IndexAny(q, sqlUnsafe); i >= 0 {
		what := "a semicolon: a second statement is refused (one SELECT, without ';'; a query that needs one goes in a view, then Table)"
		if q[i] == '\\' {
			what = "a backslash, which psql would run as a command: put the query in a view and give Table"
		}
		return fail("byte %d: %s", i+1, what)
	}
	for _, r := range q {
		if unicode.IsControl(r) && r != '\n' && r != '\t' && r != '\r' {
			return fail("control character %q", r)
		}
	}
	first, err := lexQuery(q)
	if err != nil {
		return fail("%v", err)
	}
	switch strings.ToUpper(first) {
	case "SELECT", "WITH", "FROM":
		return nil
	}
	return fail("starts with %q: want a SELECT (or WITH …, or DuckDB's FROM …)", quote.Clip(first))
}

// lexQuery walks q as SQL: strings and quoted names ('…', "…", `…`,
// quotes doubled inside), comments (-- to the line's end, /* … */, not
// nested) and parentheses, which must all close. It returns the first
// word outside comments and parentheses.
func lexQuery(q string) (first string, err error) {
	depth := 0
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			n := closeQuote(q, i)
			if n < 0 {
				return "", fmt.Errorf("the %c at byte %d is not closed", c, i+1)
			}
			i = n
		case strings.HasPrefix(q[i:], "--"):
			n := strings.IndexByte(q[i:], '\n')
			if n < 0 {
				return first, checkDepth(depth)
			}
			i += n
		case strings.HasPrefix(q[i:], "/*"):
			n := strings.Index(q[i+2:], "*/")
			if n < 0 {
				return "", fmt.Errorf("the comment at byte %d is not closed", i+1)
			}
			if strings.Contains(q[i+2:i+2+n], "/*") {
				return "", fmt.Errorf("a comment inside the comment at byte %d (engines differ on nesting)", i+1)
			}
			i += n + 4
		case c == '(' || c == ')':
			if depth += map[byte]int{'(': 1, ')': -1}[c]; depth < 0 {
				return "", fmt.Errorf("the ) at byte %d closes nothing", i+1)
			}
			i++
		case isIdentStart(c):
			j := i
			for j < len(q) && (isIdentStart(q[j]) || q[j] >= '0' && q[j] <= '9') {
				j++
			}
			if first == "" {
				first = q[i:j]
			}
			i = j
		default:
			if first == "" && !strings.ContainsRune(" \t\r\n(", rune(c)) {
				first = q[i : i+1]
			}
			i++
		}
	}
	return first, checkDepth(depth)
}

func checkDepth(depth int) error {
	if depth != 0 {
		return fmt.Errorf("%d ( not closed", depth)
	}
	return nil
}

// closeQuote is the index after the quote closing the one at q[i],
// −1 when there is none; a quote doubled inside is part of the text.
func closeQuote(q string, i int) int {
	c := q[i]
	for j := i + 1; j < len(q); j++ {
		if q[j] != c {
			continue
		}
		if j+1 < len(q) && q[j+1] == c {
			j++
			continue
		}
		return j + 1
	}
	return -1
}
