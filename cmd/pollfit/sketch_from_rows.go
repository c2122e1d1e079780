package main

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/pollfit/pollfit/estimate"
)

// readResult reads the sketch query's result as a sketch: an empty one
// of the split asked for when there are no rows, and the server's error
// as it gave it, never a complaint about the rows written before it.
func readResult(rr *pgconn.ResultReader, name string, holdout float64, seed uint64) (*estimate.Sketch, error) {
	if !rr.NextRow() {
		if _, err := rr.Close(); err != nil {
			return nil, err
		}
		s, err := estimate.NewSketch(holdout, seed)
		if err == nil {
			s.Sample = 0 // as any SQL sketch
		}
		return s, err
	}
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := copyRows(rr, pw)
		pw.CloseWithError(err)
		done <- err
	}()
	s, err := estimate.ReadSketch(pr, name)
	pr.CloseWithError(io.ErrClosedPipe) // stops copyRows if the reader quit early
	copyErr := <-done
	var pe *pgconn.PgError
	if copyErr != nil && (err == nil || errors.As(copyErr, &pe) || !errors.Is(copyErr, io.ErrClosedPipe)) {
		return nil, copyErr // the server's own error comes first
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// copyRows writes the result's header and rows (the first read already)
// to w as CSV, a whole row at a time, and then closes the result: its
// error is the server's.
func copyRows(rr *pgconn.ResultReader, w io.Writer) error {
	cw := csv.NewWriter(w)
	var rec []string
	for _, f := range rr.FieldDescriptions() {
		rec = append(rec, f.Name)
	}
	err := writeRecord(cw, rec)
	for ok := true; ok && err == nil; ok = rr.NextRow() {
		rec = rec[:0]
		for _, v := range rr.Values() {
			rec = append(rec, string(v))
		}
		err = writeRecord(cw, rec)
	}
	if _, cerr := rr.Close(); cerr != nil {
		return cerr
	}
	return err
}

// writeRecord writes one CSV record and flushes it, so that the reader
// never sees half a row.
func writeRecord(cw *csv.Writer, rec []string) error {
	if err := cw.Write(rec); err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write: %w", err)
	}
	return nil
}
