package main

import (
	"cmp"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"net/url"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/pollfit/pollfit/estimate"
)

// isServerURL reports whether s names a database server sketch --from
// can query.
func isServerURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// redact is a server URL without its password, to name it in messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "the --from URL"
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// sketchFromServer is sketch --from: the flags of the reader that the
// query takes, checked, and the query run on the server.
func (r *readFlags) sketchFromServer(e *env, dsn, table string, noStatus bool, by string, holdout float64, seed uint64, args []string) (*estimate.Sketch, error) {
	switch {
	case !isServerURL(dsn):
		return nil, usagef("sketch --from %q: want a postgres:// or postgresql:// URL", redact(dsn))
	case len(args) > 0:
		return nil, usagef("sketch --from: unexpected argument %q: the rows come from the server", args[0])
	case table == "":
		return nil, usagef("sketch --from: give --table")
	case r.duration != "" || r.signal != "" || r.histogram || r.timeFormat != "":
		return nil, usagef("sketch --from: the query reads timestamps and a status: --duration-col, --signal-col, --histogram and --time-format are for logs")
	}
	o := estimate.SQLOptions{Table: table, CreatedCol: cmp.Or(r.created, "created_at"), SettledCol: cmp.Or(r.settled, "settled_at"),
		StatusCol: cmp.Or(r.status, "status"), NoStatus: noStatus, FinalStatus: r.final, PendingStatus: r.pending,
		Holdout: holdout, Seed: seed, By: by}
	if r.observedAt != "" {
		t, err := parseObservedAt(r.observedAt, time.UTC)
		if err != nil {
			return nil, err
		}
		o.ObservedAt = t
	}
	return sketchFrom(e.context(), dsn, o)
}

// sketchFrom runs the PostgreSQL sketch query of o on the server at
// dsn and reads the result as a sketch. The rows stream through the
// reader of an exported CSV (estimate.ReadSketch), in PostgreSQL's text
// form, as psql --csv would write them: one parser for both routes, and
// nothing held but the sketch.
func sketchFrom(ctx context.Context, dsn string, o estimate.SQLOptions) (*estimate.Sketch, error) {
	name := redact(dsn)
	o.Dialect = "postgres"
	q, err := estimate.SketchSQL(o)
	if err != nil {
		return nil, usagef("sketch --from: %v", err)
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return nil, fmt.Errorf("sketch --from %s: %v", name, err)
	}
	defer conn.Close(context.WithoutCancel(ctx))
	rows, err := conn.Query(ctx, q, pgx.QueryExecModeSimpleProtocol)
	if err != nil {
		return nil, fmt.Errorf("sketch --from %s: %v", name, err)
	}
	defer rows.Close()
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(copyRows(rows, pw)) }()
	s, err := estimate.ReadSketch(pr, name)
	pr.CloseWithError(io.ErrClosedPipe) // stops copyRows if the reader quit early
	if err != nil {
		return nil, fmt.Errorf("sketch --from %v", err)
	}
	return s, nil
}

// copyRows writes the result's header and rows to w as CSV.
func copyRows(rows pgx.Rows, w io.Writer) error {
	cw := csv.NewWriter(w)
	var rec []string
	for _, f := range rows.FieldDescriptions() {
		rec = append(rec, f.Name)
	}
	if err := cw.Write(rec); err != nil {
		return err
	}
	for rows.Next() {
		rec = rec[:0]
		for _, v := range rows.RawValues() {
			rec = append(rec, string(v))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("query: %v", err)
	}
	cw.Flush()
	return cw.Error()
}
