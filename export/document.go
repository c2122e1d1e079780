package export

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
)

// readDocument reads a version 1 document at path. It accepts a little
// more than the schema requires: "aligned", "reset_on_signal",
// "schedule", "stops" and "end_ms" may be left out; when given, the
// last three must agree with the clauses.
func readDocument(path string, obj map[string]any) (*schedule.Schedule, *Meta, error) {
	if err := onlyKeys(path, obj, "version", "schedule", "clauses", "aligned", "reset_on_signal", "stops", "end_ms", "meta"); err != nil {
		return nil, nil, err
	}
	vp := join(path, "version")
	ver, ok := obj["version"].(json.Number)
	if !ok {
		return nil, nil, fieldErr(vp, "expected a number, found %s", kindOf(obj["version"]))
	}
	if n, err := ver.Int64(); err != nil || n != Version {
		return nil, nil, fieldErr(vp, "unsupported version %s (this pollfit reads version %d)", ver, Version)
	}
	s := &schedule.Schedule{}
	var err error
	if s.Clauses, err = readList(join(path, "clauses"), obj["clauses"], readClause); err != nil {
		return nil, nil, err
	}
	if s.Aligned, err = readList(join(path, "aligned"), obj["aligned"], readAligned); err != nil {
		return nil, nil, err
	}
	if v, ok := obj["reset_on_signal"]; ok {
		if s.ResetOnSignal, ok = v.(bool); !ok {
			return nil, nil, fieldErr(join(path, "reset_on_signal"), "expected true or false, found %s", kindOf(v))
		}
	}
	if err := validate(path, s); err != nil {
		return nil, nil, err
	}
	if err := checkText(path, s); err != nil {
		return nil, nil, err
	}
	if err := checkDerived(path, obj, s); err != nil {
		return nil, nil, err
	}
	var meta *Meta
	if v, ok := obj["meta"]; ok {
		if meta, err = readMeta(join(path, "meta"), v); err != nil {
			return nil, nil, err
		}
	}
	return s, meta, nil
}

// validate runs s.Validate and points its error at the JSON path.
func validate(path string, s *schedule.Schedule) error {
	err := s.Validate()
	var ce *schedule.ClauseError
	switch {
	case err == nil:
		return nil
	case !errors.As(err, &ce):
		return fieldErr(path, "%v: no clauses and no aligned asks", err)
	case ce.Aligned:
		return fieldErr(index(join(path, "aligned"), ce.Index), "%s", ce.Msg)
	case ce.Ask >= 0:
		return fieldErr(index(index(join(path, "clauses"), ce.Index)+".at_ms", ce.Ask), "%s", ce.Msg)
	}
	return fieldErr(index(join(path, "clauses"), ce.Index), "%s", ce.Msg)
}

// checkDerived checks that "schedule", "stops" and "end_ms", when
// given, describe s.
func checkDerived(path string, obj map[string]any, s *schedule.Schedule) error {
	want := schedule.Format(s)
	if v, ok := obj["schedule"]; ok {
		text, ok := v.(string)
		if !ok {
			return fieldErr(join(path, "schedule"), "expected a string, found %s", kindOf(v))
		}
		t, err := schedule.Parse(text)
		if err != nil {
			return fieldErr(join(path, "schedule"), "%v", err)
		}
		if got := schedule.Format(t); got != want {
			return fieldErr(join(path, "schedule"), "%q does not match the clauses, which say %q", got, want)
		}
	}
	end, stops := s.End()
	if v, ok := obj["stops"]; ok {
		b, ok := v.(bool)
		if !ok {
			return fieldErr(join(path, "stops"), "expected true or false, found %s", kindOf(v))
		}
		if b != stops {
			return fieldErr(join(path, "stops"), "is %t but the clauses say %t", b, stops)
		}
	}
	if v, ok := obj["end_ms"]; ok {
		p := join(path, "end_ms")
		d, err := readMS(p, v)
		if err != nil {
			return err
		}
		if !stops {
			return fieldErr(p, "given for a schedule that never stops")
		}
		if d != end {
			return fieldErr(p, "is %s but the clauses end at %s", ms(d), ms(end))
		}
	}
	return nil
}

