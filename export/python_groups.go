package export

import (
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// pythonSegments writes the Python module of the fallback with SEGMENTS,
// a dict from each value to its Schedule (the API of the module over it:
// next, asks, end, BackOff(schedule), tenacity_wait(schedule), ...),
// BY, the column, and schedule_for(value), the value's Schedule or
// SCHEDULE, the fallback's.
func pythonSegments(w io.Writer, s Groups, opt PythonOptions) error {
	return writePython(w, schedule.Canonical(s.Fallback), opt, pythonSegmentsData(s))
}

// pythonSegmentsData is the data part of the segmented module.
func pythonSegmentsData(s Groups) string {
	fb := schedule.Canonical(s.Fallback)
	var b strings.Builder
	b.WriteString("SCHEDULE = " + pyScheduleLit(fb, "") + "\n")
	b.WriteString(`"""The schedule for a value not fitted (the one schedule fitted to all items): ` + pyDocText(schedule.Format(fb)) + `."""` + "\n\n")
	b.WriteString("BY = " + pyString(s.By) + "\n")
	b.WriteString(`"""The column the segments are values of."""` + "\n\n")
	b.WriteString("SEGMENTS: Dict[str, Schedule] = {\n")
	for i, v := range s.Values {
		c := schedule.Canonical(s.Schedules[i])
		b.WriteString("    # " + commentLine(schedule.Format(c)) + "\n")
		b.WriteString("    " + pyString(v) + ": " + pyScheduleLit(c, "    ") + ",\n")
	}
	b.WriteString("}\n")
	b.WriteString(`"""The schedule of each value of BY fitted; schedule_for picks one."""` + "\n\n\n")
	b.WriteString("def schedule_for(value: str) -> Schedule:\n")
	b.WriteString(`    """The schedule of value, or SCHEDULE (the fallback) for a value not fitted."""` + "\n")
	b.WriteString("    return SEGMENTS.get(value, SCHEDULE)\n")
	return b.String()
}
