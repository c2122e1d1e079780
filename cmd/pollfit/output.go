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
	if err := checkOutput(path, force); err != nil {
		return err
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
	// Sync before the rename, so that a crash never leaves the name
	// pointing at a file whose data did not reach the disk.
	if err := f.Sync(); err != nil {
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

// checkOutput refuses an output path before any work is done: one that
// exists, unless force is set, and, even with force, one that is not a
// regular file (a named pipe, a device, a folder), which the rename
// would replace. "" and "-" are stdout.
func checkOutput(path string, force bool) error {
	if path == "" || path == "-" {
		return nil
	}
	fi, err := os.Stat(path) // a link's target
	if err != nil {
		if _, lerr := os.Lstat(path); lerr == nil && !force {
			return fmt.Errorf("%s exists (use --force to overwrite it)", path)
		}
		return nil
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: pollfit writes only regular files (remove it, or give another name)", path, fileKind(fi.Mode()))
	}
	if !force {
		return fmt.Errorf("%s exists (use --force to overwrite it)", path)
	}
	return nil
}

// fileKind names a file mode's type for people.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "an irregular file"
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
