package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Formats are the output formats Write knows, in the order help text
// lists them.
var Formats = []string{"dsl", "json", "go", "js"}

// Write writes s in the named format (one of Formats): DSL, JSON and
// JS with meta, Go with goOpt, whose Meta defaults to meta; JS takes
// its header arguments from goOpt.Args. It is the
// one call behind "pollfit export --format" and "pollfit fit --format".
func Write(w io.Writer, format string, s *schedule.Schedule, meta *Meta, goOpt GoOptions) error {
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
		return JS(w, s, JSOptions{Args: goOpt.Args, Meta: meta})
	}
	return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
}
