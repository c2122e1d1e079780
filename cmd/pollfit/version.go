package main

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime/debug"
	"strings"
)

// readBuildInfo is debug.ReadBuildInfo; the tests pin it so that output
// carrying the version does not depend on the build.
var readBuildInfo = debug.ReadBuildInfo

// version is pollfit's module version and, when the build recorded it,
// the VCS revision and whether the tree had changes: "v0.3.0",
// "(devel) 968b500c1a2f", "(devel) 968b500c1a2f+changes". "unknown" for
// a binary built without module information. --version prints it, and
// so do every --json document (pollfit_version) and the report's footer.
func version() string {
	info, ok := readBuildInfo()
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

// writeJSON writes v as indented JSON; an object gets "pollfit_version"
// as its first key, so that a saved document says which pollfit wrote it.
func writeJSON(w io.Writer, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(body) > 1 && body[0] == '{' {
		ver, _ := json.Marshal(version())
		head := append([]byte(`{"pollfit_version":`), ver...)
		if body[1] != '}' {
			head = append(head, ',')
		}
		body = append(head, body[1:]...)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, body, "", "  "); err != nil {
		return err
	}
	out.WriteByte('\n')
	_, err = w.Write(out.Bytes())
	return err
}
