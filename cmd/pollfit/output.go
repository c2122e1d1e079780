package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
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
	f, err := createTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return createError(path, err)
	}
	tmp := f.Name()
	defer removeTemp(tmp) // a no-op once renamed
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := write(stopWriter{f}); err != nil {
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

// createError explains a failure to create the temporary file in terms
// of path, the file asked for, not the temporary file's name.
func createError(path string, err error) error {
	dir := filepath.Dir(path)
	var pe *fs.PathError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("write %s: folder %s does not exist (create it first)", path, dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("write %s: no permission to create files in %s", path, dir)
	case errors.As(err, &pe):
		return fmt.Errorf("write %s: %v", path, pe.Err)
	}
	return fmt.Errorf("write %s: %v", path, err)
}
