package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/loggen"
)

func TestWritePlot(t *testing.T) {
	dir := t.TempDir()
	f := plot.Frontier([]plot.Curve{{Name: "optimum", X: []float64{1, 2, 4}, Y: []float64{8, 3, 1}}}, []plot.Point{{Name: "now", Cost: 3, Wait: 4}})
	svg := filepath.Join(dir, "f.svg")
	if err := writePlot(svg, false, nil, f); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svg)
	if !bytes.Contains(b, []byte("<svg")) || !bytes.Contains(b, []byte(">now<")) {
		t.Errorf("svg: %.100s", b)
	}
	if err := writePlot(svg, false, nil, f); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("overwrite without force: %v", err)
	}
	png := filepath.Join(dir, "f.PNG")
	if err := writePlot(png, false, nil, f); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(png); !bytes.HasPrefix(b, []byte("\x89PNG")) {
		t.Error("png is not a PNG")
	}
	if err := writePlot(filepath.Join(dir, "f.gif"), false, nil, f); err == nil {
		t.Error("gif: no error")
	}
	var out bytes.Buffer
	if err := writePlot("-", false, &out, f); err != nil || !bytes.Contains(out.Bytes(), []byte("<svg")) {
		t.Errorf("stdout: %v", err)
	}
}

// TestCommandPlots draws each command's picture from real results and
// checks what it holds.
func TestCommandPlots(t *testing.T) {
	its := loggen.Items(loggen.Rows(loggen.Deadline, 1500, 3))
	var acc estimate.Accumulator
	for _, it := range its {
		acc.Add(it)
	}
	d := estimate.Density(acc.Survival(), estimate.DensityOptions{})
	names := func(f *plot.Figure) []string {
		var s []string
		for _, x := range f.Series {
			s = append(s, x.Name)
		}
		return s
	}
	if got := names(estimatePlot(d)); len(got) == 0 || got[0] != "smoothed density" {
		t.Errorf("estimate plot series %q", got)
	}
	named, err := parseSpecs([]string{"a=1s", "b=2s, reset on signal"})
	if err != nil {
		t.Fatal(err)
	}
	var ms []fit.Metrics
	for _, n := range named {
		m, err := fit.Replay(n.sched, its, fit.ReplayOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m.Name = n.name
		ms = append(ms, m)
	}
	// eval --plot's legend gives each schedule's requests per item.
	want := fmt.Sprintf("a, %.2f req/item|b, %.2f req/item", ms[0].RequestsPerItem, ms[1].RequestsPerItem)
	if got := names(evalPlot(fit.ItemSample(its), named, ms)); strings.Join(got, "|") != want {
		t.Errorf("eval plot series %q, want %q", got, want)
	}
	st, err := fit.Study(context.Background(), fit.ItemSample(its), nil, fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{RequestsPerItem: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	got := names(plot.HazardOf(st))
	if len(got) < 3 || got[0] != "hazard h(t)" || got[len(got)-1] != "asks (fitted)" {
		t.Errorf("fit plot series %q", got)
	}
	m, err := estimate.ParseModel("lognormal(median=10s, sigma=1)")
	if err != nil {
		t.Fatal(err)
	}
	mr, err := fit.StudyModel(context.Background(), m, fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{Price: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(plot.HazardOf(mr)); len(got) < 3 || got[0] != "hazard h(t)" || got[1] != "optimal rate r(t)" {
		t.Errorf("fit plot of a model: series %q", got)
	}
	rough, err := fit.Study(context.Background(), fit.ItemSample(its), nil, fit.StudyOptions{Options: fit.Options{Budget: fit.Budget{RequestsPerItem: 5}}, Rough: true})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(plot.HazardOf(rough)); len(got) < 2 || got[len(got)-1] != "asks (fitted)" || got[0] == "hazard h(t)" {
		t.Errorf("fit plot without density: series %q", got)
	}
	fr, _, err := fit.StudyFrontier(context.Background(), fit.ItemSample(its), nil, nil, fit.StudyOptions{}, []float64{2, 4, 8})
	if err != nil {
		t.Fatal(err)
	}
	// The fitted curve is labelled with the clauses asked for
	// (frontier --clauses 6), not a fixed 4.
	got = names(plot.FrontierOf(fr, plot.RowPoints([]fit.Row{st.Fitted}), 6))
	if len(got) < 3 || got[0] != fit.FrontierLimitLabel(fr)+", in hindsight" || got[1] != "fitted, 6 clauses" || !slices.Contains(got, "fitted") {
		t.Errorf("frontier plot series %q", got)
	}
}
