package main

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/fit/simulate"
	"github.com/pollfit/pollfit/internal/quote"
)

// namedSchedule is the one resolved form of a "schedule, or strategy,
// or @FILE" argument, as eval and export take with --schedule, fit and
// frontier with --baseline and simulate with --strategy: a schedule in
// the language, a retry strategy spec (name(...), as fit/backoff reads
// it), or @FILE holding either or an exported JSON document.
// A deterministic strategy also has its asks as a schedule; a randomised
// one (jitter) has none, and sched is nil.
type namedSchedule struct {
	name     string
	spec     string
	sched    *schedule.Schedule
	strategy backoff.Strategy
}

// specName matches the NAME= prefix of a named spec; a strategy's own
// "key=value" arguments sit inside parentheses and do not match.
var specName = regexp.MustCompile(`^\s*([A-Za-z0-9_.:-]+)\s*=`)

// splitSpec splits "NAME=SPEC"; a spec without a name is named after
// itself.
func splitSpec(arg string) (name, spec string) {
	if m := specName.FindStringSubmatch(arg); m != nil {
		return m[1], arg[len(m[0]):]
	}
	return arg, arg
}

// parseSpecs resolves NAME=SPEC arguments; a name may not repeat.
func parseSpecs(args []string) ([]namedSchedule, error) {
	var out []namedSchedule
	seen := map[string]bool{}
	for _, a := range args {
		name, spec := splitSpec(a)
		if seen[name] {
			return nil, usagef("schedule name %q given twice", quote.Clip(name))
		}
		seen[name] = true
		n, err := parseSpec(name, spec)
		if err != nil {
			return nil, fmt.Errorf("schedule %s: %v", quote.Clip(name), err)
		}
		out = append(out, n)
	}
	return out, nil
}

// parseSpec resolves one spec: a strategy, or a schedule, inline or in
// @FILE.
func parseSpec(name, spec string) (namedSchedule, error) {
	n := namedSchedule{name: name, spec: spec}
	text := spec
	if file, ok := strings.CutPrefix(spec, "@"); ok {
		// A file that cannot be read, or holds a schedule or a JSON
		// document, is export.ParseSpec's to read and to report.
		if data, err := export.ReadSpecFile(file); err == nil && backoff.IsSpec(strings.TrimSpace(string(data))) {
			text = strings.TrimSpace(string(data))
		}
	}
	var err error
	if backoff.IsSpec(text) {
		n.strategy, err = backoff.Parse(text)
		if err == nil && n.strategy.Deterministic() {
			n.sched, err = backoff.Schedule(n.strategy, strategyLimit)
		}
	} else {
		n.sched, err = export.ParseSpec(text)
	}
	return n, err
}

// policy is what a simulated client follows: the strategy, or the
// schedule.
func (n namedSchedule) policy() simulate.Policy {
	if n.strategy != nil {
		return simulate.Policy{Strategy: n.strategy}
	}
	return simulate.Policy{Schedule: n.sched}
}

// strategyLimit bounds the asks listed for a deterministic strategy that
// never settles on one wait (one with an attempt or time limit).
const strategyLimit = 30 * 24 * time.Hour

// parseBaselines is parseSpecs for commands that need every baseline as a
// schedule: a strategy with jitter has no single schedule.
func parseBaselines(args []string) ([]namedSchedule, error) {
	named, err := parseSpecs(args)
	for _, n := range named {
		if n.sched == nil {
			return nil, usagef("baseline %s is randomised (jitter): replay it with 'pollfit eval', which averages over realisations", n.name)
		}
	}
	return named, err
}

// replay replays a named schedule or strategy on a sample.
func (n namedSchedule) replay(ctx context.Context, smp fit.Sample, opt fit.ReplayOptions, seed uint64, runs int) (fit.Metrics, error) {
	var m fit.Metrics
	var err error
	if n.strategy != nil {
		m, err = fit.ReplayStrategySample(ctx, n.strategy, smp, opt, seed, runs)
	} else {
		m, err = fit.ReplaySample(n.sched, smp, opt)
	}
	m.Name = n.name
	return m, err
}
