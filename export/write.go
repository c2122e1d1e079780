package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Formats are the output formats Write knows, in the order help text
// lists them.
var Formats = []string{"dsl", "json", "go", "js", "ts", "kotlin", "python", "asks"}

// Write writes s in the named format (one of Formats): DSL, JSON, JS
// and TS with meta, Go with goOpt, whose Meta defaults to meta, Kotlin
// with meta and the package and object names goOpt.Package and
// goOpt.Var, Python with meta, and Asks up to the schedule's end; JS,
// TS, Kotlin and Python take their header arguments from goOpt.Args,
// and JS, TS and Kotlin their exploration from goOpt.Explore. It is the
// one call behind "pollfit export --format" and "pollfit fit --format".
func Write(w io.Writer, format string, s *schedule.Schedule, meta *Meta, goOpt GoOptions) error {
	if f := strings.ToLower(format); goOpt.Explore.On() && f != "go" && f != "js" && f != "ts" && f != "kotlin" {
		return fmt.Errorf("export: the %s output does not explore: exploring is written in go, js, ts and kotlin", f)
	}
	switch strings.ToLower(format) {
	case "dsl":
		return DSL(w, s, meta)
	case "json":
		return JSON(w, s, meta)
	case "go":
		if goOpt.Meta == nil {
			goOpt.Meta = meta
		}
		return Go(w, s, goOpt)
	case "js":
		return JS(w, s, JSOptions{Args: goOpt.Args, Meta: meta, Explore: goOpt.Explore})
	case "ts":
		return TS(w, s, JSOptions{Args: goOpt.Args, Meta: meta, Explore: goOpt.Explore})
	case "kotlin":
		return Kotlin(w, s, KotlinOptions{Package: goOpt.Package, Object: goOpt.Var, Args: goOpt.Args, Meta: meta, Explore: goOpt.Explore})
	case "python":
		return Python(w, s, PythonOptions{Args: goOpt.Args, Meta: meta})
	case "asks":
		return Asks(w, s, AsksOptions{})
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}
