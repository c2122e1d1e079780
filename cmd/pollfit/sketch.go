package main

import (
	"fmt"
	"io"
	"os"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/fit"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "sketch",
		summary: "summarise settle-time logs into a small, mergeable sketch that fit, eval, frontier and report read",
		usage:   "pollfit sketch [--holdout 0.3] [--seed N] [read flags] LOG... -o FILE",
		example: `  pollfit sketch -o day1.sketch.csv logs/2026-11-01/
  pollfit sketch -o month.sketch.csv day*.sketch.csv
  pollfit fit --requests-per-item 8 month.sketch.csv

A sketch holds, for the items to fit on and the items held out (split by a
hash of each row, so the same rows always split alike), final and pending
counts with the sum of their ages in log-spaced age bins (10000 a decade,
0.023% wide): a few megabytes at most whatever the size of the log, read in
one streaming pass. Sketches of the same --holdout and --seed merge by
adding: give sketches as the input to merge them. A sketch keeps no
creation times or signals, so aligned asks, batch shapes and reset on
signal need the log itself. The file is CSV, documented in
'go doc github.com/pollfit/pollfit/estimate WriteSketch'.`,
		flags: sketchFlags,
	})
}

func sketchFlags(fs *pflag.FlagSet) func(*env, []string) error {
	holdout := fs.Float64("holdout", 0.3, "share of the rows hashed to the held-out part")
	seed := fs.Uint64("seed", 1, "seed of the hash split")
	out := fs.StringP("output", "o", "", "output file (default stdout)")
	force := fs.Bool("force", false, "overwrite an existing output file")
	rf := addReadFlags(fs)
	return func(e *env, args []string) error {
		if len(args) == 0 {
			return usagef("sketch: give LOG files (or sketches to merge)")
		}
		s, err := estimate.NewSketch(*holdout, *seed)
		if err != nil {
			return usagef("sketch: --holdout %g: want a share in [0, 1)", *holdout)
		}
		if in, ok, err := readSketches(args); err != nil {
			return err
		} else if ok {
			if !fs.Changed("holdout") && !fs.Changed("seed") {
				s.Holdout, s.Seed = in.Holdout, in.Seed
			}
			if err := s.Merge(in); err != nil {
				return err
			}
		} else if s, err = rf.sketchOf(e, args, s.Holdout, s.Seed); err != nil {
			return err
		}
		return writeOutput(*out, *force, e.stdout, func(w io.Writer) error { return estimate.WriteSketch(w, s) })
	}
}

// readSketches reads and merges the sketches named by args; ok is false
// when the first input is not a sketch (then it is a log).
func readSketches(args []string) (*estimate.Sketch, bool, error) {
	var all *estimate.Sketch
	for i, name := range args {
		s, isSketch, err := readSketch(name)
		switch {
		case err != nil:
			return nil, false, err
		case !isSketch && i == 0:
			return nil, false, nil
		case !isSketch:
			return nil, false, fmt.Errorf("read %s: not a sketch, while %s is: give sketches or logs, not both", name, args[0])
		case all == nil:
			all = s
		default:
			if err := all.Merge(s); err != nil {
				return nil, false, fmt.Errorf("read %s: %v", name, err)
			}
		}
	}
	return all, true, nil
}

// isSketchFile reports whether name is a sketch file, from its first
// bytes (a folder, a glob or "-" is not: the log readers take those).
func isSketchFile(name string) bool {
	f, err := os.Open(name)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 32)
	n, _ := io.ReadFull(f, head)
	return estimate.IsSketch(head[:n])
}

// readSketch reads name if it is a sketch file.
func readSketch(name string) (*estimate.Sketch, bool, error) {
	if !isSketchFile(name) {
		return nil, false, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %v", name, err)
	}
	defer f.Close()
	s, err := estimate.ReadSketch(f, name)
	if err != nil {
		return nil, false, fmt.Errorf("read %v", err)
	}
	return s, true, nil
}

// sketchSamples are a sketch's parts as samples.
func sketchSamples(s *estimate.Sketch) (fitOn, heldOut fit.Sample) {
	fitOn.Items, fitOn.Weights = s.Fit.Bins()
	heldOut.Items, heldOut.Weights = s.HeldOut.Bins()
	return fitOn, heldOut
}
