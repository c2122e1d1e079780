package main

import (
	"runtime/debug"
	"strings"
)

// version is pollfit's module version and, when the build recorded it,
// the VCS revision and whether the tree had changes: "v0.3.0",
// "(devel) 968b500c1a2f", "(devel) 968b500c1a2f+changes". "unknown" for
// a binary built without module information.
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := []string{info.Main.Version}
	if v[0] == "" {
		v[0] = "(devel)"
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" {
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if dirty {
			rev += "+changes"
		}
		v = append(v, rev)
	}
	return strings.Join(v, " ")
}
