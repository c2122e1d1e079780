// Package sqltest runs pollfit's warehouse queries (estimate.SketchSQL)
// in real engines and checks that each engine's sketch of a log is
// pollfit's own: DuckDB in process through github.com/duckdb/duckdb-go
// (cgo), PostgreSQL through github.com/jackc/pgx on a server the tests
// start on loopback from Debian's postgresql package, and ClickHouse over
// its HTTP interface on a server they start on loopback from Debian's
// clickhouse-server package (they skip without them). It also runs a corpus of injection strings through both
// engines (a sentinel table survives), pollfit sketch --from against
// the server (timeouts, cancel, server errors, secrets), and parses
// every dialect's query with Debian's python3-sqlglot. It is a module
// of its own so that pollfit does not depend on the drivers; .ci/run
// tests it.
package sqltest
