package main

import (
	"fmt"
	"time"

	"github.com/pollfit/pollfit/fit"
	"regexp"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
)

// namedSchedule is a --schedule or --baseline argument resolved: a
// schedule, or a retry strategy (sched is then nil).
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

func parseSpecs(args []string) ([]namedSchedule, error) {
	var out []namedSchedule
	seen := map[string]bool{}
	for _, a := range args {
		name, spec := splitSpec(a)
		if seen[name] {
			return nil, usagef("schedule name %q given twice", name)
		}
		seen[name] = true
		n := namedSchedule{name: name, spec: spec}
		var err error
		if backoff.IsSpec(spec) {
			n.strategy, err = backoff.Parse(spec)
			if err == nil && n.strategy.Deterministic() {
				n.sched, err = backoff.Schedule(n.strategy, strategyLimit)
			}
		} else {
			n.sched, err = resolveSpec(spec)
		}
		if err != nil {
			return nil, fmt.Errorf("schedule %s: %v", name, err)
		}
		out = append(out, n)
	}
	return out, nil
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

// resolveSpec turns a spec into a schedule: the schedule language, or
// @FILE holding the language or an exported JSON document.
func resolveSpec(spec string) (*schedule.Schedule, error) {
	return export.ParseSpec(spec)
}

// replay replays a named schedule or strategy on a sample.
func (n namedSchedule) replay(smp fit.Sample, opt fit.ReplayOptions, seed uint64, runs int) (fit.Metrics, error) {
	var m fit.Metrics
	var err error
	if n.strategy != nil {
		m, err = fit.ReplayStrategySample(n.strategy, smp, opt, seed, runs)
	} else {
		m, err = fit.ReplaySample(n.sched, smp, opt)
	}
	m.Name = n.name
	return m, err
}
