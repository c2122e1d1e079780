package main

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/pollfit/pollfit/estimate/source"
	"github.com/spf13/pflag"
)

func parseReadFlags(t *testing.T, args ...string) *readFlags {
	t.Helper()
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	rf := addReadFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	return rf
}

func TestReadFlagsOptions(t *testing.T) {
	rf := parseReadFlags(t, "--created-col", "start_date", "--settled-col", "end_date",
		"--status-col", "observed", "--final-status", "True,yes", "--pending-status", "False",
		"--delimiter", "tab", "--time-unit", "ms", "--tz", "Europe/Paris",
		"--observed-at", "2026-01-02 03:04:05", "--skip-bad")
	opt, err := rf.options()
	if err != nil {
		t.Fatal(err)
	}
	paris, _ := time.LoadLocation("Europe/Paris")
	if opt.CreatedCol != "start_date" || opt.SettledCol != "end_date" || opt.StatusCol != "observed" ||
		strings.Join(opt.FinalStatus, "|") != "True|yes" || opt.PendingStatus[0] != "False" ||
		opt.Delimiter != '\t' || opt.TimeUnit != "ms" || opt.Location.String() != "Europe/Paris" || !opt.SkipBad ||
		!opt.ObservedAt.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, paris)) {
		t.Errorf("options %+v", opt)
	}
	for _, args := range [][]string{
		{"--delimiter", "ab"}, {"--time-unit", "min"}, {"--tz", "Mars/Olympus"}, {"--observed-at", "soon"},
	} {
		_, err := parseReadFlags(t, args...).options()
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%v: error %v, want a usage error", args, err)
		}
	}
}

// TestReadFlagsSenators reads the lifelines senators with the flags the
// manual gives for a boolean event column: 834 observed, 99 censored.
func TestReadFlagsSenators(t *testing.T) {
	rf := parseReadFlags(t, "--created-col", "start_date", "--settled-col", "end_date",
		"--status-col", "observed", "--final-status", "True", "--pending-status", "False")
	var stderr bytes.Buffer
	e := &env{stdout: &bytes.Buffer{}, stderr: &stderr}
	var final int
	in, err := rf.read(e, []string{"../../estimate/logs/testdata/read/canadian_senators.csv"}, "test", source.Options{Needs: source.Needs{Always: "the test"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range in.FitOn.Items {
		if it.Status.Final() {
			final++
		}
	}
	st := in.Stats
	if final != 834 || st.Pending != 99 || stderr.Len() != 0 {
		t.Errorf("final %d, stats %+v, stderr %q", final, st, stderr.String())
	}
	_, err = parseReadFlags(t).read(e, []string{"../../estimate/logs/testdata/read/canadian_senators.csv"}, "test", source.Options{Needs: source.Needs{Always: "the test"}})
	if err == nil || !strings.Contains(err.Error(), "read ../../estimate/logs/testdata/read/canadian_senators.csv: missing columns") {
		t.Errorf("error %v", err)
	}
}
