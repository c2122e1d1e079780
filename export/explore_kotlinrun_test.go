package export

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// exploreKotlinProgram is exploreJSProgram in Kotlin, on a fake clock in
// milliseconds; asks are printed in ms.
const exploreKotlinProgram = `import poll.Poll

fun main() {
    val items = listOf(
// ITEMS
    )
    check(Poll.exploreFraction == 0.5 && Poll.exploreSeed == 7L)
    for (it in items) {
        var now = 0L
        val b = Poll.BackOff(it.key, { it.created }) { now }
        val asks = ArrayList<Long>()
        var status = "pending"
        now += b.waitMs()
        while (true) {
            asks.add(now)
            if (it.settle >= 0 && now >= it.settle) {
                status = "settled"
                break
            }
            if (b.nextBackOff() == Poll.STOP) break
            now += b.waitMs()
        }
        val p = b.lastPending()
        val a = b.answered()
        println("{\"asks\": [" + asks.joinToString(", ") + "], \"row\": \"" + b.logRow(status) + "\", \"lastPending\": " +
            (p?.toString() ?: "null") + ", \"answered\": " + (a?.toString() ?: "null") + "}")
    }
}

class Item(val key: String, val created: Long, val settle: Long)
`

// TestGeneratedKotlinExplore compiles an exploring Kotlin poller with
// warnings as errors, runs it over items whose settle ages it knows and
// checks it as TestGeneratedJSExplore does.
func TestGeneratedKotlinExplore(t *testing.T) {
	kotlinc, kotlin := kotlinTools(t)
	items := exploreItems(40)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := Kotlin(&src, mustParse(t, exploreSchedule), KotlinOptions{Explore: Explore{Fraction: 0.5, Seed: 7}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "Poll.kt"), src.Bytes())
	var table []string
	for _, it := range items {
		table = append(table, fmt.Sprintf("        Item(%q, %dL, %dL)", it.key, it.created, it.settle))
	}
	writeFile(t, filepath.Join(dir, "Main.kt"), []byte(strings.Replace(exploreKotlinProgram, "// ITEMS\n", strings.Join(table, ",\n")+"\n", 1)))
	runIn(t, dir, kotlinc, "-Werror", "-d", "out.jar", "Main.kt", "Poll.kt")
	checkExploreRun(t, "Kotlin", items, runIn(t, dir, kotlin, "-cp", "out.jar", "MainKt"), time.Millisecond)
}
