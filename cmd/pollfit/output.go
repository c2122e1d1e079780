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
// path, given path's name only when write succeeded, so an output is
// never half-written. On Linux the temporary file has no name (see
// openAnonymous), so not even SIGKILL leaves it behind; elsewhere it is
// a hidden file beside path, removed on every exit path but SIGKILL. An
// existing file is left alone unless force is set. A path of "" or "-"
// writes to stdout.
func writeOutput(path string, force bool, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	if err := checkOutput(path, force); err != nil {
		return err
	}
	f, anon := openAnonymous(filepath.Dir(path))
	if !anon {
		var err error
		if f, err = createTemp(filepath.Dir(path), tempPattern(path)); err != nil {
			return createError(path, err)
		}
		defer removeTemp(f.Name()) // a no-op once renamed
	}
	if err := fill(f, write); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if anon {
		err := placeAnonymous(f, path, force)
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("write %s: %w", path, cerr)
		}
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return placeNamed(f.Name(), path, force)
}

// tempPattern names path's temporary file: hidden, beside it.
func tempPattern(path string) string { return "." + filepath.Base(path) + ".tmp*" }

// fill writes the output into f and syncs it, so that a crash never
// leaves the name pointing at a file whose data did not reach the disk.
func fill(f *os.File, write func(io.Writer) error) error {
	if err := f.Chmod(0o644); err != nil {
		return err
	}
	if err := write(stopWriter{f}); err != nil {
		return err
	}
	return f.Sync()
}

// placeNamed gives the temporary file tmp the name path.
func placeNamed(tmp, path string, force bool) error {
	if force {
		return os.Rename(tmp, path)
	}
	// Link fails if path appeared meanwhile, where Rename would replace
	// it.
	if err := os.Link(tmp, path); err != nil {
		if os.IsExist(err) {
			return existsError(path)
		}
		return os.Rename(tmp, path)
	}
	return nil
}

// placeAnonymous gives the unnamed file f the name path: by a link that
// fails if path exists, or with force by a link to a temporary name
// renamed over path (the name lives only between the two calls).
func placeAnonymous(f *os.File, path string, force bool) error {
	if !force {
		if err := linkAnonymous(f, path); errors.Is(err, fs.ErrExist) {
			return existsError(path)
		} else if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
	for {
		t, err := createTemp(filepath.Dir(path), tempPattern(path))
		if err != nil {
			return createError(path, err)
		}
		tmp := t.Name()
		t.Close()
		os.Remove(tmp) // a fresh name the link takes
		err = linkAnonymous(f, tmp)
		if errors.Is(err, fs.ErrExist) {
			removeTemp(tmp)
			continue // taken meanwhile: another name
		}
		if err == nil {
			err = os.Rename(tmp, path)
		}
		removeTemp(tmp)
		if err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
		return nil
	}
}

// existsError refuses to replace path.
func existsError(path string) error {
	return fmt.Errorf("%s exists (use --force to overwrite it)", path)
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
			return existsError(path)
		}
		return nil
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file: pollfit writes only regular files (remove it, or give another name)", path, fileKind(fi.Mode()))
	}
	if !force {
		return existsError(path)
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
