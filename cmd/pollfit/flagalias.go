package main

import (
	"fmt"

	"github.com/spf13/pflag"
)

// renamed registers the old spelling of a renamed flag as a hidden
// alias of the same type, so that scripts written for it keep working.
// Call useOld after parsing.
type renamed struct {
	cmd, old, now string
}

// useOld reports whether the old spelling was given, warning that it is
// deprecated; giving both spellings is an error.
func (r renamed) useOld(e *env, fs *pflag.FlagSet) (bool, error) {
	if !fs.Changed(r.old) {
		return false, nil
	}
	if fs.Changed(r.now) {
		return false, usagef("%s: give --%s only: --%s is its old spelling", r.cmd, r.now, r.old)
	}
	fmt.Fprintf(e.stderr, "pollfit: warning: %s: --%s is deprecated: use --%s\n", r.cmd, r.old, r.now)
	return true, nil
}

// hide marks the old spelling hidden, with a usage that names the new.
func (r renamed) hide(fs *pflag.FlagSet) {
	f := fs.Lookup(r.old)
	f.Usage = "deprecated: use --" + r.now
	fs.MarkHidden(r.old)
}