func readClause(path string, v any) (schedule.Clause, error) {
	var c schedule.Clause
	obj, ok := v.(map[string]any)
	if !ok {
		return c, fieldErr(path, "expected an object, found %s", kindOf(v))
	}
	kind, ok := obj["kind"].(string)
	if !ok {
		return c, fieldErr(join(path, "kind"), "expected \"at\" or \"every\", found %s", kindOf(obj["kind"]))
	}
	var err error
	switch kind {
	case "at":
		if err := onlyKeys(path, obj, "kind", "at_ms"); err != nil {
			return c, err
		}
		c.At, err = readMSList(join(path, "at_ms"), obj["at_ms"])
		return c, err
	case "every":
		if err := onlyKeys(path, obj, "kind", "every_ms", "until_ms", "forever"); err != nil {
			return c, err
		}
		if c.Every, err = readPositive(join(path, "every_ms"), obj["every_ms"]); err != nil {
			return c, err
		}
		c.Until, c.Forever, err = readUntil(path, obj, false)
		return c, err
	}
	return c, fieldErr(join(path, "kind"), "expected \"at\" or \"every\", found %q", kind)
}

func readAligned(path string, v any) (schedule.Aligned, error) {
	var a schedule.Aligned
	obj, ok := v.(map[string]any)
	if !ok {
		return a, fieldErr(path, "expected an object, found %s", kindOf(v))
	}
	if err := onlyKeys(path, obj, "period_ms", "offsets_ms", "until_ms", "forever"); err != nil {
		return a, err
	}
	var err error
	if a.Period, err = readPositive(join(path, "period_ms"), obj["period_ms"]); err != nil {
		return a, err
	}
	if a.Offsets, err = readMSList(join(path, "offsets_ms"), obj["offsets_ms"]); err != nil {
		return a, err
	}
	a.Until, _, err = readUntil(path, obj, true)
	return a, err
}

// readUntil reads "until_ms" or "forever": true, exactly one of them.
func readUntil(path string, obj map[string]any, positive bool) (until time.Duration, forever bool, err error) {
	u, hasUntil := obj["until_ms"]
	f, hasForever := obj["forever"]
	switch {
	case hasUntil && hasForever:
		return 0, false, fieldErr(path, "give until_ms or \"forever\": true, not both")
	case hasForever:
		if f != true {
			return 0, false, fieldErr(join(path, "forever"), "must be true when given (give until_ms to stop)")
		}
		return 0, true, nil
	case !hasUntil:
		return 0, false, fieldErr(path, "needs until_ms or \"forever\": true")
	case positive:
		until, err = readPositive(join(path, "until_ms"), u)
	default:
		until, err = readMS(join(path, "until_ms"), u)
	}
	return until, false, err
}

func readMeta(path string, v any) (*Meta, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, fieldErr(path, "expected an object, found %s", kindOf(v))
	}
	if err := onlyKeys(path, obj, "comment", "source", "budget", "metrics", "extra"); err != nil {
		return nil, err
	}
	m := &Meta{}
	for _, f := range []struct {
		key string
		dst *string
	}{{"comment", &m.Comment}, {"source", &m.Source}, {"budget", &m.Budget}} {
		if v, ok := obj[f.key]; ok {
			if *f.dst, ok = v.(string); !ok {
				return nil, fieldErr(join(path, f.key), "expected a string, found %s", kindOf(v))
			}
		}
	}
	if v, ok := obj["metrics"]; ok {
		mo, ok := v.(map[string]any)
		if !ok {
			return nil, fieldErr(join(path, "metrics"), "expected an object, found %s", kindOf(v))
		}
		m.Metrics = make(map[string]float64, len(mo))
		for _, k := range sortedKeys(mo) {
			n, ok := mo[k].(json.Number)
			f, err := n.Float64()
			if !ok || err != nil {
				return nil, fieldErr(join(join(path, "metrics"), k), "expected a finite number, found %s", kindOf(mo[k]))
			}
			m.Metrics[k] = f
		}
	}
	if v, ok := obj["extra"]; ok {
		if m.Extra, ok = v.(map[string]any); !ok {
			return nil, fieldErr(join(path, "extra"), "expected an object, found %s", kindOf(v))
		}
	}
	return m, nil
}
