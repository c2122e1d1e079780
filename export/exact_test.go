package export

import (
	"bytes"
	"strings"
	"testing"
)

// TestExactUnit: JavaScript, TypeScript and Kotlin refuse a schedule
// finer than a microsecond, naming the duration and the fix; Kotlin
// writes a schedule in whole microseconds but not milliseconds in
// microseconds, under the Us names, and one in whole milliseconds as
// before. The data lines are worked out by hand: 1.1 ms is 1100 µs.
func TestExactUnit(t *testing.T) {
	fine := mustParse(t, "at 0s 1500ns")
	writers := map[string]func(*bytes.Buffer) error{
		"JavaScript": func(b *bytes.Buffer) error { return JS(b, fine, JSOptions{}) },
		"TypeScript": func(b *bytes.Buffer) error { return TS(b, fine, JSOptions{}) },
		"Kotlin":     func(b *bytes.Buffer) error { return Kotlin(b, fine, KotlinOptions{}) },
	}
	for lang, write := range writers {
		err := write(&bytes.Buffer{})
		if err == nil || err.Error() != "export: "+lang+" output counts whole microseconds, and the schedule has 1.5us; round the schedule to microseconds" {
			t.Errorf("%s of %q: %v", lang, "at 0s 1500ns", err)
		}
	}
	cases := []struct {
		dsl      string
		want     []string
		wantNone []string
	}{
		{"1.1ms until 3.3ms", []string{
			"arrayOf(\n        Clause(longArrayOf(), 1100L, 3300L, false)\n    )",
			"fun nextUs(ageUs: Long): Long", "fun asksUs(horizonUs: Long): LongArray", "fun asksFromUs(createdUs: Long, horizonUs: Long): LongArray",
			"fun endUs(): Long", "fun waitUs(): Long", "fun nextBackOffUs(): Long",
			"{ System.nanoTime() / 1000L }", "{ System.currentTimeMillis() * 1000L }",
		}, []string{"fun next(", "fun asks(", "fun waitMs(", "fun nextBackOff("}},
		{"at 0s 1s, 2s until 2m", []string{
			"Clause(longArrayOf(0L, 1000L), 0L, 0L, false)", "Clause(longArrayOf(), 2000L, 120000L, false)",
			"fun next(ageMs: Long): Long", "fun asks(horizonMs: Long): LongArray", "fun waitMs(): Long", "fun nextBackOff(): Long",
			"{ System.nanoTime() / 1000000L }", "{ System.currentTimeMillis() }",
		}, []string{"Us(", "currentTimeMillis() * 1000L"}},
	}
	for _, c := range cases {
		var b bytes.Buffer
		if err := Kotlin(&b, mustParse(t, c.dsl), KotlinOptions{}); err != nil {
			t.Fatalf("%s: %v", c.dsl, err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("Kotlin of %q lacks %q", c.dsl, w)
			}
		}
		for _, w := range c.wantNone {
			if strings.Contains(b.String(), w) {
				t.Errorf("Kotlin of %q has %q", c.dsl, w)
			}
		}
	}
}

// TestJSKey: a value of a schedule per segment as an object literal key,
// by hand: "__proto__" computed, as a plain key sets the prototype and
// the value would be lost.
func TestJSKey(t *testing.T) {
	for v, want := range map[string]string{"__proto__": `["__proto__"]`, `a"b`: `"a\"b"`, "card": `"card"`} {
		if got := jsKey(v); got != want {
			t.Errorf("jsKey(%q) = %s, want %s", v, got, want)
		}
	}
}
