package estimate

import (
	"fmt"
	"sort"
	"strings"
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
	// text is a status column trimmed and in lower case.
	text func(col string) string
	// str is the string type for CAST; segment columns are cast to it.
	str string
}

func pctMod(a, b string) string   { return "((" + a + ") % " + b + ")" }
func funcMod(a, b string) string  { return "MOD(" + a + ", " + b + ")" }
func log10Func(x string) string   { return "LOG10(" + x + ")" }
func lowerTrim(col string) string { return "LOWER(TRIM(" + col + "))" }

// sqlDialects are the dialects SketchSQL writes, by name.
var sqlDialects = map[string]sqlDialect{
	"duckdb": {
		epochUS: func(c string) string { return "epoch_us(" + c + ")" },
		double:  "DOUBLE", bigint: "BIGINT", mod: pctMod, log10: log10Func, text: lowerTrim,
		str: "VARCHAR",
	},
	"postgres": {
		epochUS: func(c string) string { return "CAST(EXTRACT(EPOCH FROM " + c + ") * 1000000 AS BIGINT)" },
		double:  "DOUBLE PRECISION", bigint: "BIGINT", mod: funcMod, log10: log10Func, text: lowerTrim,
		str: "TEXT",
	},
	"bigquery": {
		epochUS: func(c string) string { return "UNIX_MICROS(" + c + ")" },
		double:  "FLOAT64", bigint: "INT64", mod: funcMod, log10: log10Func, text: lowerTrim,
		str: "STRING",
	},
	"spark": {
		epochUS: func(c string) string { return "unix_micros(" + c + ")" },
		double:  "DOUBLE", bigint: "BIGINT", mod: funcMod, log10: log10Func, text: lowerTrim,
		str: "STRING",
	},
	"clickhouse": {
		epochUS: func(c string) string { return "toUnixTimestamp64Micro(toDateTime64(" + c + ", 6))" },
		double:  "Float64", bigint: "Int64", mod: pctMod, log10: log10Func,
		text: func(c string) string { return "lower(trimBoth(" + c + "))" },
		str:  "String",
	},
	"snowflake": {
		epochUS: func(c string) string { return "DATE_PART(EPOCH_MICROSECOND, " + c + ")" },
		double:  "DOUBLE", bigint: "BIGINT", mod: funcMod,
		log10: func(x string) string { return "LOG(10, " + x + ")" }, text: lowerTrim,
		str: "VARCHAR",
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

// int64Lit is an integer constant as a BIGINT: Spark and ClickHouse
// type small literals as 32-bit integers, whose products overflow.
func (d sqlDialect) int64Lit(n int64) string {
	return fmt.Sprintf("CAST(%d AS %s)", n, d.bigint)
}

// sqlStrings are words as a list of SQL string literals.
func sqlStrings(words []string) (string, error) {
	q := make([]string, len(words))
	for i, w := range words {
		if strings.ContainsAny(w, `'\`) {
			return "", fmt.Errorf("sql: status word %q: quotes and backslashes are not supported", w)
		}
		q[i] = "'" + w + "'"
	}
	return strings.Join(q, ", "), nil
}

// segText is a segment column as text, trimmed, with null as "": the
// value logs.EachBy gives a row.
func (d sqlDialect) segText(col string) string {
	if d.str == "String" { // ClickHouse
		return "ifNull(trimBoth(toString(" + col + ")), '')"
	}
	return "COALESCE(TRIM(CAST(" + col + " AS " + d.str + ")), '')"
}
