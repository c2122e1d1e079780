package estimate

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/pollfit/pollfit/internal/quote"
)

// A sqlDialect spells the few functions a sketch query needs that SQL
// engines spell differently.
type sqlDialect struct {
	// epochUS is a timestamp column's whole microseconds since 1970.
	epochUS func(col string) string
	// double and bigint are the type names for CAST.
	double, bigint string
	// mod is the remainder of a ÷ b, with a's sign.
	mod func(a, b string) string
	// log10 is the base-10 logarithm of a double.
	log10 func(x string) string
	// str is the string type for CAST; segment columns are cast to it.
	str string
	// quote quotes a name (see sqlDialect.ident).
	quote byte
	// finite is whether a timestamp column is finite (nil for engines
	// without infinite timestamps), or for ClickHouse, read from its text
	// (see clickhouseEpochUS); epochUS is null for one that is not.
	finite func(col string) string
	// trim is a string trimmed of spaces and tabs, as the readers trim
	// every field.
	trim func(x string) string
	// greatest and least name the functions of the larger and the
	// smaller of their arguments ("" for GREATEST and LEAST).
	greatest, least string
	// inline is whether the engine takes the query with its CTEs
	// written in place as subqueries (see inlineCTEs).
	inline bool
}

func pctMod(a, b string) string  { return "((" + a + ") % " + b + ")" }
func funcMod(a, b string) string { return "MOD(" + a + ", " + b + ")" }
func log10Func(x string) string  { return "LOG10(" + x + ")" }
func isFinite(col string) string { return "isfinite(" + col + ")" }

// trimFunc trims with name(x, chars), chars a space and a tab as tab
// spells the tab (a query holds no backslash).
func trimFunc(name, tab string) func(string) string {
	return func(x string) string { return name + "(" + x + ", " + tab + ")" }
}

// sqlDialects are the dialects SketchSQL writes, by name.
var sqlDialects = map[string]sqlDialect{
	"duckdb": {
		epochUS: func(c string) string { return "CASE WHEN isfinite(" + c + ") THEN epoch_us(" + c + ") END" },
		double:  "DOUBLE", bigint: "BIGINT", mod: pctMod, log10: log10Func,
		str: "VARCHAR", quote: '"', finite: isFinite,
		trim: func(x string) string { return "rtrim(ltrim(" + x + ", ' ' || chr(9)), ' ' || chr(9))" },
	},
	"postgres": {
		epochUS: func(c string) string {
			return "CASE WHEN isfinite(" + c + ") THEN CAST(EXTRACT(EPOCH FROM " + c + ") * 1000000 AS BIGINT) END"
		},
		double: "DOUBLE PRECISION", bigint: "BIGINT", mod: funcMod, log10: log10Func,
		str: "TEXT", quote: '"', finite: isFinite, trim: trimFunc("BTRIM", "' ' || CHR(9)"),
	},
	"bigquery": {
		epochUS: func(c string) string { return "UNIX_MICROS(" + c + ")" },
		double:  "FLOAT64", bigint: "INT64", mod: funcMod, log10: log10Func,
		str: "STRING", quote: '`', trim: trimFunc("TRIM", "CONCAT(' ', CODE_POINTS_TO_STRING([9]))"),
	},
	"spark": {
		epochUS: func(c string) string { return "unix_micros(" + c + ")" },
		double:  "DOUBLE", bigint: "BIGINT", mod: funcMod, log10: log10Func,
		str: "STRING", quote: '`',
		trim: func(x string) string { return "trim(BOTH concat(' ', chr(9)) FROM " + x + ")" },
	},
	"clickhouse": {
		epochUS: clickhouseEpochUS, finite: clickhouseReadable,
		double: "Float64", bigint: "Int64", mod: pctMod, log10: log10Func,
		str: "String", quote: '`', greatest: "greatest", least: "least", inline: true,
		trim: func(x string) string { return "replaceRegexpAll(" + x + ", '^[[:blank:]]+|[[:blank:]]+$', '')" },
	},
	"snowflake": {
		epochUS: func(c string) string { return "DATE_PART(EPOCH_MICROSECOND, " + c + ")" },
		double:  "DOUBLE", bigint: "BIGINT", mod: funcMod,
		log10: func(x string) string { return "LOG(10, " + x + ")" },
		str:   "VARCHAR", quote: '"', trim: trimFunc("TRIM", "' ' || CHR(9)"),
	},
}

// SQLDialects are the names of the dialects SketchSQL writes, sorted.
func SQLDialects() []string {
	var names []string
	for n := range sqlDialects {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// lookupDialect returns the dialect called name.
func lookupDialect(name string) (sqlDialect, error) {
	d, ok := sqlDialects[strings.ToLower(name)]
	if !ok {
		return d, fmt.Errorf("sql: dialect %q: want one of %s", name, strings.Join(SQLDialects(), ", "))
	}
	return d, nil
}

// fn is a call of the function called name, or def when the dialect
// spells it so.
func fn(name, def string, args ...string) string {
	if name == "" {
		name = def
	}
	return name + "(" + strings.Join(args, ", ") + ")"
}

// max and min are the larger and the smaller of their arguments (two
// at a time where the dialect names its own function: ClickHouse 18.16
// takes only two).
func (d sqlDialect) max(args ...string) string { return pairwise(d.greatest, "GREATEST", args) }
func (d sqlDialect) min(args ...string) string { return pairwise(d.least, "LEAST", args) }

func pairwise(name, def string, args []string) string {
	if name == "" || len(args) <= 2 {
		return fn(name, def, args...)
	}
	return fn(name, def, args[0], pairwise(name, def, args[1:]))
}

// int64Lit is an integer constant as a BIGINT: Spark and ClickHouse
// type small literals as 32-bit integers, whose products overflow.
func (d sqlDialect) int64Lit(n int64) string {
	return fmt.Sprintf("CAST(%d AS %s)", n, d.bigint)
}

// sqlStrings are words as a list of SQL string literals.
func sqlStrings(words []string) (string, error) {
	q := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, `'`+sqlUnsafe) || strings.ContainsFunc(w, unicode.IsControl) {
			return "", fmt.Errorf("sql: status word %q: quotes, semicolons, backslashes and control characters are not supported", quote.Clip(w))
		}
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, ", "), nil
}

// text is a status column trimmed and in lower case.
func (d sqlDialect) text(col string) string {
	if d.str == "String" { // ClickHouse
		return "lower(" + d.trim(col) + ")"
	}
	return "LOWER(" + d.trim(col) + ")"
}

// segText is a segment column as text, trimmed, with null as "": the
// value logs.EachBy gives a row.
func (d sqlDialect) segText(col string) string {
	if d.str == "String" { // ClickHouse
		return "ifNull(" + d.trim("toString("+col+")") + ", '')"
	}
	return "COALESCE(" + d.trim("CAST("+col+" AS "+d.str+")") + ", '')"
}

// infinite is 1 when one of the timestamp columns is infinite, else 0.
func (d sqlDialect) infinite(cols []string) string {
	if d.finite == nil {
		return "0"
	}
	var b strings.Builder
	b.WriteString("CASE WHEN")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(" OR")
		}
		b.WriteString(" NOT " + d.finite(c))
	}
	b.WriteString(" THEN 1 ELSE 0 END")
	return b.String()
}
