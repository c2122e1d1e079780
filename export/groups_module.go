package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/template"

	"github.com/pollfit/pollfit/fit/schedule"
)

// jsFunctions is the part of a JS or TS template from nextAge on, the
// functions over the module's schedule, as a module that does not
// explore has them, with their exports taken off: the body of
// scheduleAPI, so that one text serves both.
func jsFunctions(tmpl string) (string, error) {
	var b strings.Builder
	t, err := template.New("body").Parse(tmpl[strings.Index(tmpl, "// micros is"):])
	if err == nil {
		_, err = t.Parse(jsExploreText)
	}
	if err == nil {
		err = t.Execute(&b, &goData{})
	}
	if err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	body := strings.ReplaceAll(b.String(), "\nexport function ", "\nfunction ")
	return strings.ReplaceAll(body, "\nexport class ", "\nclass "), nil
}

// jsSegmentText is the text that differs between the JS and the TS of
// a schedule per group: scheduleAPI's head, the wrapping of each
// value's schedule, the types and segments' and scheduleFor's heads.
type jsSegmentText struct {
	param, lit, closing, types, segments, scheduleFor string
}

var (
	jsSegmentJS = jsSegmentText{
		param: "/** @param {Schedule} schedule */\nfunction scheduleAPI(schedule)",
		lit:   "Object.freeze(/** @type {Schedule} */ (", closing: ")))",
		types: "\n/** @typedef {ReturnType<typeof scheduleAPI>} API The API over one schedule. */\n" +
			"\n/**\n * @typedef {{ readonly by: string, readonly values: Readonly<Record<string, API>>, readonly fallback: API }} Segments\n * The segments: by, one API per value, and the fallback.\n */\n",
		segments:    "/** @type {Segments} */\nexport const segments = ",
		scheduleFor: " * @param {string} value\n * @returns {API}\n */\nexport function scheduleFor(value)",
	}
	jsSegmentTS = jsSegmentText{
		param: "function scheduleAPI(schedule: Schedule)",
		lit:   "Object.freeze<Schedule>(", closing: "))",
		types: "\n/** The API over one schedule. */\nexport type API = ReturnType<typeof scheduleAPI>;\n" +
			"\n/** The segments: by, one API per value, and the fallback. */\nexport interface Segments {\n  readonly by: string;\n  readonly values: Readonly<Record<string, API>>;\n  readonly fallback: API;\n}\n",
		segments:    "export const segments: Segments = ",
		scheduleFor: " */\nexport function scheduleFor(value: string): API",
	}
)

// jsSegments writes the JS (or TS) module of the fallback, then
// scheduleAPI, which makes the module's API over any schedule, segments
// (by, values: one API per value, fallback: the module's own) and
// scheduleFor(value), the value's API or the fallback's.
func jsSegments(w io.Writer, s Groups, opt JSOptions, ts bool) error {
	var b bytes.Buffer
	t, text, format, x := jsTemplate, jsTemplateText, "js", jsSegmentJS
	if ts {
		t, text, format, x = tsTemplate, tsTemplateText, "ts", jsSegmentTS
	}
	if err := writeJS(&b, t, s.Fallback, opt, format); err != nil {
		return fmt.Errorf("%w (the fallback)", err)
	}
	fmt.Fprintf(&b, "\n// scheduleAPI is the module's API (schedule, next, nextFrom, asks, asksFrom,\n// end, BackOff) over schedule.\n%s {\n", x.param)
	body, err := jsFunctions(text)
	if err != nil {
		return err
	}
	b.WriteString(body)
	b.WriteString("  return Object.freeze({ schedule, next, nextFrom, asks, asksFrom, end, BackOff });\n}\n")
	b.WriteString(x.types)
	by, _ := json.Marshal(s.By)
	fmt.Fprintf(&b, "\n/**\n * The schedule of each value of %s, as the module's API; fallback, the\n * module's own schedule, serves any other value (see scheduleFor).\n */\n%sObject.freeze({\n  by: %s,\n  values: Object.freeze({\n",
		commentLine(s.By), x.segments, by)
	for i, v := range s.Values {
		c := schedule.Canonical(s.Schedules[i])
		if _, err := exactUnit(jsLanguage[format], c); err != nil {
			return fmt.Errorf("%w (segment %q)", err, v)
		}
		cl, al := jsClauses(c)
		fmt.Fprintf(&b, "    // %s\n    %s: scheduleAPI(%s{ clauses: [%s], aligned: [%s], resetOnSignal: %t }%s,\n",
			commentLine(schedule.Format(c)), jsKey(v), x.lit, strings.Join(cl, ", "), strings.Join(al, ", "), c.ResetOnSignal, x.closing)
	}
	b.WriteString("  }),\n  fallback: scheduleAPI(schedule),\n});\n")
	fmt.Fprintf(&b, "\n/**\n * The API of value's schedule, or the fallback's for a value not fitted.\n%s {\n"+
		"  const api = Object.prototype.hasOwnProperty.call(segments.values, value) ? segments.values[value] : undefined;\n"+
		"  return api ?? segments.fallback;\n}\n", x.scheduleFor)
	_, err = w.Write(b.Bytes())
	return err
}

// jsKey is v as the key of an object literal: a JSON string, computed
// for "__proto__", which as a plain key would set the prototype.
func jsKey(v string) string {
	key, _ := json.Marshal(v)
	if v == "__proto__" {
		return "[" + string(key) + "]"
	}
	return string(key)
}
