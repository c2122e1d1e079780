package sqltest

import (
	"maps"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/estimate"
)

// ClickHouse running pollfit sql --dialect clickhouse, as printed, on a
// server the test starts (Debian's clickhouse-server, 18.16), sketches a
// log as pollfit does, bin for bin, and its CSVWithNames export (a
// quoted header and quoted strings) reads as the sketch: a log with the
// rows both reject, one with signals, a poller's log of one row per
// ask, and one segmented by a column.
func TestClickHouseSketch(t *testing.T) {
	ch := startClickHouse(t)
	t.Logf("clickhouse %s", ch.version)
	dir := t.TempDir()

	t.Run("rows", func(t *testing.T) {
		file := testLog(t, dir, 8000)
		ch.load(t, "payments", file)
		// testLog's rows 5, 6 and 7, one of each.
		want := map[string]float64{"unknown status": 1, "settled before created": 1, "missing value": 1}
		if !ch.hasDateTime64() { // timestamps as text: one that is no time
			if _, err := ch.query("INSERT INTO payments (created_at, settled_at, status) VALUES ('not a time', '', 'pending')", nil); err != nil {
				t.Fatal(err)
			}
			want["bad timestamp"] = 1
		}
		own, got := ownSketch(t, file), ch.export(t, query(t, "clickhouse", "payments", ""))
		sameSketch(t, "clickhouse", own, got)
		sameSchedule(t, "clickhouse", own, got)
		if !maps.Equal(got.Dropped, want) {
			t.Errorf("clickhouse: dropped %v, want %v", got.Dropped, want)
		}
	})
	t.Run("signals", func(t *testing.T) {
		file := signalLog(t, dir)
		ch.load(t, "signals", file)
		q, err := estimate.SketchSQL(estimate.SQLOptions{Dialect: "clickhouse", Table: "signals", SignalCol: "signal_at", Holdout: holdout, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		sameSketch(t, "clickhouse (signals)", ownSignalSketch(t, file), ch.export(t, q))
	})
	t.Run("poller", func(t *testing.T) {
		file, bad := pollerLog(t, dir, 2000)
		ch.load(t, "asks", file)
		own, skipped := ownPollerSketch(t, file)
		samePollerSketch(t, "clickhouse (poller)", own, ch.export(t, pollerQuery(t, "clickhouse", "asks")), skipped, bad)
	})
	t.Run("by", func(t *testing.T) {
		file := segmentedLog(t, dir, 6000)
		ch.load(t, "mixed", file)
		sameGroups(t, "clickhouse", ownGrouped(t, file), ch.export(t, query(t, "clickhouse", "mixed", "method")))
	})
}

// load creates table with the columns of a CSV log's header and loads
// the log into it: every column nullable text on ClickHouse before 20.1
// (which has no sub-second time type), the timestamps DateTime64(6) on
// later servers.
func (ch *clickhouse) load(t *testing.T, table, file string) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	header, _, _ := strings.Cut(string(data), "\n")
	var cols []string
	for _, name := range strings.Split(header, ",") {
		typ := "Nullable(String)"
		if ch.hasDateTime64() && strings.HasSuffix(name, "_at") {
			typ = "Nullable(DateTime64(6, 'UTC'))"
		}
		cols = append(cols, "`"+name+"` "+typ)
	}
	create := "CREATE TABLE " + table + " (" + strings.Join(cols, ", ") + ") ENGINE = Memory"
	if _, err := ch.query(create, nil); err != nil {
		t.Fatalf("clickhouse: create: %v", err)
	}
	settings := url.Values{}
	if ch.hasDateTime64() {
		settings.Set("date_time_input_format", "best_effort")
	}
	if _, err := ch.query("INSERT INTO "+table+" FORMAT CSVWithNames\n"+string(data), settings); err != nil {
		t.Fatalf("clickhouse: load %s: %v", file, err)
	}
}

// export runs a sketch query and reads its CSVWithNames answer.
func (ch *clickhouse) export(t *testing.T, q string) *estimate.Sketch {
	t.Helper()
	out, err := ch.query(q+"\nFORMAT CSVWithNames", nil)
	if err != nil {
		t.Fatalf("clickhouse: query: %v", err)
	}
	if line, _, _ := strings.Cut(out, "\n"); !strings.HasPrefix(line, `"`) {
		t.Errorf("clickhouse: the export's header %q is not quoted: the test no longer checks that quoted exports read", line)
	}
	return readExport(t, []byte(out))
}
