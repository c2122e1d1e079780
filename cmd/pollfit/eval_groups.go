package main

import (
	"fmt"

	"github.com/pollfit/pollfit/estimate/logs"
	"github.com/pollfit/pollfit/fit"
)

// evalRun are the eval flags a replay per group repeats.
type evalRun struct {
	given  bool // --horizon given
	seed   uint64
	runs   int
	asJSON bool
	by     string
}

// evalGroupJSON is one group's replays in eval --by --json.
type evalGroupJSON struct {
	Value     string    `json:"value"`
	Items     float64   `json:"items"`
	Share     float64   `json:"share"`
	Schedules []fit.Row `json:"schedules"`
}

// evalGroups prints eval's table for all items, then one per value of
// the --by column, each schedule replayed to the same give-up age.
func evalGroups(e *env, segs []fit.Group, named []namedSchedule, opt fit.ReplayOptions, all []fit.Row, stats logs.Stats, g *fit.GiveUp, r evalRun) error {
	total := 0.0
	for _, s := range segs {
		total += s.Sample.Total()
	}
	var out []evalGroupJSON
	for _, s := range segs {
		ms, err := replayAll(e.context(), named, s.Sample, opt, r.given, r.seed, r.runs)
		if err != nil {
			return fmt.Errorf("eval: %s %s: %v", r.by, groupName(s.Value), err)
		}
		out = append(out, evalGroupJSON{Value: s.Value, Items: s.Sample.Total(), Share: s.Sample.Total() / total, Schedules: evalRows(named, ms)})
	}
	if r.asJSON {
		doc := struct {
			Horizon   float64         `json:"horizon_s"`
			Schedules []fit.Row       `json:"schedules"`
			By        string          `json:"by"`
			Segments  []evalGroupJSON `json:"segments"`
		}{opt.Horizon.Seconds(), all, r.by, out}
		return writeJSON(e.stdout, doc)
	}
	printEvalTable(e, all, stats, g, nil)
	for _, s := range out {
		fmt.Fprintf(e.stdout, "\n%s %s (%s of items):\n", r.by, groupName(s.Value), share(s.Share))
		writeEvalRows(e.stdout, s.Schedules)
	}
	return nil
}
