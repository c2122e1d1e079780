package export

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// tsInstall is where .ci/run installs the typescript package from npm
// when tsc is not on PATH.
const tsInstall = "npm install --prefix ~/.cache/pollfit-ts typescript@5"

// tscTool returns the path of tsc: on PATH, else under
// ~/.cache/pollfit-ts; it skips the test when there is none.
func tscTool(t *testing.T) string {
	t.Helper()
	if tsc, err := exec.LookPath("tsc"); err == nil {
		return tsc
	}
	if home, err := os.UserHomeDir(); err == nil {
		tsc := filepath.Join(home, ".cache", "pollfit-ts", "node_modules", ".bin", "tsc")
		if _, err := os.Stat(tsc); err == nil {
			return tsc
		}
	}
	t.Skipf("tsc is not on PATH nor in ~/.cache/pollfit-ts; skipping the TypeScript check (install the typescript package from npm: %s)", tsInstall)
	return ""
}

// tsUse uses the API of a generated module with its types, so that
// tsc --strict checks what a caller sees.
const tsUse = `import { BackOff, STOP, Schedule, Clause, Aligned, schedule, next, nextFrom, asks, asksFrom, end } from "./s0.js";

const b: BackOff = new BackOff(() => 0);
const waits: number[] = [b.wait(), b.nextBackOff(), next(0), nextFrom(0, 0), end()];
const stop: number = STOP;
const s: Schedule = schedule;
const clauses: readonly Clause[] = s.clauses;
const aligned: readonly Aligned[] = s.aligned;
const lists: number[][] = [asks(1000), asksFrom(0, 1000)];
const signalled: boolean = b.signal();
export const used = [waits, stop, clauses, aligned, lists, signalled];
`

// TestGeneratedTS compiles the TypeScript output of msCases with
// tsc --strict, with a file that uses its API with types, then runs it
// under Node.js as TestGeneratedJS does and checks it against the
// schedule package.
func TestGeneratedTS(t *testing.T) {
	node := nodeTool(t)
	tsc := tscTool(t)
	dir := t.TempDir()
	cases := msCases(t)
	args := []string{"--strict", "--noEmitOnError", "--target", "es2020", "--module", "es2020",
		"--moduleResolution", "node", "--outDir", "out"}
	for i, c := range cases {
		var src bytes.Buffer
		if err := TS(&src, c.s, JSOptions{}); err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("s%d.ts", i)
		writeFile(t, filepath.Join(dir, name), src.Bytes())
		args = append(args, name)
	}
	writeFile(t, filepath.Join(dir, "use.ts"), []byte(tsUse))
	runIn(t, dir, tsc, append(args, "use.ts")...)
	out := filepath.Join(dir, "out")
	writeFile(t, filepath.Join(out, "package.json"), []byte(`{"type": "module"}`+"\n"))
	writeFile(t, filepath.Join(out, "main.mjs"), []byte(jsMain(cases, ".js")))
	checkJSOutput(t, cases, runIn(t, out, node, "main.mjs"))
}
