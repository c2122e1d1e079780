package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// rSurvfit is the R script the Turnbull tests compare against: R's
// survival::survfit on Surv(left, right, type = "interval2"), which for
// interval-censored data runs its own Turnbull EM (survfitTurnbull).
// R stops that EM when S moves by less than 5e-5 between steps, too
// loose for a comparison at 1e-6, so the script first tightens that one
// threshold in R's own code to 1e-12; nothing else of R's is changed.
// Its arguments are a folder and the names of the CSV files (left,
// right, w; right NA when pending) in it to fit, each fit written to
// NAME.fit as lines time,surv. With KMsurv installed it also writes
// bcdeter.csv, the breast-cosmesis data, and fits it whole
// (bcdeter.fit) and for the radiotherapy-only arm (bcdeter1.fit).
const rSurvfit = `
suppressMessages(library(survival))
src <- deparse(survival:::survfitTurnbull)
hit <- grepl("eps > 5e-05", src, fixed = TRUE)
if (sum(hit) != 1) stop("survfitTurnbull has no single 'eps > 5e-05' to tighten")
src[hit] <- sub("eps > 5e-05", "eps > 1e-12", src[hit], fixed = TRUE)
f <- eval(parse(text = src))
environment(f) <- asNamespace("survival")
assignInNamespace("survfitTurnbull", f, "survival")
fitTo <- function(d, out) {
	fit <- survfit(Surv(left, right, type = "interval2") ~ 1, data = d, weights = w)
	writeLines(sprintf("%.17g,%.17g", fit$time, fit$surv), out)
}
args <- commandArgs(trailingOnly = TRUE)
dir <- args[1]
for (name in args[-1]) fitTo(read.csv(file.path(dir, name)), file.path(dir, paste0(name, ".fit")))
if (suppressWarnings(requireNamespace("KMsurv", quietly = TRUE))) {
	data("bcdeter", package = "KMsurv", envir = environment())
	d <- data.frame(left = bcdeter$lower, right = bcdeter$upper, w = 1, treat = bcdeter$treat)
	write.csv(d, file.path(dir, "bcdeter.csv"), row.names = FALSE, na = "NA")
	fitTo(d, file.path(dir, "bcdeter.fit"))
	fitTo(d[d$treat == 1, ], file.path(dir, "bcdeter1.fit"))
}
`

// rCase is one data set for R: intervals (lo, hi] with weights w.
type rCase struct{ lo, hi, w []float64 }

// runSurvfit writes the cases to CSV files, runs rSurvfit once on them
// all (R takes seconds to start) and returns the folder, where each case
// i has its fit in case<i>.csv.fit, and bcdeter's files when KMsurv is
// installed.
func runSurvfit(t *testing.T, cases []rCase) string {
	t.Helper()
	rscript, err := exec.LookPath("Rscript")
	if err != nil {
		t.Skip("Rscript not found: install the Debian packages r-base-core and r-cran-survival")
	}
	dir := t.TempDir()
	args := []string{filepath.Join(dir, "fit.R"), dir}
	if err := os.WriteFile(args[0], []byte(rSurvfit), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		var b strings.Builder
		b.WriteString("left,right,w\n")
		for k := range c.lo {
			r := "NA"
			if !math.IsInf(c.hi[k], 1) {
				r = strconv.FormatFloat(c.hi[k], 'g', -1, 64)
			}
			fmt.Fprintf(&b, "%s,%s,%s\n", strconv.FormatFloat(c.lo[k], 'g', -1, 64), r, strconv.FormatFloat(c.w[k], 'g', -1, 64))
		}
		name := fmt.Sprintf("case%d.csv", i)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, name)
	}
	if msg, err := exec.Command(rscript, args...).CombinedOutput(); err != nil {
		if strings.Contains(string(msg), "no package called") {
			t.Skipf("R lacks a package: install the Debian package r-cran-survival (%s)", strings.TrimSpace(string(msg)))
		}
		t.Fatalf("Rscript: %v\n%s", err, msg)
	}
	return dir
}

// readCurve reads lines time,surv.
func readCurve(t *testing.T, path string) (times, surv []float64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Fields(string(data)) {
		a, b, _ := strings.Cut(line, ",")
		x, err1 := strconv.ParseFloat(a, 64)
		y, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad line %q", path, line)
		}
		times, surv = append(times, x), append(surv, y)
	}
	return times, surv
}

// stepAt is S(x) of the right-continuous step curve (times, surv).
func stepAt(times, surv []float64, x float64) float64 {
	i := sort.Search(len(times), func(i int) bool { return times[i] > x }) - 1
	if i < 0 {
		return 1
	}
	return surv[i]
}

