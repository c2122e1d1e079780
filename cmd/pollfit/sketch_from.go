package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/source"
)

// The defaults of sketch --from's --connect-timeout and --query-timeout.
const (
	defaultConnectTimeout = 10 * time.Second
	defaultQueryTimeout   = 30 * time.Minute
)

// fromFlags are sketch --from's own flags.
type fromFlags struct {
	dsn, table, query string
	noStatus          bool
	connect, timeout  time.Duration
	// connectSet: --connect-timeout was given, and overrides the URL's
	// connect_timeout (which overrides the flag's default).
	connectSet bool
	// settledSet: --settled-col was given (a poller log takes none).
	settledSet bool
}

// sketchFromServer is sketch --from: the flags of the reader that the
// query takes, checked, and the query run on the server.
func (r *readFlags) sketchFromServer(e *env, f fromFlags, by string, holdout float64, seed uint64, args []string) (*estimate.Sketch, error) {
	switch {
	case !isServerURL(f.dsn):
		return nil, usagef("sketch --from %s: want a postgres:// or postgresql:// URL", redact(f.dsn))
	case len(args) > 0:
		return nil, usagef("sketch --from: unexpected argument %q: the rows come from the server", args[0])
	case f.table == "" && f.query == "":
		return nil, usagef("sketch --from: give --table (or --query)")
	case r.duration != "" || r.histogram || r.timeFormat != "":
		return nil, usagef("sketch --from: the query reads timestamps and a status: --duration-col, --histogram and --time-format are for logs")
	case f.connect <= 0 || f.timeout <= 0:
		return nil, usagef("sketch --from: --connect-timeout %v, --query-timeout %v: want durations above 0", f.connect, f.timeout)
	}
	o := estimate.SQLOptions{Table: f.table, Query: f.query, CreatedCol: cmp.Or(r.created, "created_at"), SettledCol: cmp.Or(r.settled, "settled_at"),
		StatusCol: cmp.Or(r.status, "status"), NoStatus: f.noStatus, SignalCol: r.signal, FinalStatus: r.final, PendingStatus: r.pending,
		Holdout: holdout, Seed: seed, By: by, Dialect: "postgres"}
	if r.observedAt != "" {
		t, err := parseObservedAt(r.observedAt, time.UTC)
		if err != nil {
			return nil, err
		}
		o.ObservedAt = t
	}
	f.settledSet = r.settled != ""
	if r.iv != nil && (r.iv.askedCol != "" || r.iv.idCol != "") {
		asPoller(&o, r.iv.askedCol, r.iv.idCol, f.settledSet)
	}
	if _, err := estimate.SketchSQL(o); err != nil {
		return nil, usagef("sketch --from: %w", err)
	}
	s, err := sketchFrom(e.context(), f, o)
	if err != nil {
		return nil, errors.New(scrub(err.Error(), f.dsn))
	}
	return s, r.dropped(e, s, redact(f.dsn))
}

// dropped applies the log readers' rule for bad rows to the rows the
// query left out of sketch s (source.Dropped): an error, or with
// --skip-bad a warning, printed unless --quiet, that counts them.
func (r *readFlags) dropped(e *env, s *estimate.Sketch, name string) error {
	warn, err := source.Dropped(s, name, r.skipBad)
	var d *source.DroppedError
	if errors.As(err, &d) {
		return droppedError(d)
	}
	if !r.quiet {
		for _, w := range warn {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", w)
		}
	}
	return nil
}

