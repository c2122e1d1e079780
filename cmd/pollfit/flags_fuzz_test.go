package main

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/fit/simulate"
	"github.com/pollfit/pollfit/internal/quote"
)

// maxErrRunes bounds an error built from a flag's text: each piece of
// input quoted is at most quote.Max runes, and a message quotes two at
// most, around a fixed text.
const maxErrRunes = 3*quote.Max + 300

func checkErr(t *testing.T, in string, err error) {
	t.Helper()
	if err != nil && utf8.RuneCountInString(err.Error()) > maxErrRunes {
		t.Fatalf("%d-byte input: error of %d runes: %.300s", len(in), utf8.RuneCountInString(err.Error()), err)
	}
}

// FuzzParseRate: --capacity and --arrivals. A rate read is positive and
// finite, per a positive period of at most 100 years.
func FuzzParseRate(f *testing.F) {
	for _, s := range []string{"20/s", "600/m", "5/100ms", "1.5/h", "1/36500d", "0/s", "x", "1e400/s", "20/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := simulate.ParseRate(s)
		checkErr(t, s, err)
		if err == nil && (!(r.N > 0) || math.IsInf(r.N, 0) || r.Per <= 0 || r.Per > schedule.MaxAge) {
			t.Fatalf("%q: rate %+v", s, r)
		}
	})
}

// FuzzParseAsksBy: --asks-by N@T is N ≥ 1 by a positive age of at most
// 100 years, and a budget of more than fit.MaxBudgetAsks asks is refused
// by the library's check, which pollfit runs before reading a log.
func FuzzParseAsksBy(f *testing.F) {
	for _, s := range []string{"40@15m", "10000000@15m", "1@1ms", "@", "0@1s", "5@0s", "5@36501d", " 7 @ 2m "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, d, err := parseAsksBy(s)
		checkErr(t, s, err)
		if err == nil && (n < 1 || d <= 0 || d > schedule.MaxAge) {
			t.Fatalf("%q: %d asks by %v", s, n, d)
		}
		opt := fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{AsksBy: n, AsksByAge: d}}}
		if err == nil && n > fit.MaxBudgetAsks && opt.Validate() == nil {
			t.Fatalf("%q: %d asks by %v passes the library's check", s, n, d)
		}
	})
}

// FuzzParseDurationList: --asks-by of eval and --count-asks-by. Every
// duration read is from 0 to 100 years and formats back to itself.
func FuzzParseDurationList(f *testing.F) {
	for _, s := range []string{"30s,2m,15m", "", ",,", "1s, 2s", "1.5d", "36501d", "-1s", "1", "1e3s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ds, err := parseDurationList(s)
		checkErr(t, s, err)
		for _, d := range ds {
			if d < 0 || d > schedule.MaxAge {
				t.Fatalf("%q: duration %v", s, d)
			}
			again, err := schedule.ParseDuration(schedule.FormatDuration(d))
			if err != nil || again != d {
				t.Fatalf("%q: %v formats as %q, read back as %v, %v", s, d, schedule.FormatDuration(d), again, err)
			}
		}
	})
}

// FuzzDelays: the outcomes of "pollfit delays". Every delay is finite
// and not negative.
func FuzzDelays(f *testing.F) {
	for _, s := range []string{"0,0,1", "1@3", "0@+2.5,1", "2", "0@1e308,0@+1e308", "0:5"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, advance bool) {
		alg, err := backoff.ParseAlgorithm("Exponential")
		if err != nil {
			t.Fatal(err)
		}
		p := backoff.Perl{Algorithm: alg}
		for k, v := range map[string]string{"initial_delay": "0.1", "max_delay": "20"} {
			if err := p.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		ds, err := runDelays(p, rand.New(rand.NewPCG(1, 0)), []string{s}, advance)
		checkErr(t, s, err)
		for _, d := range ds {
			if math.IsNaN(d) || math.IsInf(d, 0) || d < 0 {
				t.Fatalf("%q: delay %v", s, d)
			}
		}
	})
}

// FuzzTimeFlags: --time-format and --tz, then a read of a small log
// with them: no panic, and a bounded error.
func FuzzTimeFlags(f *testing.F) {
	for _, c := range [][2]string{{"", "UTC"}, {"2006-01-02 15:04:05", "Europe/Paris"}, {"02/01/2006 15:04", "Local"}, {"", "../../etc/passwd"}, {"Z07", "Nowhere/City"}} {
		f.Add(c[0], c[1])
	}
	dir := f.TempDir()
	p := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(p, []byte("created_at,settled_at,status\n2026-01-02 03:04:05,2026-01-02 03:04:09,settled\n2026-01-02T03:04:05Z,2026-01-02T03:05:05Z,failed\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, layout, tz string) {
		r := &readFlags{timeFormat: layout, tz: tz, timeUnit: "s", maxLine: logs.DefaultMaxLine}
		opt, err := r.options()
		checkErr(t, layout+tz, err)
		if err != nil {
			return
		}
		_, err = logs.Each([]string{p}, opt, func(it estimate.Item) {
			if it.Age < 0 || it.Age > float64(schedule.MaxAge.Seconds()) {
				t.Fatalf("age %v", it.Age)
			}
		})
		checkErr(t, layout+tz, err)
	})
}