// compareR checks S(t) against R's at every age where either curve
// steps, just before it and half-way to the next: 1e-6.
func compareR(t *testing.T, tb *Turnbull, rt, rs []float64) {
	t.Helper()
	ages := append(append([]float64{}, rt...), tb.Time...)
	sort.Float64s(ages)
	worst := 0.0
	for k, a := range ages {
		xs := []float64{a, a * (1 - 1e-9)}
		if k+1 < len(ages) {
			xs = append(xs, (a+ages[k+1])/2)
		}
		for _, x := range xs {
			d := math.Abs(tb.At(x) - stepAt(rt, rs, x))
			worst = max(worst, d)
			if d > 1e-6 {
				t.Fatalf("S(%v): pollfit %.9f, R %.9f", x, tb.At(x), stepAt(rt, rs, x))
			}
		}
	}
	t.Logf("%d ages compared, largest difference %.2g; EM steps %d, KKT gap %.2g", len(ages), worst, tb.Iter, tb.KKT)
}

// pollerIntervals generates a poller's log: lognormal settle ages asked
// at the gaps sched (the last repeated) until a horizon, each item's
// answer in (last pending ask, first final ask], pending at its last ask
// when never final by the horizon, and every fifth item exact (to the
// millisecond), with weights 1 to 3.
func pollerIntervals(r *rand.Rand, n int, sched []float64, horizon float64) (lo, hi, w []float64) {
	for i := 0; i < n; i++ {
		age := 6 * math.Exp(1.2*r.NormFloat64())
		w = append(w, float64(1+r.IntN(3)))
		if i%5 == 0 && age < horizon {
			a := math.Round(age*1000) / 1000
			lo, hi = append(lo, a), append(hi, a)
			continue
		}
		last, ask := 0.0, 0.0
		for k := 0; ; k++ {
			ask += sched[min(k, len(sched)-1)]
			if ask > horizon {
				lo, hi = append(lo, last), append(hi, math.Inf(1))
				break
			}
			if age <= ask {
				lo, hi = append(lo, last), append(hi, ask)
				break
			}
			last = ask
		}
	}
	return lo, hi, w
}

// TestTurnbullMatchesR: S(t) equals R's survfit to 1e-6 on generated
// poller logs (a 1s/2s/5s/15s schedule and a coarse 3–30 s one, exact
// items mixed in, weights) and on the breast-cosmesis data of Beadle et
// al. (1984) as KMsurv ships it (bcdeter; read from R, not copied here:
// see testdata/stats/README.md), whole and for one arm.
func TestTurnbullMatchesR(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	var cases []rCase
	for _, sched := range [][]float64{{1, 2, 5, 15}, {3, 7, 12, 30}} {
		lo, hi, w := pollerIntervals(r, 400, sched, 120)
		cases = append(cases, rCase{lo, hi, w})
	}
	dir := runSurvfit(t, cases)
	for i, c := range cases {
		rt, rs := readCurve(t, filepath.Join(dir, fmt.Sprintf("case%d.csv.fit", i)))
		compareR(t, mustTurnbull(t, c.lo, c.hi, c.w), rt, rs)
	}
	if _, err := os.Stat(filepath.Join(dir, "bcdeter.csv")); err != nil {
		t.Skip("R lacks KMsurv for the breast-cosmesis data: install the Debian package r-cran-kmsurv")
	}
	lo, hi, treat := readBcdeter(t, filepath.Join(dir, "bcdeter.csv"))
	if len(lo) != 95 {
		t.Fatalf("bcdeter: %d rows, want 95", len(lo))
	}
	rt, rs := readCurve(t, filepath.Join(dir, "bcdeter.fit"))
	compareR(t, mustTurnbull(t, lo, hi, nil), rt, rs)
	var lo1, hi1 []float64
	for i := range lo {
		if treat[i] == 1 {
			lo1, hi1 = append(lo1, lo[i]), append(hi1, hi[i])
		}
	}
	rt, rs = readCurve(t, filepath.Join(dir, "bcdeter1.fit"))
	compareR(t, mustTurnbull(t, lo1, hi1, nil), rt, rs)
}

// readBcdeter reads the left, right (NA: pending) and treat columns.
func readBcdeter(t *testing.T, path string) (lo, hi, treat []float64) {
	t.Helper()
	recs := readRecords(t, path)
	for _, r := range recs[1:] {
		l, err1 := strconv.ParseFloat(r[0], 64)
		h, err2 := math.Inf(1), error(nil)
		if r[1] != "NA" {
			h, err2 = strconv.ParseFloat(r[1], 64)
		}
		tr, err3 := strconv.ParseFloat(r[3], 64)
		if err1 != nil || err2 != nil || err3 != nil {
			t.Fatalf("%s: bad row %v", path, r)
		}
		lo, hi, treat = append(lo, l), append(hi, h), append(treat, tr)
	}
	return lo, hi, treat
}
