package main

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/plot"
	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

// addPlotFlag registers --plot FILE on a command: a picture of its
// result, SVG or PNG by the file's extension.
func addPlotFlag(fs *pflag.FlagSet) *string {
	return fs.String("plot", "", "also draw the result to this file, .svg or .png")
}

// writePlot writes f to path as SVG or PNG, chosen by the extension
// (SVG for "-", which is stdout), never half-written, and over an
// existing file only with force.
func writePlot(path string, force bool, stdout io.Writer, f *plot.Figure) error {
	format, err := plotFormat(path)
	if err != nil {
		return err
	}
	return writeOutput(path, force, stdout, func(w io.Writer) error { return f.WriteTo(w, format) })
}

// plotFormat is the picture format path asks for: svg or png by its
// extension, svg for "-" (stdout).
func plotFormat(path string) (string, error) {
	format := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	switch {
	case path == "-":
		format = "svg"
	case format != "svg" && format != "png":
		return "", usagef("--plot %s: want a .svg or .png file", quote.Clip(path))
	}
	return format, nil
}

// checkPlots refuses, before any work, a picture path with a wrong
// extension, or one checkOutput refuses. Empty paths are not asked for.
func checkPlots(force bool, paths ...string) error {
	for _, p := range paths {
		if p == "" {
			continue
		}
		if _, err := plotFormat(p); err != nil {
			return err
		}
		if err := checkOutput(p, force); err != nil {
			return err
		}
	}
	return nil
}

// The pictures of --plot are internal/plot's, built from the domain
// values by the same functions as the report's.

// estimatePlot is estimate --plot: the smoothed density on a log-time
// axis, deadlines marked.
func estimatePlot(d *estimate.Dist) *plot.Figure {
	return plot.DensityOf(d)
}

// evalPlot is eval --plot: the lag distribution of each replayed
// schedule (ms[i] replays named[i] on smp).
func evalPlot(smp fit.Sample, named []namedSchedule, ms []fit.Metrics) *plot.Figure {
	scheds := make([]*schedule.Schedule, len(named))
	for i, n := range named {
		scheds[i] = n.sched
	}
	return plot.LagsOf(ms, scheds, smp)
}
