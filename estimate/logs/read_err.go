package logs

import (
	"fmt"
	"sort"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
)

// RowError is a problem with one row of a log.
//
// Line is 1-based and counts the header as line 1, so for a CSV file it
// is the line an editor shows (the first line of a record that spans
// lines); for Parquet it is the row number plus one, so that the CSV and
// Parquet forms of one log report the same positions. Col is the 1-based
// column number and Column its header name; both are zero or empty when
// the problem is with the whole row.
type RowError struct {
	File   string
	Line   int
	Col    int
	Column string
	Msg    string
	// reason is the short key the row is counted under when skipped.
	reason string
}

// Error reads like "payments.csv:17:3: column settled_at: settled_at
// before created_at".
func (e *RowError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	fmt.Fprintf(&b, ":%d", e.Line)
	if e.Col > 0 {
		fmt.Fprintf(&b, ":%d", e.Col)
	}
	b.WriteString(": ")
	if e.Column != "" {
		fmt.Fprintf(&b, "column %s: ", e.Column)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Reason is the key the row is counted under when skipped (a key of
// Stats.Skipped, such as ReasonUnknownStatus).
func (e *RowError) Reason() string { return e.reason }

// ReasonUnknownStatus is the Reason of a row whose status is neither a
// known final word nor a pending one (Options.Final, Options.Pending).
const ReasonUnknownStatus = skipStatus

// MissingColumnsError says a log's header has neither the creation and
// settle time columns nor a duration column (Options.CreatedCol,
// SettledCol, DurationCol name them).
type MissingColumnsError struct {
	File                       string
	Created, Settled, Duration string // the names looked for
	Found                      string // the header, quoted and clipped
}

func (e *MissingColumnsError) Error() string {
	return fmt.Sprintf("%s: missing columns: need %s and %s, or %s (%s)", e.File, e.Created, e.Settled, e.Duration, e.Found)
}

// Reasons rows are skipped for, the keys of Stats.Skipped.
const (
	skipFields        = "wrong number of fields"
	skipSyntax        = "bad csv syntax"
	skipTime          = "bad timestamp"
	skipDuration      = "bad duration"
	skipStatus        = "unknown status"
	skipOrder         = "settled before created"
	skipMissing       = "missing value"
	skipObserved      = "created after observed-at"
	skipSignal        = "bad signal"
	skipSignalOrder   = "signal before created"
	skipHistogramBins = "bad histogram row"
	skipLong          = "line too long"
)

// skipWarning summarises skipped rows for Stats.Warnings.
func skipWarning(skipped map[string]int64) string { return "skipped " + SkippedText(skipped) }

// SkippedText counts rows by reason, the most first: "5000 bad rows
// (unknown status: 5000)".
func SkippedText(skipped map[string]int64) string {
	var total int64
	keys := make([]string, 0, len(skipped))
	for k, n := range skipped {
		total += n
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if skipped[keys[i]] != skipped[keys[j]] {
			return skipped[keys[i]] > skipped[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s: %d", k, skipped[k])
	}
	rows := "rows"
	if total == 1 {
		rows = "row"
	}
	return fmt.Sprintf("%d bad %s (%s)", total, rows, strings.Join(parts, ", "))
}

// quoted is strconv.Quote of at most quote.Max bytes of s.
func quoted(s string) string { return fmt.Sprintf("%q", quote.Clip(s)) }

// clipArgs wraps the text arguments of an error message in clip.
func clipArgs(args []any) []any {
	for i, a := range args {
		switch v := a.(type) {
		case []byte:
			args[i] = quote.Clip(v)
		case string:
			args[i] = quote.Clip(v)
		}
	}
	return args
}

// cut is s cut to quote.Max bytes, with "..." after the cut.
func cut(s string) string { return fmt.Sprint(quote.Clip(s)) }
