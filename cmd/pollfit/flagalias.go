package main

import (
	"fmt"

	"github.com/spf13/pflag"
)

// renamed registers the old spelling of a renamed flag as a hidden
// alias of the same type, so that scripts written for it keep working.
// Call take after parsing.
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

// take calls use, which copies the old spelling's value to the new
// flag's, when the old spelling was given (useOld).
func (r renamed) take(e *env, fs *pflag.FlagSet, use func()) error {
	old, err := r.useOld(e, fs)
	if old {
		use()
	}
	return err
}

// in is r for command cmd, whose name its messages give: for a flag
// that several commands share.
func (r renamed) in(cmd string) renamed {
	r.cmd = cmd
	return r
}

// hide marks the old spelling hidden, with a usage that names the new.
func (r renamed) hide(fs *pflag.FlagSet) {
	f := fs.Lookup(r.old)
	f.Usage = "deprecated: use --" + r.now
	fs.MarkHidden(r.old)
}
