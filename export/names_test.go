package export

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// goNameCases are the rejected names, one or more per class, with the
// error each must give, and accepted names near them.
var goNameCases = []struct {
	opt  GoOptions
	want string // error prefix, "" for accepted
}{
	{GoOptions{}, ""},
	{GoOptions{Package: "payments", Var: "CheckoutPoll", Type: "Plan"}, ""},
	{GoOptions{Package: "main", Var: "Poll"}, ""},
	{GoOptions{Package: "poll", Var: "main"}, ""}, // main is free outside package main
	{GoOptions{Package: "time", Var: "Time", Type: "Times"}, ""},
	{GoOptions{Var: "poll", Type: "clock"}, ""},
	// keywords
	{GoOptions{Package: "func"}, `export: package name "func" is a Go keyword; pick another Package`},
	{GoOptions{Var: "range"}, `export: variable name "range" is a Go keyword; pick another Var`},
	{GoOptions{Type: "type"}, `export: type name "type" is a Go keyword; pick another Type`},
	// not identifiers
	{GoOptions{Type: "9lives"}, `export: type name "9lives" is not a Go identifier`},
	{GoOptions{Var: "x-y"}, `export: variable name "x-y" is not a Go identifier`},
	{GoOptions{Package: "a.b"}, `export: package name "a.b" is not a Go identifier`},
	// the blank identifier
	{GoOptions{Package: "_"}, `export: package name "_" is not allowed`},
	{GoOptions{Var: "_"}, `export: variable name "_" is not allowed`},
	{GoOptions{Type: "_"}, `export: type name "_" is not allowed`},
	// predeclared
	{GoOptions{Var: "nil"}, `export: variable name "nil" is predeclared in Go`},
	{GoOptions{Var: "len"}, `export: variable name "len" is predeclared in Go`},
	{GoOptions{Var: "true"}, `export: variable name "true" is predeclared in Go`},
	{GoOptions{Type: "int64"}, `export: type name "int64" is predeclared in Go`},
	{GoOptions{Package: "len"}, `export: package name "len" is predeclared in Go`},
	// init and main
	{GoOptions{Var: "init"}, `export: variable name "init" is reserved for init functions`},
	{GoOptions{Type: "init"}, `export: type name "init" is reserved for init functions`},
	{GoOptions{Package: "main", Var: "main"}, `export: variable name "main" is reserved for the main function in package main`},
	{GoOptions{Package: "main", Type: "main"}, `export: type name "main" is reserved for the main function in package main`},
	// the generated code's import
	{GoOptions{Var: "time"}, `export: variable name "time" collides with the generated code's import of "time"`},
	{GoOptions{Type: "time"}, `export: type name "time" collides with the generated code's import of "time"`},
	// the generated code's own types
	{GoOptions{Var: "BackOff"}, "export: variable name BackOff is taken by a generated type"},
	{GoOptions{Var: "Schedule"}, "export: variable name Schedule is taken by a generated type"},
	{GoOptions{Var: "PlanClause", Type: "Plan"}, "export: variable name PlanClause is taken by a generated type"},
}

func TestGoNames(t *testing.T) {
	s := mustParse(t, "5s until 1m")
	for _, tc := range goNameCases {
		var b bytes.Buffer
		err := Go(&b, s, tc.opt)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.opt, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%+v: error %v, want %q", tc.opt, err, tc.want)
		}
	}
}

// TestGoNamesCompile vets the Go generated with every accepted name of
// goNameCases, each in a package of its own in one module (with a main
// function where the package is main).
func TestGoNamesCompile(t *testing.T) {
	gotool := goTool(t)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "go.mod"), []byte("module gentest\n\ngo 1.18\n"))
	s := mustParse(t, "at 0s 1s, 2s until 1m, every 1h at +0s, reset on signal")
	n := 0
	for i, tc := range goNameCases {
		if tc.want != "" {
			continue
		}
		var b bytes.Buffer
		if err := Go(&b, s, tc.opt); err != nil {
			t.Fatalf("%+v: %v", tc.opt, err)
		}
		pkgDir := filepath.Join(dir, fmt.Sprintf("p%d", i))
		writeFile(t, filepath.Join(pkgDir, "gen.go"), b.Bytes())
		if tc.opt.Package == "main" {
			writeFile(t, filepath.Join(pkgDir, "main.go"), []byte("package main\n\nfunc main() { _ = Poll.BackOff() }\n"))
		}
		n++
	}
	if n < 5 {
		t.Fatalf("only %d accepted cases", n)
	}
	runGo(t, gotool, dir, "vet", "./...")
	runGo(t, gotool, dir, "build", "./...")
}

func TestKotlinNames(t *testing.T) {
	for _, tc := range []struct {
		pkg, object string
		want        string // error prefix, "" for accepted
	}{
		{"poll", "Poll", ""},
		{"com.example.payments", "CheckoutPoll", ""},
		{"poll", "data", ""}, // soft and modifier keywords are identifiers
		{"by.open", "inner", ""},
		{"poll", "object", `export: object name "object" is a Kotlin keyword; pick another Object`},
		{"poll", "fun", `export: object name "fun" is a Kotlin keyword`},
		{"com.when", "Poll", `export: package name "when" is a Kotlin keyword; pick another Package (in package "com.when")`},
		{"poll", "9lives", `export: object name "9lives" is not a Kotlin identifier`},
		{"poll", "a-b", `export: object name "a-b" is not a Kotlin identifier`},
		{"com..x", "Poll", `export: package name "" is not a Kotlin identifier`},
		{"poll", "_", `export: object name "_" is reserved in Kotlin`},
		{"poll", "__", `export: object name "__" is reserved in Kotlin`},
		{"poll", "Long", `export: object name "Long" collides with a name the generated Kotlin uses`},
		{"poll", "LongArray", `export: object name "LongArray" collides`},
		{"poll", "BackOff", `export: object name "BackOff" collides`},
	} {
		err := checkKotlinNames(tc.pkg, tc.object)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s %s: %v", tc.pkg, tc.object, err)
		case tc.want != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.want)):
			t.Errorf("%s %s: error %v, want %q", tc.pkg, tc.object, err, tc.want)
		}
	}
}
