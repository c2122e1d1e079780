package main

import (
	"fmt"

	"github.com/pollfit/pollfit/estimate/source"
	"github.com/pollfit/pollfit/fit"
)

// frontierGroups is pollfit frontier --by: the frontier of each value
// of the column on its own items, through fit's pipeline (its own
// hold-out split, give-up age and stuck cap), read and fitted as fit
// --by reads and fits each: a value's row at a budget is fit --by's
// schedule for it at that budget.
func frontierGroups(e *env, rf *readFlags, by string, args []string, opt fit.StudyOptions, needs source.Needs, budgets []float64, asJSON bool) error {
	if len(args) == 0 {
		return usagef("frontier: give LOG files to split --by %s", by)
	}
	in, err := rf.readGroups(e, args, "frontier", by, needs, opt)
	if err != nil {
		return err
	}
	segs, st, notes := in.Groups, in.Stats, in.Notes
	if !rf.quiet {
		for _, n := range notes {
			fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", n)
		}
	}
	type segJSON struct {
		Value  string        `json:"value"`
		Share  float64       `json:"share"`
		Points []frontierRow `json:"points"`
	}
	var out []segJSON
	for i, s := range segs {
		pts, base, err := fit.StudyFrontier(e.context(), s.Sample, s.HeldOut, nil, opt, budgets)
		if err != nil {
			return fmt.Errorf("frontier: %s %s: %v", by, groupName(s.Value), err)
		}
		sh := s.Total() / float64(st.Items)
		if asJSON {
			out = append(out, segJSON{s.Value, sh, frontierRows(pts, base)})
			continue
		}
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "%s %s (%s of items):\n", by, groupName(s.Value), share(sh))
		writeFrontierText(e.stdout, pts, base, opt.Clauses)
	}
	if !asJSON {
		return nil
	}
	doc := map[string]any{"by": by, "segments": out}
	if len(notes) > 0 {
		doc["notes"] = notes
	}
	return writeJSON(e.stdout, doc)
}
