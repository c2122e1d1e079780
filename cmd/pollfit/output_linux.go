package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// openAnonymous opens an unnamed file in dir (Linux's O_TMPFILE): it has
// no name until linkAnonymous gives it one, so a process killed by
// SIGKILL midway leaves nothing behind. ok is false where the kernel or
// the file system cannot (the caller then uses a named temporary file).
func openAnonymous(dir string) (f *os.File, ok bool) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		return nil, false // linkAnonymous names the file through /proc
	}
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed output)")), true
}

// linkAnonymous gives the unnamed file f the name path; it fails with
// fs.ErrExist when path exists, so an existing file is never replaced.
func linkAnonymous(f *os.File, path string) error {
	proc := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	err := unix.Linkat(unix.AT_FDCWD, proc, unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW)
	if errors.Is(err, unix.EEXIST) {
		return os.ErrExist
	}
	if err != nil {
		return fmt.Errorf("link %s: %w", path, err)
	}
	return nil
}
