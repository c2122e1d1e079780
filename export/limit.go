package export

import (
	"fmt"
	"io"
	"os"

	"github.com/pollfit/pollfit/fit/schedule"
)

// MaxDocument is the most bytes ReadJSON and ParseSpec read, 2 MiB: a
// JSON document of the longest schedule text (schedule.MaxText) with its
// clauses, asks and meta takes about five times the text. The input is
// read through a limited reader, so an endless one (/dev/zero) is
// refused after MaxDocument bytes, with the memory that takes.
const MaxDocument = 2 << 20

// maxList is the most elements a list in a document may hold: every
// clause, ask or offset takes at least two bytes of schedule text, so a
// longer list could not be written back in the language.
const maxList = schedule.MaxText / 2

// readLimited reads r whole, refusing more than MaxDocument bytes.
func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxDocument+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDocument {
		return nil, fmt.Errorf("longer than the %d bytes (%d MiB) pollfit reads for a schedule", MaxDocument, MaxDocument>>20)
	}
	return data, nil
}

// ReadSpecFile reads a schedule or strategy file given as @FILE: at most
// MaxDocument bytes. Errors name the file.
func ReadSpecFile(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := readLimited(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	return data, nil
}

// checkText refuses a document whose schedule, written in the language,
// would be longer than schedule.MaxText: the language could not read it
// back.
func checkText(path string, s *schedule.Schedule) error {
	n := len(schedule.Format(s))
	if n <= schedule.MaxText {
		return nil
	}
	asks := 0
	for _, c := range s.Clauses {
		asks += len(c.At)
	}
	return fieldErr(path, "%d clauses, %d aligned and %d explicit asks take %d bytes as schedule text, more than the %d pollfit reads: write a shorter schedule", len(s.Clauses), len(s.Aligned), asks, n, schedule.MaxText)
}
