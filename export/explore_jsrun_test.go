package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// exploreJSProgram polls each item of ITEMS with BackOff.forItem on a
// fake clock in whole microseconds against a fake upstream that answers
// once the item's settle age has passed, and prints its asks' ages (µs),
// its logRow and what lastPending() and answered() return (ms).
const exploreJSProgram = `import { BackOff, STOP, explore } from "./poll.mjs";

const items = [
// ITEMS
];
if (explore.fraction !== 0.5 || explore.seed !== 7) throw new Error("explore " + JSON.stringify(explore));
for (const [key, created, settle] of items) {
  let nowUs = 0;
  const b = BackOff.forItem(key, () => nowUs / 1000, () => created);
  const asks = [];
  let status = "pending";
  for (nowUs += Math.round(b.wait() * 1000); ; nowUs += Math.round(b.wait() * 1000)) {
    asks.push(nowUs);
    if (settle >= 0 && nowUs >= settle * 1000) {
      status = "settled";
      break;
    }
    if (b.nextBackOff() === STOP) break;
  }
  console.log(JSON.stringify({ asks, row: b.logRow(status), lastPending: b.lastPending(), answered: b.answered() }));
}
`

// exploreJSItems is the ITEMS table of exploreJSProgram.
func exploreJSItems(items []exploreItem) string {
	var b strings.Builder
	for _, it := range items {
		k, _ := json.Marshal(it.key)
		fmt.Fprintf(&b, "  [%s, %d, %d],\n", k, it.created, it.settle)
	}
	return b.String()
}

// checkExploreRun checks the output of exploreJSProgram (or its Kotlin
// twin) in lang, whose asks are in unit and methods' ages in
// milliseconds.
func checkExploreRun(t *testing.T, lang string, items []exploreItem, out []byte, unit time.Duration) {
	t.Helper()
	s := mustParse(t, exploreSchedule)
	e := Explore{Fraction: 0.5, Seed: 7}
	var asks [][]int64
	var methods [][2]*float64
	log := ExploreLogHeader + "\n"
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r struct {
			Asks                  []int64
			Row                   string
			LastPending, Answered *float64
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%s: %v: %s", lang, err, line)
		}
		for _, p := range []*float64{r.LastPending, r.Answered} {
			if p != nil {
				*p /= 1e3
			}
		}
		asks, methods, log = append(asks, r.Asks), append(methods, [2]*float64{r.LastPending, r.Answered}), log+r.Row+"\n"
	}
	if len(asks) != len(items) {
		t.Fatalf("%s: %d items printed, want %d", lang, len(asks), len(items))
	}
	checkExploreWalk(t, lang, s, e, items, asks, unit)
	checkExploreLog(t, lang, s, e, items, log, methods, unit)
}

// TestGeneratedJSExplore runs an exploring JavaScript poller over items
// whose settle ages it knows and checks its asks, lastPending(),
// answered() and logRow() as TestGeneratedGoExplore does, and its JSDoc
// types under tsc --checkJs with @tsconfig/strictest's options.
func TestGeneratedJSExplore(t *testing.T) {
	node := nodeTool(t)
	items := exploreItems(40)
	dir := t.TempDir()
	var src bytes.Buffer
	if err := JS(&src, mustParse(t, exploreSchedule), JSOptions{Explore: Explore{Fraction: 0.5, Seed: 7}}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "poll.mjs"), src.Bytes())
	writeFile(t, filepath.Join(dir, "main.mjs"), []byte(strings.Replace(exploreJSProgram, "// ITEMS\n", exploreJSItems(items), 1)))
	checkExploreRun(t, "JS", items, runIn(t, dir, node, "main.mjs"), time.Microsecond)
	forEachTsc(t, func(t *testing.T, tsc string) {
		args := append([]string{"--allowJs", "--checkJs", "--noEmit", "--target", "es2020", "--module", "es2020",
			"--moduleResolution", "bundler"}, strictestFlags...)
		runIn(t, dir, tsc, append(args, "poll.mjs")...)
	})
}

// TestGeneratedTSExplore compiles an exploring TypeScript poller under
// @tsconfig/strictest with only the es2020 library, runs it and checks
// it as TestGeneratedJSExplore does.
func TestGeneratedTSExplore(t *testing.T) {
	node := nodeTool(t)
	items := exploreItems(40)
	forEachTsc(t, func(t *testing.T, tsc string) {
		strictest := strictestConfig(t, tsc)
		dir := t.TempDir()
		var src bytes.Buffer
		if err := TS(&src, mustParse(t, exploreSchedule), JSOptions{Explore: Explore{Fraction: 0.5, Seed: 7}}); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, "poll.ts"), src.Bytes())
		config, _ := json.Marshal(map[string]any{
			"extends": strictest,
			"compilerOptions": map[string]any{"target": "es2020", "lib": []string{"es2020"},
				"module": "es2020", "moduleResolution": "bundler", "outDir": "out"},
			"files": []string{"poll.ts"},
		})
		writeFile(t, filepath.Join(dir, "tsconfig.json"), config)
		runIn(t, dir, tsc, "-p", "tsconfig.json")
		out := filepath.Join(dir, "out")
		writeFile(t, filepath.Join(out, "package.json"), []byte(`{"type": "module"}`+"\n"))
		writeFile(t, filepath.Join(out, "poll.mjs"), mustRead(t, filepath.Join(out, "poll.js")))
		writeFile(t, filepath.Join(out, "main.mjs"), []byte(strings.Replace(exploreJSProgram, "// ITEMS\n", exploreJSItems(items), 1)))
		checkExploreRun(t, "TS", items, runIn(t, out, node, "main.mjs"), time.Microsecond)
	})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
