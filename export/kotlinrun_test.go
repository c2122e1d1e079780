package export

import (
	"bytes"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// kotlinTools returns the paths of kotlinc and kotlin, or skips the
// test.
func kotlinTools(t *testing.T) (kotlinc, kotlin string) {
	t.Helper()
	if testing.Short() {
		t.Skip("skipping the Kotlin build in -short mode")
	}
	kotlinc, err := exec.LookPath("kotlinc")
	if err == nil {
		kotlin, err = exec.LookPath("kotlin")
	}
	if err != nil {
		t.Skip("kotlinc or kotlin is not on PATH; skipping the Kotlin build (install Debian's kotlin package: apt-get install kotlin)")
	}
	return kotlinc, kotlin
}

// kotlinNamed are accepted names of TestKotlinNames compiled along
// with the cases.
var kotlinNamed = []KotlinOptions{
	{Package: "com.example.payments", Object: "CheckoutPoll"},
	{Package: "by.open", Object: "inner"},
	{Package: "poll", Object: "data"},
}

// TestGeneratedKotlin compiles the Kotlin output of msCases (objects
// S0, S1, ... in package poll) and of kotlinNamed with a program over
// all cases, in one kotlinc run with warnings as errors, runs it on
// the JVM and checks what it prints as TestGeneratedJS does, against
// the schedule package.
func TestGeneratedKotlin(t *testing.T) {
	kotlinc, kotlin := kotlinTools(t)
	dir := t.TempDir()
	cases := msCases(t)
	files := []string{"Main.kt"}
	write := func(name string, s string, opt KotlinOptions) {
		var src bytes.Buffer
		if err := Kotlin(&src, mustParse(t, s), opt); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, name), src.Bytes())
		files = append(files, name)
	}
	var table []string
	for i, c := range cases {
		write(fmt.Sprintf("S%d.kt", i), c.s.String(), KotlinOptions{Object: fmt.Sprintf("S%d", i)})
		table = append(table, kotlinCase(c, fmt.Sprintf("S%d", i)))
	}
	for i, opt := range kotlinNamed {
		write(fmt.Sprintf("N%d.kt", i), seeds[7].dsl, opt)
	}
	main := strings.Replace(kotlinWalkProgram, "    // CASES\n", "    "+strings.Join(table, ",\n    ")+"\n", 1)
	writeFile(t, filepath.Join(dir, "Main.kt"), []byte(main))
	runIn(t, dir, kotlinc, append([]string{"-Werror", "-d", "out.jar"}, files...)...)
	checkJSOutput(t, cases, runIn(t, dir, kotlin, "-cp", "out.jar", "MainKt"))
}

// kotlinCase is the constructor call of the Case for c in
// kotlinWalkProgram, whose functions are those of object obj.
func kotlinCase(c goCase, obj string) string {
	longs := func(ds []time.Duration) string {
		parts := make([]string, len(ds))
		for i, d := range ds {
			parts[i] = ktLong(d)
		}
		return "longArrayOf(" + strings.Join(parts, ", ") + ")"
	}
	backOff := strings.ReplaceAll("{ clk -> val b = O.BackOff(clk); object : B { override fun waitMs() = b.waitMs(); "+
		"override fun nextBackOff() = b.nextBackOff(); override fun signal() = b.signal() } }", "O.", obj+".")
	return fmt.Sprintf("Case(%q, %s, %s, %s, %s, %s, { a -> %s.next(a) }, { c, a -> %s.nextFrom(c, a) }, { h -> %s.asks(h) }, { c, h -> %s.asksFrom(c, h) }, { %s.end() }, %s)",
		c.name, ktLong(time.Duration(c.created)), ktLong(c.horizon), longs(c.signals), longs(c.probes), ktLong(c.slow),
		obj, obj, obj, obj, obj, backOff)
}

// kotlinWalkProgram follows jsWalkProgram in Kotlin; the test puts the
// cases in place of the CASES line.
const kotlinWalkProgram = `import poll.*

interface B {
    fun waitMs(): Long
    fun nextBackOff(): Long
    fun signal(): Boolean
}

class Case(
    val name: String, val created: Long, val horizon: Long, val signals: LongArray, val probes: LongArray, val slow: Long,
    val next: (Long) -> Long, val nextFrom: (Long, Long) -> Long, val asks: (Long) -> LongArray,
    val asksFrom: (Long, Long) -> LongArray, val end: () -> Long, val backOff: (() -> Long) -> B
)

val cases = listOf(
    // CASES
)

fun walk(c: Case): LongArray {
    var now = c.created
    val b = c.backOff { now }
    var t = 0L
    var planned = b.waitMs()
    var have = true
    val asks = ArrayList<Long>()
    val sigs = ArrayList<Long>()
    for (s in c.signals) sigs.add(s)
    fun plan() {
        val w = b.nextBackOff()
        have = w >= 0
        planned = t + w
    }
    while (asks.size < 100000) {
        if (sigs.isNotEmpty() && (!have || sigs[0] <= planned)) {
            t = sigs.removeAt(0)
            now = c.created + t
            if (b.signal()) {
                if (asks.isEmpty() || asks[asks.size - 1] != t) asks.add(t)
                plan()
            }
            continue
        }
        if (!have || planned > c.horizon) break
        t = planned
        now = c.created + t
        asks.add(t)
        plan()
    }
    return asks.toLongArray()
}

fun slowWalk(c: Case): LongArray {
    var now = c.created
    val b = c.backOff { now }
    now += b.waitMs()
    val asks = ArrayList<Long>()
    while (asks.size < 100000 && now - c.created <= c.horizon) {
        asks.add(now - c.created)
        now += c.slow
        val w = b.nextBackOff()
        if (w < 0) break
        now += w
    }
    return asks.toLongArray()
}

fun afterEnd(c: Case): LongArray {
    val e = c.end()
    if (e == Long.MAX_VALUE) return LongArray(0)
    var now = c.created
    val b = c.backOff { now }
    now += e + 3600000L
    return longArrayOf(b.nextBackOff(), b.nextBackOff())
}

fun list(xs: LongArray): String = xs.joinToString(",", "[", "]")

fun pair(x: Long): String = if (x < 0 || x == Long.MAX_VALUE) "[0,0]" else "[$x,1]"

fun main() {
    for (c in cases) {
        val next = c.probes.map { pair(c.next(it)) }.joinToString(",", "[", "]")
        val nextFrom = c.probes.map { pair(c.nextFrom(c.created, it)) }.joinToString(",", "[", "]")
        println("{\"Name\":\"${c.name}\",\"Asks\":${list(c.asks(c.horizon))},\"AsksFrom\":${list(c.asksFrom(c.created, c.horizon))}," +
            "\"Walk\":${list(walk(c))},\"SlowWalk\":${list(slowWalk(c))},\"AfterEnd\":${list(afterEnd(c))}," +
            "\"Next\":$next,\"NextFrom\":$nextFrom,\"End\":${pair(c.end())}}")
    }
}
`
