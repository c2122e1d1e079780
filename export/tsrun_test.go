package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/internal/testenv"
)

// tsInstall is where .ci/run installs the typescript and
// @tsconfig/strictest packages from npm when tsc is not on PATH: the
// last 5.x, and 7.x (the native compiler, npm's latest since 2026) beside
// it, so the output is checked by both.
const tsInstall = "npm install --prefix ~/.cache/pollfit-ts typescript@5 @tsconfig/strictest; npm install --prefix ~/.cache/pollfit-ts7 typescript@7 @tsconfig/strictest"

// tsCaches are the folders under ~/.cache that tsInstall fills.
var tsCaches = []string{"pollfit-ts", "pollfit-ts7"}

// strictestFlags are the options of @tsconfig/strictest 2.0.0 that check
// code, for tsc runs without a tsconfig.json (the .mjs files).
var strictestFlags = []string{"--strict", "--exactOptionalPropertyTypes", "--noUncheckedIndexedAccess",
	"--noImplicitOverride", "--noImplicitReturns", "--noPropertyAccessFromIndexSignature", "--noUnusedLocals",
	"--noUnusedParameters", "--noFallthroughCasesInSwitch", "--allowUnusedLabels", "false",
	"--allowUnreachableCode", "false", "--isolatedModules"}

// strictestConfig returns the tsconfig.json of @tsconfig/strictest beside
// tsc's node_modules or in ~/.cache/pollfit-ts, or skips the test.
func strictestConfig(t *testing.T, tsc string) string {
	t.Helper()
	dirs := []string{filepath.Join(filepath.Dir(tsc), "..")}
	if real, err := filepath.EvalSymlinks(tsc); err == nil {
		dirs = append(dirs, filepath.Join(filepath.Dir(real), "..", ".."))
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, c := range tsCaches {
			dirs = append(dirs, filepath.Join(home, ".cache", c, "node_modules"))
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, "@tsconfig", "strictest", "tsconfig.json")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	t.Skipf("@tsconfig/strictest is not installed beside tsc nor in ~/.cache/pollfit-ts; skipping the strictest check (install it from npm: %s)", tsInstall)
	return ""
}

// forEachTsc runs check once for each TypeScript compiler installed (tsc
// on PATH, and those of tsCaches), as a subtest named by its version
// ("tsc-5.9.3"); it skips the test when there is none. By default only
// the first compiler found runs (a tsc run takes seconds); the long
// tests (internal/testenv) run every one.
func forEachTsc(t *testing.T, check func(t *testing.T, tsc string)) {
	t.Helper()
	var tools []string
	if tsc, err := exec.LookPath("tsc"); err == nil {
		tools = append(tools, tsc)
	}
	if home, err := os.UserHomeDir(); err == nil {
		for _, c := range tsCaches {
			tsc := filepath.Join(home, ".cache", c, "node_modules", ".bin", "tsc")
			if _, err := os.Stat(tsc); err == nil {
				tools = append(tools, tsc)
			}
		}
	}
	if len(tools) == 0 {
		t.Skipf("tsc is not on PATH nor in ~/.cache/pollfit-ts; skipping the TypeScript check (install the typescript package from npm: %s)", tsInstall)
	}
	seen := map[string]bool{}
	for _, tsc := range tools {
		out, err := exec.Command(tsc, "--version").Output()
		v := strings.TrimPrefix(strings.TrimSpace(string(out)), "Version ")
		if err != nil || seen[v] {
			continue
		}
		seen[v] = true
		t.Run("tsc-"+v, func(t *testing.T) { check(t, tsc) })
		if !testenv.Long() {
			break
		}
	}
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
	forEachTsc(t, func(t *testing.T, tsc string) { checkGeneratedTS(t, node, tsc) })
}

func checkGeneratedTS(t *testing.T, node, tsc string) {
	dir := t.TempDir()
	cases := exactCases(t)
	args := []string{"--strict", "--noEmitOnError", "--target", "es2020", "--module", "es2020",
		"--moduleResolution", "bundler", "--outDir", "out"}
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
	var clock bytes.Buffer
	if err := TS(&clock, mustParse(t, clockSchedule), JSOptions{}); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "clock.ts"), clock.Bytes())
	runIn(t, dir, tsc, append(args, "use.ts", "clock.ts")...)
	out := filepath.Join(dir, "out")
	writeFile(t, filepath.Join(out, "package.json"), []byte(`{"type": "module"}`+"\n"))
	writeFile(t, filepath.Join(out, "main.mjs"), []byte(jsMain(cases, ".js")))
	checkJSOutput(t, cases, runIn(t, out, node, "main.mjs"))
	writeFile(t, filepath.Join(out, "clock.mjs"), []byte(jsClockProgram))
	checkClock(t, runIn(t, out, node, "clock.mjs"))
}

// TestGeneratedTSStrictest compiles the TypeScript of exactCases, of a
// schedule per segment and the files that use their types under a
// tsconfig.json that extends @tsconfig/strictest (noUncheckedIndexedAccess,
// exactOptionalPropertyTypes, ...), with only the es2020 library: no DOM
// and no @types/node.
func TestGeneratedTSStrictest(t *testing.T) {
	forEachTsc(t, checkGeneratedTSStrictest)
}

func checkGeneratedTSStrictest(t *testing.T, tsc string) {
	strictest := strictestConfig(t, tsc)
	dir := t.TempDir()
	var files []string
	add := func(name string, src []byte) {
		writeFile(t, filepath.Join(dir, name), src)
		files = append(files, name)
	}
	for i, c := range exactCases(t) {
		var src bytes.Buffer
		if err := TS(&src, c.s, JSOptions{}); err != nil {
			t.Fatal(err)
		}
		add(fmt.Sprintf("s%d.ts", i), src.Bytes())
	}
	s, _ := jsSegmentCase(t)
	var src bytes.Buffer
	if err := WriteGroups(&src, "ts", s, nil, GoOptions{}); err != nil {
		t.Fatal(err)
	}
	add("poll.ts", src.Bytes())
	add("use.ts", []byte(tsUse))
	add("usesegments.ts", []byte(tsSegmentsUse))
	config, _ := json.Marshal(map[string]any{
		"extends": strictest,
		"compilerOptions": map[string]any{"noEmit": true, "target": "es2020", "lib": []string{"es2020"},
			"module": "es2020", "moduleResolution": "bundler"},
		"files": files,
	})
	writeFile(t, filepath.Join(dir, "tsconfig.json"), config)
	runIn(t, dir, tsc, "-p", "tsconfig.json")
}
