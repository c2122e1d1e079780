package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/internal/quote"
)

// A baseline of one value under --by is VALUE:NAME=SPEC ("card:prod=2s
// until 1m"), the value quoted as the schedule language quotes it when
// it holds other characters ("\"bank transfer\":prod=..."); a baseline
// without a value is every value's.
var (
	valueSpec  = regexp.MustCompile(`^\s*([A-Za-z0-9_.:-]+):([A-Za-z0-9_.-]+)\s*=`)
	quotedSpec = regexp.MustCompile(`^\s*("(?:[^"\\]|\\.)*"):([A-Za-z0-9_.-]+)\s*=`)
)

// valueBaseline is one value's --baseline.
type valueBaseline struct {
	value, arg string // arg is NAME=SPEC
}

// splitByBaselines splits --baseline arguments under --by into every
// value's (as given) and one value's.
func splitByBaselines(args []string) (all []string, own []valueBaseline, err error) {
	for _, a := range args {
		m := quotedSpec.FindStringSubmatch(a)
		value := ""
		if m != nil {
			if value, err = strconv.Unquote(m[1]); err != nil {
				return nil, nil, usagef("--baseline %s: the value %s is not quoted right: %v", quote.Clip(a), m[1], err)
			}
		} else if m = valueSpec.FindStringSubmatch(a); m != nil {
			value = m[1]
		}
		if m == nil {
			all = append(all, a)
			continue
		}
		own = append(own, valueBaseline{value: value, arg: m[2] + "=" + a[len(m[0]):]})
	}
	return all, own, nil
}

// groupBaselines gives each group its own baselines and its label
// ("method card"); a value no group has is a usage error naming the
// values there are.
func groupBaselines(by string, segs []fit.Group, own []valueBaseline) error {
	values := make([]string, len(segs))
	for i := range segs {
		values[i] = segs[i].Value
		segs[i].Label = by + " " + groupName(segs[i].Value)
	}
	for _, vb := range own {
		i := slices.Index(values, vb.value)
		if i < 0 {
			return usagef("--baseline %s:%s: %s is not a value of %s (its values: %s); VALUE:NAME=SPEC gives one value a baseline, NAME=SPEC every value",
				groupName(vb.value), quote.Clip(vb.arg), groupName(vb.value), by, valueList(values))
		}
		named, err := parseBaselines([]string{vb.arg})
		if err != nil {
			return fmt.Errorf("--baseline for %s %s: %w", by, groupName(vb.value), err)
		}
		for _, b := range segs[i].Baselines {
			if b.Name == named[0].name {
				return usagef("--baseline: %s %s has two baselines named %s", by, groupName(vb.value), named[0].name)
			}
		}
		segs[i].Baselines = append(segs[i].Baselines, fit.Baseline{Name: named[0].name, Schedule: named[0].sched})
	}
	return nil
}

// valueList is up to ten values, quoted as the schedule language quotes
// them.
func valueList(values []string) string {
	var out []string
	for i, v := range values {
		if i == 10 {
			out = append(out, fmt.Sprintf("and %d more", len(values)-10))
			break
		}
		out = append(out, groupName(v))
	}
	return strings.Join(out, ", ")
}
