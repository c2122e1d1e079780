//go:build !amd64 || purego

package csvscan

// scanMarks reads nothing where there is no assembly: scanWords reads it
// all.
func scanMarks(b []byte, delim byte, pos *[markBlock]uint16) (n, done int) { return 0, 0 }

const scanMarksReads = false
