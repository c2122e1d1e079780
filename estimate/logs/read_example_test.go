package logs_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// Each streams the items of a log; a pending row without a settle time
// is censored at the latest timestamp in the input.
func ExampleEach() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "payments.csv")
	os.WriteFile(path, []byte(`created_at,settled_at,status
2026-03-01T12:00:00Z,2026-03-01T12:00:02.5Z,settled
2026-03-01T12:00:01Z,2026-03-01T12:00:31Z,failed
2026-03-01T12:00:20Z,,pending
`), 0o644)
	st, err := logs.Each([]string{path}, logs.Options{}, func(it estimate.Item) {
		fmt.Printf("%-8v %5.1f s\n", it.Status, it.Age)
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Final, "final,", st.Pending, "pending, observed at", st.ObservedAt.Format("15:04:05"))
	// Output:
	// settled    2.5 s
	// failed    30.0 s
	// pending   11.0 s
	// 2 final, 1 pending, observed at 12:00:31
}

// A boolean event column maps to statuses with FinalStatus and
// PendingStatus (the CLI's --final-status True --pending-status False).
func ExampleOptions_booleanEvent() {
	_, st, err := logs.Read([]string{"testdata/read/canadian_senators.csv"}, logs.Options{
		CreatedCol: "start_date", SettledCol: "end_date", StatusCol: "observed",
		FinalStatus: []string{"True"}, PendingStatus: []string{"False"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Rows, "terms:", st.Final, "ended,", st.Pending, "running")
	// Output:
	// 933 terms: 834 ended, 99 running
}
