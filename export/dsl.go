package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// DSL writes s in the canonical one-line form of the schedule language
// (schedule.Format) followed by a new line. When meta says something it
// comes first as "# " comment lines: the comment, "fitted from: ...",
// "budget: ..." and one "name: value" line per metric. Comment text is
// sanitised so that it cannot break out of its comment; the output
// parses back with schedule.Parse to the canonical schedule.
func DSL(w io.Writer, s *schedule.Schedule, meta *Meta) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var b strings.Builder
	for _, l := range meta.lines() {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	b.WriteString(schedule.Format(s) + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}
