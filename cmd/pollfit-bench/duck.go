package main

import (
	"database/sql"
	"fmt"
	"os"
	"strings"

	_ "github.com/duckdb/duckdb-go/v2"
)

// duckOnce runs the statements of a query file in an in-memory DuckDB
// and reads every row of the last one's result.
func duckOnce(path string) error {
	text, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	stmts := strings.Split(strings.TrimSpace(string(text)), ";\n")
	for _, s := range stmts[:len(stmts)-1] {
		if _, err := db.Exec(s); err != nil {
			return fmt.Errorf("%s: %v", s, err)
		}
	}
	rows, err := db.Query(strings.TrimSuffix(stmts[len(stmts)-1], ";"))
	if err != nil {
		return err
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return err
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	n := 0
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		n++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	fmt.Printf("%d rows\n", n)
	return nil
}
