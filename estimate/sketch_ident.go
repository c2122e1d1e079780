package estimate

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pollfit/pollfit/internal/opterr"
	"github.com/pollfit/pollfit/internal/quote"
)

// A sketch query holds no semicolon and no backslash anywhere: without
// a semicolon no engine (nor psql -f, nor a driver that runs several
// statements a call) sees a second statement, whatever it makes of
// quotes and comments, and without a backslash psql runs no
// meta-command and no engine's string escapes come into play. Every
// name and word from the caller is checked for both (sqlUnsafe), and
// SketchSQL checks its whole output again.
const sqlUnsafe = `;\`

// Names reaching the query: at most maxIdentParts dotted parts
// (catalog.schema.table), each at most maxIdentRunes long.
const (
	maxIdentParts = 3
	maxIdentRunes = 128
)

// ident is a table or column name, the SQLOptions field given, validated
// and written for the dialect: one identifier or up to three dotted
// parts, each a plain identifier ([A-Za-z_][A-Za-z0-9_]*, written as
// given, so that the engine folds its case as for any unquoted name) or
// a name in double quotes or backticks (written in the dialect's
// quotes). A quoted part holds no quote, semicolon, backslash or
// control character.
func (d sqlDialect) ident(field, name string) (string, error) {
	parts, err := identParts(name)
	if err != nil {
		return "", fmt.Errorf("sql: %w", opterr.Optionf(field, fmt.Sprintf("%q", quote.Clip(name)), "%v; want a name (letters, digits and _), dotted parts (schema.table), or a part quoted as \"Created At\"", err))
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.text
		if p.quoted {
			out[i] = string(d.quote) + p.text + string(d.quote)
		}
	}
	return strings.Join(out, "."), nil
}

// identPart is one dotted part of a name, without its quotes.
type identPart struct {
	text   string
	quoted bool
}

// identParts splits a name into its dotted parts and checks each.
func identParts(name string) ([]identPart, error) {
	var parts []identPart
	for i := 0; ; {
		if i >= len(name) {
			return nil, fmt.Errorf("an empty part")
		}
		var p identPart
		var err error
		if c := name[i]; c == '"' || c == '`' {
			p, i, err = quotedPart(name, i)
		} else {
			p, i, err = plainPart(name, i)
		}
		if err != nil {
			return nil, err
		}
		if parts = append(parts, p); len(parts) > maxIdentParts {
			return nil, fmt.Errorf("more than %d dotted parts", maxIdentParts)
		}
		if i == len(name) {
			return parts, nil
		}
		if name[i] != '.' {
			r, _ := utf8.DecodeRuneInString(name[i:])
			return nil, fmt.Errorf("%q at byte %d", r, i+1)
		}
		i++
	}
}

// plainPart is the unquoted identifier starting at name[i], and the
// index after it.
func plainPart(name string, i int) (identPart, int, error) {
	j := i
	for j < len(name) && (isIdentStart(name[j]) || j > i && name[j] >= '0' && name[j] <= '9') {
		j++
	}
	if j == i {
		r, _ := utf8.DecodeRuneInString(name[i:])
		return identPart{}, i, fmt.Errorf("%q at byte %d", r, i+1)
	}
	if j-i > maxIdentRunes {
		return identPart{}, i, fmt.Errorf("a part longer than %d characters", maxIdentRunes)
	}
	return identPart{text: name[i:j]}, j, nil
}

func isIdentStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// quotedPart is the quoted part starting at name[i] (a double quote or
// a backtick), and the index after its closing quote.
func quotedPart(name string, i int) (identPart, int, error) {
	q := name[i]
	end := strings.IndexByte(name[i+1:], q)
	if end < 0 {
		return identPart{}, i, fmt.Errorf("no closing %c", q)
	}
	text := name[i+1 : i+1+end]
	if err := checkQuoted(text); err != nil {
		return identPart{}, i, err
	}
	return identPart{text: text, quoted: true}, i + end + 2, nil
}

// checkQuoted checks the text of a quoted part.
func checkQuoted(text string) error {
	switch {
	case text == "" || strings.TrimSpace(text) == "":
		return fmt.Errorf("an empty quoted part")
	case !utf8.ValidString(text):
		return fmt.Errorf("invalid UTF-8")
	case utf8.RuneCountInString(text) > maxIdentRunes:
		return fmt.Errorf("a part longer than %d characters", maxIdentRunes)
	}
	for _, r := range text {
		if unicode.IsControl(r) || strings.ContainsRune(sqlUnsafe+"'\"`", r) {
			return fmt.Errorf("%q inside a quoted part", r)
		}
	}
	return nil
}

// identName is a name as a sketch's segment_by records it: its parts
// without their quotes, joined by dots.
func identName(name string) string {
	parts, _ := identParts(name) // checked by ident
	s := make([]string, len(parts))
	for i, p := range parts {
		s[i] = p.text
	}
	return strings.Join(s, ".")
}