// sketchFrom runs the PostgreSQL sketch query q on the server at f.dsn:
// connected within f.connect, in a read-only transaction, through the
// extended protocol (which runs one statement a call), under a
// statement_timeout of f.timeout. On the context's end (a signal) or
// past f.timeout the server is asked to cancel the query. The rows
// stream through the reader of an exported CSV (estimate.ReadSketch),
// in PostgreSQL's text form, as psql --csv would write them: one parser
// for both routes, and nothing held but the sketch. An empty result is
// an empty sketch of the split asked for.
func sketchFrom(ctx context.Context, f fromFlags, o estimate.SQLOptions) (*estimate.Sketch, error) {
	name := redact(f.dsn)
	cfg, err := pgx.ParseConfig(f.dsn)
	if err != nil {
		return nil, usagef("sketch --from %s: %v", name, err)
	}
	if cfg.ConnectTimeout == 0 || f.connectSet {
		cfg.ConnectTimeout = f.connect
	}
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: 2 * time.Second}
	}
	// The server's statement_timeout ends the query first, with its own
	// message; the context, a little later, ends a stalled connection.
	ctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout+f.timeout+5*time.Second)
	defer cancel()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil && ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
		return nil, fmt.Errorf("sketch --from %s: no answer within --connect-timeout %v: %v", name, cfg.ConnectTimeout, err)
	}
	if err != nil {
		return nil, serverError(ctx, name, f, err)
	}
	defer func() {
		c, stop := context.WithTimeout(context.WithoutCancel(ctx), time.Second)
		defer stop()
		conn.Close(c)
	}()
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, serverError(ctx, name, f, err)
	}
	if _, err := tx.Exec(ctx, "SELECT set_config('statement_timeout', $1, true)", fmt.Sprint(f.timeout.Milliseconds())); err != nil {
		return nil, serverError(ctx, name, f, err)
	}
	if o.SignalCol == "" && o.AskedCol == "" {
		cols, err := probeColumns(ctx, conn.PgConn(), o)
		if err != nil {
			return nil, serverError(ctx, name, f, err)
		}
		o.SignalCol = cols.signal
		if cols.poller {
			asPoller(&o, "asked_at", "", f.settledSet)
		}
	}
	q, err := estimate.SketchSQL(o)
	if err != nil {
		return nil, err
	}
	rr := conn.PgConn().ExecParams(ctx, q, nil, nil, nil, nil) // nil formats: text, as psql writes it
	s, err := readResult(rr, name, o.Holdout, o.Seed)
	if err != nil {
		return nil, serverError(ctx, name, f, err)
	}
	return s, nil
}

// asPoller makes o the query of a poller log of one row per ask, with
// the ask and id columns (defaults asked_at and id): without the
// settle column's default (settled, that --settled-col was given).
func asPoller(o *estimate.SQLOptions, asked, id string, settled bool) {
	o.AskedCol, o.IDCol = cmp.Or(asked, "asked_at"), id
	if !settled {
		o.SettledCol = ""
	}
}

// tableColumns is what probeColumns found: the signal_at column, quoted
// ("" for none), and whether the table is a poller log of one row per
// ask.
type tableColumns struct {
	signal string
	poller bool
}

// probeColumns reads the names of the table's columns: its signal_at
// column (of a timestamp type), which the log readers count without
// being told, and so the query must, to censor alike; and whether it has
// the columns asked_at (a timestamp) and id, which make it a poller log
// of one row per ask, as they make a CSV file one for the readers.
func probeColumns(ctx context.Context, c *pgconn.PgConn, o estimate.SQLOptions) (tableColumns, error) {
	var tc tableColumns
	from, err := estimate.SQLFrom(o)
	if err != nil {
		return tc, err
	}
	rr := c.ExecParams(ctx, "SELECT * FROM "+from+" LIMIT 0", nil, nil, nil, nil)
	var asked, id bool
	for _, fd := range rr.FieldDescriptions() {
		stamp := fd.DataTypeOID == pgtype.TimestamptzOID || fd.DataTypeOID == pgtype.TimestampOID
		switch name := strings.ToLower(strings.TrimSpace(fd.Name)); {
		case stamp && name == "signal_at" && !strings.ContainsAny(fd.Name, "\"`;\\'"):
			tc.signal = `"` + fd.Name + `"`
		case stamp && fd.Name == "asked_at":
			asked = true
		case fd.Name == "id":
			id = true
		}
	}
	tc.poller = asked && id
	if tc.poller {
		tc.signal = ""
	}
	_, err = rr.Close()
	return tc, err
}

// serverError is err of the query at the server called name, saying
// why when the context ended it.
func serverError(ctx context.Context, name string, f fromFlags, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return fmt.Errorf("sketch --from %s: %w (the server was asked to cancel the query)", name, errInterrupted)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("sketch --from %s: no answer within --connect-timeout %v and --query-timeout %v (the server was asked to cancel the query): %v", name, f.connect, f.timeout, err)
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "57014" {
		return fmt.Errorf("sketch --from %s: %v (the query ran past --query-timeout %v: raise it, or sketch fewer rows)", name, err, f.timeout)
	}
	return fmt.Errorf("sketch --from %s: %v", name, err)
}
