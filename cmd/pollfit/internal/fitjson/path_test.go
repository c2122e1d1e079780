package fitjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func f64(x float64) *float64 { return &x }

// TestPath: the paths of fields through structs, pointers, slices and
// arrays, written out by hand from the json tags, and each one is where
// encoding/json writes the field's value.
func TestPath(t *testing.T) {
	j := &Fit{Decision: &Decision{Lag: f64(-0.25), LagCI: &[2]*float64{f64(-0.3), f64(-0.2)}},
		Fitted:      Row{Lag: Lag{Mean: f64(1.5)}, RequestsPerItem: f64(6)},
		Baselines:   []Row{{Name: "a"}, {Name: "b", StuckAsks: f64(30)}},
		Comparisons: []Comparison{{}, {Change: f64(-0.5), ChangeCI: &[2]*float64{f64(-0.6), f64(-0.4)}, Bracket: []Row{{}, {RequestsPerItem: f64(7)}}, SameLag: &SameLag{Schedule: "1s until 1m"}}},
		StuckCap:    StuckCap{Asks: 40}}
	c := &j.Comparisons[1]
	for _, tc := range []struct {
		field any
		want  string
	}{
		{&j.Fitted.Lag.Mean, "fitted.lag_s.mean"},
		{&j.Fitted.Lag, "fitted.lag_s"},
		{&j.Fitted, "fitted"},
		{&j.Fitted.Name, "fitted.name"}, // the first field, at the row's address
		{&j.Fitted.RequestsPerItem, "fitted.requests_per_item"},
		{&j.Decision.Lag, "decision.lag_change"},
		{&j.Decision.LagCI[1], "decision.lag_change_ci.1"},
		{&j.Baselines[1].StuckAsks, "baselines.1.stuck_asks"},
		{&c.Change, "comparisons.1.change"},
		{&c.ChangeCI[0], "comparisons.1.change_ci.0"},
		{&c.Bracket[1].RequestsPerItem, "comparisons.1.bracket.1.requests_per_item"},
		{&c.SameLag.Schedule, "comparisons.1.same_lag.schedule"},
		{&j.StuckCap.Asks, "stuck_cap.asks"},
		{&j.Comparisons[0].Change, "comparisons.0.change"},
	} {
		got, err := Path(j, tc.field)
		if err != nil || got != tc.want {
			t.Errorf("Path(%T) = %q, %v; want %q", tc.field, got, err, tc.want)
			continue
		}
		if err := holds(j, got, tc.field); err != nil {
			t.Error(err)
		}
	}
}

// holds checks that the JSON of j has at path what field points to.
func holds(j *Fit, path string, field any) error {
	doc, _ := json.Marshal(j)
	var v any
	_ = json.Unmarshal(doc, &v)
	for _, k := range strings.Split(path, ".") {
		switch n := v.(type) {
		case map[string]any:
			v = n[k]
		case []any:
			i := int(k[0] - '0')
			v = n[i]
		}
	}
	b, _ := json.Marshal(field)
	var w any
	_ = json.Unmarshal(b, &w) // as v, keys sorted
	want, _ := json.Marshal(w)
	got, _ := json.Marshal(v)
	if string(want) != string(got) {
		return &pathError{path, string(got), string(want)}
	}
	return nil
}

type pathError struct{ path, got, want string }

func (e *pathError) Error() string {
	return e.path + ": the JSON has " + e.got + ", the field " + e.want
}

// TestPathRefuses: a pointer into a copy, a nil or non-pointer field,
// and a field inside a value that writes its own JSON have no path.
func TestPathRefuses(t *testing.T) {
	j := &Fit{Comparisons: []Comparison{{Change: f64(1)}}, Fitted: Row{AsksBy: AsksBy{{Age: "30s", Asks: f64(3)}}}}
	c := j.Comparisons[0] // a copy
	for name, field := range map[string]any{
		"a copy":               &c.Change,
		"an own-JSON value":    &j.Fitted.AsksBy[0].Asks,
		"not a pointer":        j.Fitted.Name,
		"a nil pointer":        (*float64)(nil),
		"outside the document": f64(1),
	} {
		if p, err := Path(j, field); err == nil {
			t.Errorf("%s: Path = %q, want an error", name, p)
		}
	}
	if _, err := Path(*j, &j.Fitted); err == nil {
		t.Error("Path of a root that is not a pointer: no error")
	}
}
