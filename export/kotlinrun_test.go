package export

import (
	"bytes"
	"fmt"
	"github.com/pollfit/pollfit/internal/testenv"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// kotlinTools returns the paths of kotlinc and kotlin, or skips the
// test.
func kotlinTools(t *testing.T) (kotlinc, kotlin string) {
	t.Helper()
	testenv.SkipUnlessLong(t) // kotlinc takes a minute or two a run
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
	cases := exactCases(t)
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
		u, err := exactUnit("Kotlin", schedule.Canonical(c.s))
		if err != nil {
			t.Fatal(err)
		}
		table = append(table, kotlinCase(c, fmt.Sprintf("S%d", i), kotlinUnitOf(u)))
	}
	for i, opt := range kotlinNamed {
		write(fmt.Sprintf("N%d.kt", i), seeds[7].dsl, opt)
	}
	write("Clock.kt", "1s until 1m", KotlinOptions{Object: "ClockPoll"})
	main := strings.Replace(kotlinWalkProgram, "    // CASES\n", "    "+strings.Join(table, ",\n    ")+"\n", 1)
	writeFile(t, filepath.Join(dir, "Main.kt"), []byte(main))
	runIn(t, dir, kotlinc, append([]string{"-Werror", "-d", "out.jar"}, files...)...)
	out := runIn(t, dir, kotlin, "-cp", "out.jar", "MainKt")
	last := bytes.LastIndexByte(bytes.TrimSuffix(out, []byte("\n")), '\n')
	checkKotlinClock(t, string(bytes.TrimSpace(out[last+1:])))
	checkJSOutput(t, cases, out[:last+1])
}

// checkKotlinClock checks the clock line of kotlinWalkProgram: for "1s
// until 1m", 400 ms after reset on an injected monotonic clock the wait
// is 600 ms whatever the wall clock did; on the default clock
// (System.nanoTime) a one-hour backward step of the wall clock leaves
// the first wait at most 1 s (the wall clock waited 3,601,000 ms); and
// BackOff { clock } waits on clock (600 ms again), as it did when it had
// one clock.
func checkKotlinClock(t *testing.T, line string) {
	t.Helper()
	var injected, wait, def, single int64
	if _, err := fmt.Sscanf(line, "clock %d %d %d %d", &injected, &wait, &def, &single); err != nil {
		t.Fatalf("clock line %q: %v", line, err)
	}
	if injected != 600 || wait != 600 || def < 900 || def > 1000 || single != 600 {
		t.Errorf("after a backward wall-clock step: nextBackOff %d, waitMs %d (want 600, 600), on the default clock %d (want 900 to 1000), with BackOff { clock } %d (want 600)", injected, wait, def, single)
	}
}

// kotlinCase is the constructor call of the Case for c in
// kotlinWalkProgram, whose functions are those of object obj, counting
// in u.
func kotlinCase(c goCase, obj string, u kotlinUnit) string {
	backOff := fmt.Sprintf("{ clk -> val b = %s.BackOff(clk, clk); object : B { override fun waitMs() = b.wait%s(); "+
		"override fun nextBackOff() = b.nextBackOff%s(); override fun signal() = b.signal() } }", obj, u.Unit, u.U)
	f := func(name string) string { return obj + "." + name + u.U }
	return fmt.Sprintf("Case(%q, %d, %s, %s, %s, %s, %s, { a -> %s(a) }, { c, a -> %s(c, a) }, { h -> %s(h) }, { c, h -> %s(c, h) }, { %s() }, %s)",
		c.name, int64(time.Millisecond/u.unit),
		ktLong(time.Duration(c.created), u.unit), ktLong(c.horizon, u.unit), ktLongs(c.signals, u.unit), ktLongs(c.probes, u.unit), ktLong(c.slow, u.unit),
		f("next"), f("nextFrom"), f("asks"), f("asksFrom"), f("end"), backOff)
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
    val name: String, val scale: Long, val created: Long, val horizon: Long, val signals: LongArray, val probes: LongArray, val slow: Long,
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
    now += e + 3600000L * c.scale
    return longArrayOf(b.nextBackOff(), b.nextBackOff())
}

// dec is x, in units of 1/scale ms, in milliseconds as a decimal.
fun dec(x: Long, scale: Long): String {
    if (x < 0 || scale == 1L) return "$x"
    val r = x % scale
    return if (r == 0L) "${x / scale}" else "${x / scale}." + "$r".padStart(3, '0').trimEnd('0')
}

fun list(xs: LongArray, scale: Long): String = xs.joinToString(",", "[", "]") { dec(it, scale) }

fun pair(x: Long, scale: Long): String = if (x < 0 || x == Long.MAX_VALUE) "[0,0]" else "[${dec(x, scale)},1]"

// clock is the clock line: "1s until 1m" 400 ms after reset on an
// injected monotonic clock, after a backward step of the wall clock
// (nextBackOff, then waitMs), on the default clock after the step, and
// on a clock given as the one trailing lambda, which is the monotonic.
fun clock(): String {
    var mono = 5000L
    var wall = 1700000000000L
    val b = ClockPoll.BackOff({ wall }) { mono }
    val single = ClockPoll.BackOff { mono }
    mono += 400L
    wall -= 3600000L
    val injected = b.nextBackOff()
    val w = b.waitMs()
    val d = ClockPoll.BackOff(wall = { wall })
    wall -= 3600000L
    return "clock $injected $w ${d.nextBackOff()} ${single.nextBackOff()}"
}

fun main() {
    for (c in cases) {
        val s = c.scale
        val next = c.probes.map { pair(c.next(it), s) }.joinToString(",", "[", "]")
        val nextFrom = c.probes.map { pair(c.nextFrom(c.created, it), s) }.joinToString(",", "[", "]")
        println("{\"Name\":\"${c.name}\",\"Asks\":${list(c.asks(c.horizon), s)},\"AsksFrom\":${list(c.asksFrom(c.created, c.horizon), s)}," +
            "\"Walk\":${list(walk(c), s)},\"SlowWalk\":${list(slowWalk(c), s)},\"AfterEnd\":${list(afterEnd(c), s)}," +
            "\"Next\":$next,\"NextFrom\":$nextFrom,\"End\":${pair(c.end(), s)}}")
    }
    println(clock())
}
`
