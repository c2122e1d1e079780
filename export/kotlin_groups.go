package export

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/pollfit/pollfit/fit/schedule"
)

// kotlinSegmentsChunk is how many values one private function of the
// companion puts in the map, so that no JVM method passes 64 KB of
// bytecode, even at --by's 1000 values.
const kotlinSegmentsChunk = 100

// kotlinSegmentsTaken are the names the per-segment Kotlin uses beyond
// kotlinTaken, which an object of the package would shadow.
var kotlinSegmentsTaken = []string{"Map", "MutableMap", "LinkedHashMap", "String"}

// kotlinFunctions is kotlin.tmpl's "api", from nextAge to the end of
// the BackOff class, counting in u, with BackOff an inner class: the
// body of the per-segment class, whose instances each hold a schedule,
// so that one text serves both.
func kotlinFunctions(u kotlinUnit) (string, error) {
	var b strings.Builder
	if err := kotlinTemplate.ExecuteTemplate(&b, "api", &kotlinData{kotlinUnit: u}); err != nil {
		return "", fmt.Errorf("export: %w", err)
	}
	return strings.Replace(b.String(), "\n    class BackOff(", "\n    inner class BackOff(", 1), nil
}

// kotlinSegments writes s as Kotlin: the file Kotlin writes for the
// fallback (the object opt.Object, default Poll), then a class named
// after the object with "Schedule" appended: the object's API over one
// schedule, whose companion holds by, values (a map from value to
// schedule), fallback and scheduleFor(value), which returns the
// fallback for a value not in values.
func kotlinSegments(w io.Writer, s Groups, opt KotlinOptions) error {
	obj := or(opt.Object, "Poll")
	cls := obj + "Schedule"
	if slices.Contains(kotlinSegmentsTaken, obj) || slices.Contains(kotlinTaken, cls) {
		return nameError("Object", "object name %q collides with a name the per-segment Kotlin uses; pick another Object", obj)
	}
	u, err := segmentsUnit(s)
	if err != nil {
		return err
	}
	ctors := make([]string, len(s.Values))
	for i := range s.Values {
		ctors[i] = ktSchedule(cls, schedule.Canonical(s.Schedules[i]), u.unit)
	}
	api, err := kotlinFunctions(u)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := kotlinFile(&b, schedule.Canonical(s.Fallback), opt, u); err != nil {
		return err
	}
	by := commentLine(s.By)
	fmt.Fprintf(&b, "\n/**\n * %s is the API of %s (next, nextFrom, asks, asksFrom, end, BackOff)\n * over one schedule: in values, the schedule of each value of %s; in\n * fallback, %s's own, for any other value. scheduleFor(value) picks one.\n */\n",
		cls, obj, by, obj)
	fmt.Fprintf(&b, "class %s private constructor(\n    private val clauses: Array<Clause>,\n    private val aligned: Array<Aligned>,\n    private val resetOnSignal: Boolean\n) {\n", cls)
	b.WriteString("    private class Clause(val at: LongArray, val every: Long, val until: Long, val forever: Boolean)\n\n")
	b.WriteString("    private class Aligned(val period: Long, val offsets: LongArray, val until: Long)\n\n")
	b.WriteString(api)
	b.WriteString("\n    companion object {\n        /** STOP is what next, nextFrom and BackOff.nextBackOff return once no ask follows. */\n        const val STOP: Long = -1L\n\n")
	fmt.Fprintf(&b, "        /** The column the values are of. */\n        const val by: String = %s\n\n", ktString(s.By))
	fmt.Fprintf(&b, "        /** The schedule of each value of %s. */\n        val values: Map<String, %s> = segments()\n\n", by, cls)
	fmt.Fprintf(&b, "        /** The schedule of any other value: %s's. */\n        val fallback: %s = %s\n\n", obj, cls, ktSchedule(cls, schedule.Canonical(s.Fallback), u.unit))
	fmt.Fprintf(&b, "        /** The schedule of value, or fallback for a value not in values. */\n        fun scheduleFor(value: String): %s = values[value] ?: fallback\n", cls)
	writeKotlinSegmentMap(&b, cls, s, ctors)
	b.WriteString("    }\n}\n")
	_, err = w.Write(b.Bytes())
	return err
}

// segmentsUnit is the unit of the Kotlin of s: microseconds when the
// fallback or a segment is finer than a millisecond, so that the object
// and the class have one API. A schedule finer than a microsecond is
// refused, naming its segment.
func segmentsUnit(s Groups) (kotlinUnit, error) {
	u, err := exactUnit("Kotlin", schedule.Canonical(s.Fallback))
	if err != nil {
		return kotlinUnit{}, fmt.Errorf("%w (the fallback)", err)
	}
	for i, v := range s.Values {
		su, err := exactUnit("Kotlin", schedule.Canonical(s.Schedules[i]))
		if err != nil {
			return kotlinUnit{}, fmt.Errorf("%w (segment %q)", err, v)
		}
		u = min(u, su)
	}
	return kotlinUnitOf(u), nil
}

// writeKotlinSegmentMap writes the companion's segments(), which fills
// the map in functions of kotlinSegmentsChunk values each.
func writeKotlinSegmentMap(b *bytes.Buffer, cls string, s Groups, ctors []string) {
	n := (len(ctors) + kotlinSegmentsChunk - 1) / kotlinSegmentsChunk
	fmt.Fprintf(b, "\n        private fun segments(): Map<String, %s> {\n            val m = LinkedHashMap<String, %s>()\n", cls, cls)
	for k := range n {
		fmt.Fprintf(b, "            segments%d(m)\n", k)
	}
	b.WriteString("            return m\n        }\n")
	for k := range n {
		fmt.Fprintf(b, "\n        private fun segments%d(m: MutableMap<String, %s>) {\n", k, cls)
		for i := k * kotlinSegmentsChunk; i < min(len(ctors), (k+1)*kotlinSegmentsChunk); i++ {
			fmt.Fprintf(b, "            // %s\n            m.put(%s, %s)\n", commentLine(schedule.Format(s.Schedules[i])), ktString(s.Values[i]), ctors[i])
		}
		b.WriteString("        }\n")
	}
}

// ktSchedule is the constructor call of class cls for the canonical
// schedule c, in whole units u.
func ktSchedule(cls string, c *schedule.Schedule, u time.Duration) string {
	clauses, aligned := ktClauses(c, u)
	return fmt.Sprintf("%s(arrayOf(%s), arrayOf(%s), %t)", cls, strings.Join(clauses, ", "), strings.Join(aligned, ", "), c.ResetOnSignal)
}

// ktString is v as a Kotlin string literal: quote, backslash and dollar
// escaped, control and format characters as \u escapes, and each byte
// that is not UTF-8 as U+FFFD, as the JSON and JavaScript forms have it.
func ktString(v string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range v {
		switch {
		case r == '"' || r == '\\' || r == '$':
			b.WriteString(`\` + string(r))
		case r < 0x10000 && (unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'):
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
