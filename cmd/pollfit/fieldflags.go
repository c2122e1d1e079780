package main

import (
	"errors"
	"regexp"
	"sort"
	"strings"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// flagOf is the one table from the library's Go names for its settings
// (fields of fit.StudyOptions, fit.GroupOptions, estimate.SQLOptions,
// export's and logs' options, as fit.OptionError.Field and the
// library's messages spell them) to pollfit's flags: the library words
// its errors in its own terms, and pollfit puts its flags in their
// place.
var flagOf = map[string]string{
	"Holdout":                "--holdout",
	"Seed":                   "--seed",
	"Bandwidth":              "--smooth",
	"Horizon":                "--horizon",
	"Never":                  "never",
	"StuckAsks":              "--stuck-asks",
	"Clauses":                "--clauses",
	"AnyValues":              "--nice=false",
	"MinInterval":            "--min-interval",
	"MaxInterval":            "--max-interval",
	"Budget":                 "--requests-per-item, --asks-by, --price or --max-attempts",
	"Budget.RequestsPerItem": "--requests-per-item",
	"Budget.AsksBy":          "--asks-by",
	"Budget.MaxAttempts":     "--max-attempts",
	"Budget.Price":           "--price",
	"Baselines":              "--baseline",
	"Family":                 "--family",
	"GRPCClient":             "--grpc-client",
	"MinFinal":               "--min-group",
	// estimate.SQLOptions
	"Table":      "--table",
	"Query":      "--query",
	"CreatedCol": "--created-col",
	"SettledCol": "--settled-col",
	"StatusCol":  "--status-col",
	"SignalCol":  "--signal-col",
	"By":         "--by",
	"AskedCol":   "--asked-col",
	"IDCol":      "--id-col",
	"NoStatus":   "--no-status",
	"ObservedAt": "--observed-at",
	// export.GoOptions, KotlinOptions, GRPCOptions, AsksOptions
	"Var":     "--var",
	"Type":    "--type",
	"Package": "--package",
	"Object":  "--var",
	"Client":  "--grpc-client",
	// logs.Options, logs.MetricOptions
	"Histogram": "--histogram",
	"Delimiter": "--delimiter",
	"Metric":    "--metric",
}

// goNames matches the keys of flagOf as whole words, the longest first.
var goNames = func() *regexp.Regexp {
	keys := make([]string, 0, len(flagOf))
	for k := range flagOf {
		keys = append(keys, regexp.QuoteMeta(k))
	}
	sort.Slice(keys, func(i, j int) bool { return len(keys[i]) > len(keys[j]) })
	return regexp.MustCompile(`\b(` + strings.Join(keys, "|") + `)\b`)
}()

// flagText is library text with pollfit's flags for the Go names.
func flagText(s string) string {
	return goNames.ReplaceAllStringFunc(s, func(k string) string { return flagOf[k] })
}

// errorText is err's message with flags for the Go names in the typed
// error it wraps (an option refused, or a budget no schedule meets);
// the rest of the message, which may quote the user's data, is as is.
func errorText(err error) string {
	msg := err.Error()
	var oe *fit.OptionError
	var ie *fit.InfeasibleError
	switch {
	case errors.As(err, &oe):
		cli := fit.OptionError{Field: flagText(oe.Field), Value: oe.Value, Want: flagText(oe.Want)}
		return strings.Replace(msg, oe.Error(), cli.Error(), 1)
	case errors.As(err, &ie):
		cli := fit.InfeasibleError{Problem: ie.Problem, Fix: flagText(ie.Fix)}
		return strings.Replace(msg, ie.Error(), cli.Error(), 1)
	}
	return msg
}

// flagResult puts pollfit's flags in the reasons a study gives in Go
// names: the stuck cap's (unless a baseline's own, which holds its
// name) and a give-up age that never comes.
func flagResult(res *fit.StudyResult) {
	if res.StuckCapReason != res.BudgetFrom+"'s own" {
		res.StuckCapReason = flagText(res.StuckCapReason)
	}
	if res.Never {
		res.GiveUp.Reason = flagText(res.GiveUp.Reason)
	}
}

// errorExit is 2 for a usage mistake, an option refused included, and 1
// for any other error.
func errorExit(err error) int {
	var ue *usageError
	var oe *fit.OptionError
	if errors.As(err, &ue) || errors.As(err, &oe) {
		return 2
	}
	return 1
}

// fixHint names the flags that fix a reader's error, which the library
// words in its own terms.
func fixHint(err error) string {
	var re *logs.RowError
	var mc *logs.MissingColumnsError
	switch {
	case errors.As(err, &re) && re.Reason() == logs.ReasonUnknownStatus:
		return "\n\tadd the word with --pending-status WORD (still waiting) or --final-status WORD (an answer; failure words such as declined stay failures); 'pollfit help logs' lists the words pollfit knows"
	case errors.As(err, &mc):
		return "\n\tname your columns with --created-col and --settled-col (a row without a settle time is pending), or --duration-col; the state with --status-col"
	}
	return ""
}
