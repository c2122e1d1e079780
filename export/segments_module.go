package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// jsFunctions is the part of a JS or TS template from nextAge on, the
// functions over the module's schedule, with their exports taken off:
// the body of scheduleAPI, so that one text serves both.
func jsFunctions(tmpl string) string {
	body := tmpl[strings.Index(tmpl, "// nextAge is"):]
	body = strings.ReplaceAll(body, "\nexport function ", "\nfunction ")
	return strings.ReplaceAll(body, "\nexport class ", "\nclass ")
}

// jsSegments writes the JS (or TS) module of the fallback, then
// scheduleAPI, which makes the module's API over any schedule, segments
// (by, values: one API per value, fallback: the module's own) and
// scheduleFor(value), the value's API or the fallback's.
func jsSegments(w io.Writer, s Segments, opt JSOptions, ts bool) error {
	var b bytes.Buffer
	t, text, format := jsTemplate, jsTemplateText, "js"
	if ts {
		t, text, format = tsTemplate, tsTemplateText, "ts"
	}
	if err := writeJS(&b, t, s.Fallback, opt, format); err != nil {
		return err
	}
	by, _ := json.Marshal(s.By)
	param, api, lit := "schedule", "", "Object.freeze("
	if ts {
		param, api, lit = "schedule: Schedule", ": API", "Object.freeze<Schedule>("
	}
	fmt.Fprintf(&b, "\n// scheduleAPI is the module's API (schedule, next, nextFrom, asks, asksFrom,\n// end, BackOff) over schedule.\nfunction scheduleAPI(%s) {\n", param)
	b.WriteString(jsFunctions(text))
	b.WriteString("  return Object.freeze({ schedule, next, nextFrom, asks, asksFrom, end, BackOff });\n}\n")
	if ts {
		b.WriteString("\n/** The API over one schedule. */\nexport type API = ReturnType<typeof scheduleAPI>;\n")
		b.WriteString("\n/** The segments: by, one API per value, and the fallback. */\nexport interface Segments {\n  by: string;\n  values: Readonly<Record<string, API>>;\n  fallback: API;\n}\n")
	}
	fmt.Fprintf(&b, "\n/**\n * The schedule of each value of %s, as the module's API; fallback, the\n * module's own schedule, serves any other value (see scheduleFor).\n */\nexport const segments%s = Object.freeze({\n  by: %s,\n  values: Object.freeze({\n",
		commentLine(s.By), strings.Replace(api, "API", "Segments", 1), by)
	for i, v := range s.Values {
		key, _ := json.Marshal(v)
		c := schedule.Canonical(s.Schedules[i])
		cl, al := jsClauses(c)
		fmt.Fprintf(&b, "    // %s\n    %s: scheduleAPI(%s{ clauses: [%s], aligned: [%s], resetOnSignal: %t })),\n",
			commentLine(schedule.Format(c)), key, lit, strings.Join(cl, ", "), strings.Join(al, ", "), c.ResetOnSignal)
	}
	b.WriteString("  }),\n  fallback: scheduleAPI(schedule),\n});\n")
	sig := "value"
	if ts {
		sig = "value: string): API"
	} else {
		sig += ")"
	}
	fmt.Fprintf(&b, "\n/**\n * The API of value's schedule, or the fallback's for a value not fitted.\n */\nexport function scheduleFor(%s {\n  return Object.prototype.hasOwnProperty.call(segments.values, value) ? segments.values[value] : segments.fallback;\n}\n", sig)
	_, err := w.Write(b.Bytes())
	return err
}
