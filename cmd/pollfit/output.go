package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// writeOutput writes a file all at once: into a temporary file beside
// path, renamed over it only when write succeeded, so an output is never
// half-written. An existing file is left alone unless force is set.
// A path of "" or "-" writes to stdout.
func writeOutput(path string, force bool, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s exists (use --force to overwrite it)", path)
		}
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // a no-op once renamed
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !force {
		// Link fails if path appeared meanwhile, where Rename would
		// replace it.
		if err := os.Link(tmp, path); err != nil {
			if os.IsExist(err) {
				return fmt.Errorf("%s exists (use --force to overwrite it)", path)
			}
			return os.Rename(tmp, path)
		}
		return nil
	}
	return os.Rename(tmp, path)
}
