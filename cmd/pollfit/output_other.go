//go:build !linux

package main

import (
	"errors"
	"os"
)

// openAnonymous reports that unnamed files are not available here: the
// output goes through a named temporary file.
func openAnonymous(dir string) (*os.File, bool) { return nil, false }

func linkAnonymous(f *os.File, path string) error {
	return errors.New("unnamed files are Linux-only")
}
