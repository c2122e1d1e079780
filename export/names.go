package export

import (
	"fmt"
	"go/token"
	"go/types"
	"slices"
	"strings"
	"unicode"

	"github.com/pollfit/pollfit/internal/opterr"
)

// goImports are the packages the generated Go imports, whose names a
// package-level declaration would collide with.
var goImports = []string{"time"}

// checkGoNames checks the names of a Go file about to be generated:
// each must be an identifier that is not a keyword, not predeclared
// (the generated code uses len, nil, true and others, and a package so
// named would shadow them in its importers), not blank, not init, not
// main in package main and not the name of an import; the variable
// must not be one of the generated types.
func checkGoNames(d *goData) error {
	for _, n := range []struct{ what, name string }{{"package", d.Package}, {"variable", d.Var}, {"type", d.Type}} {
		if err := checkGoIdent(n.what, n.name, d.Package); err != nil {
			return err
		}
	}
	for _, t := range []string{d.Type, d.Clause, d.AlignedT, d.BackOff} {
		if d.Var == t {
			return nameError("Var", "variable name %s is taken by a generated type; pick another Var or Type", d.Var)
		}
	}
	return nil
}

func checkGoIdent(what, name, pkg string) error {
	field := map[string]string{"package": "Package", "variable": "Var", "type": "Type"}[what]
	fix := "pick another " + field
	switch {
	case token.IsKeyword(name):
		return nameError(field, "%s name %q is a Go keyword; %s", what, name, fix)
	case !token.IsIdentifier(name):
		return nameError(field, "%s name %q is not a Go identifier; %s", what, name, fix)
	case name == "_":
		return nameError(field, "%s name %q is not allowed: the blank identifier declares nothing; %s", what, name, fix)
	case types.Universe.Lookup(name) != nil:
		return nameError(field, "%s name %q is predeclared in Go and the generated code needs the original; %s", what, name, fix)
	case what == "package":
		return nil
	case name == "init":
		return nameError(field, "%s name %q is reserved for init functions in Go; %s", what, name, fix)
	case name == "main" && pkg == "main":
		return nameError(field, "%s name %q is reserved for the main function in package main; %s", what, name, fix)
	case slices.Contains(goImports, name):
		return nameError(field, "%s name %q collides with the generated code's import of %q; %s", what, name, name, fix)
	}
	return nil
}

// kotlinKeywords are Kotlin's hard keywords, which cannot be
// identifiers anywhere (https://kotlinlang.org/docs/keyword-reference.html).
var kotlinKeywords = []string{
	"as", "break", "class", "continue", "do", "else", "false", "for", "fun", "if", "in",
	"interface", "is", "null", "object", "package", "return", "super", "this", "throw",
	"true", "try", "typealias", "typeof", "val", "var", "when", "while",
}

// kotlinTaken are the names the generated Kotlin refers to without
// qualification (types and functions of kotlin.*, java.lang classes,
// the object's own members), which an object of the same name would
// shadow or clash with.
var kotlinTaken = []string{
	"Long", "LongArray", "Boolean", "Array", "ArrayList", "System", "Math",
	"arrayOf", "longArrayOf", "maxOf",
	"Clause", "Aligned", "BackOff", "STOP",
	"next", "nextFrom", "asks", "asksFrom", "end", "nextAge", "alignedNext", "nextAt",
	"nextUs", "nextFromUs", "asksUs", "asksFromUs", "endUs",
}

// checkKotlinNames checks the package and object names of a Kotlin
// file about to be generated: the package is dot-separated Kotlin
// identifiers, none a hard keyword; the object is an identifier that is
// not a hard keyword, not only underscores and not a name the generated
// code uses.
func checkKotlinNames(pkg, object string) error {
	for _, part := range strings.Split(pkg, ".") {
		if err := checkKotlinIdent("package", part); err != nil {
			return fmt.Errorf("%w (in package %q)", err, pkg)
		}
	}
	if err := checkKotlinIdent("object", object); err != nil {
		return err
	}
	if slices.Contains(kotlinTaken, object) {
		return nameError("Object", "object name %q collides with a name the generated Kotlin uses; pick another Object", object)
	}
	return nil
}

func checkKotlinIdent(what, name string) error {
	field := map[string]string{"package": "Package", "object": "Object"}[what]
	fix := "pick another " + field
	switch {
	case slices.Contains(kotlinKeywords, name):
		return nameError(field, "%s name %q is a Kotlin keyword; %s", what, name, fix)
	case !isKotlinIdent(name):
		return nameError(field, "%s name %q is not a Kotlin identifier; %s", what, name, fix)
	case strings.Trim(name, "_") == "":
		return nameError(field, "%s name %q is reserved in Kotlin (names of only underscores); %s", what, name, fix)
	}
	return nil
}

// isKotlinIdent reports whether name is a plain (not backquoted) Kotlin
// identifier: a letter or underscore, then letters, digits and
// underscores.
func isKotlinIdent(name string) bool {
	for i, r := range name {
		if !(unicode.IsLetter(r) || r == '_' || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return name != ""
}

// nameError is an option error for the name in field of GoOptions or
// KotlinOptions, its text (which names the field) formatted.
func nameError(field, format string, args ...any) error {
	return fmt.Errorf("export: %w", opterr.Optionf(field, nil, format, args...))
}
