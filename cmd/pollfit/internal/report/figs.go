package report

import (
	"fmt"
	"strconv"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/fitjson"
	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// figs makes the parts that show figures read from root, a JSON
// document of the study (a *fitjson.Fit), each figure keyed by prefix
// and its path in that JSON (fitjson.Path): a field renamed in the
// schema fails to compile here, a key renamed moves the figure's key
// with it.
type figs struct {
	root   any
	prefix string
}

// key is where in the JSON the field p points to is.
func (f figs) key(p any) string { return f.prefix + fitjson.MustPath(f.root, p) }

// at is the figure v of the field p, shown as text.
func (f figs) at(p any, v float64, text string) Part {
	return Part{Text: text, Figs: []Fig{{f.key(p), g(v)}}}
}

// num is the figure *p shown as text(**p); "-" and no figure when it is
// null (not finite).
func (f figs) num(p **float64, text func(float64) string) Part {
	if *p == nil {
		return plain("-")
	}
	return f.at(p, **p, text(**p))
}

// age is the figure *p in seconds, shown as an age.
func (f figs) age(p **float64) Part { return f.num(p, schedule.FormatAge) }

// number is the figure *p shown as num does.
func (f figs) number(p **float64) Part { return f.num(p, num) }

// ci is the interval *p, "low – high", or "-" without one (null, or
// both ends 0: no bootstrap).
func (f figs) ci(p **[2]*float64, text func(float64) string) Part {
	c := *p
	if c == nil || c[0] == nil || c[1] == nil || (*c[0] == 0 && *c[1] == 0) {
		return plain("-")
	}
	return Part{Text: text(*c[0]) + " – " + text(*c[1]), Figs: []Fig{{f.key(&c[0]), g(*c[0])}, {f.key(&c[1]), g(*c[1])}}}
}

// code is the text *p, a figure shown in the schedule language.
func (f figs) code(p *string) Part {
	return Part{Text: *p, Figs: []Fig{{f.key(p), *p}}, Code: true}
}

// withCI adds to the part p the figures of the interval c of the
// figure p shows, when it has one.
func (f figs) withCI(p Part, c *[2]*float64) Part {
	if c != nil && c[0] != nil && c[1] != nil {
		p.Figs = append(p.Figs, Fig{f.key(&c[0]), g(*c[0])}, Fig{f.key(&c[1]), g(*c[1])})
	}
	return p
}

// g is a figure as JSON writes it: the shortest text that reads back
// as x.
func g(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// cmp is the summary's comparison with today's schedule, the first
// baseline: its figures read from j (its JSON), base (the baseline's
// row) and cost (the row of the fit at its cost) in the document f
// reads; its words from st.
type cmp struct {
	f          figs
	j          *fitjson.Comparison
	base, cost *fitjson.Row
	st         fit.Comparison
}

// sameCost is the comparison at today's cost: "the same cost" only
// where it is read there, else both changes at the two costs.
func (c cmp) sameCost() Sentence {
	j, f := c.j, c.f
	ch := Part{Text: c.st.Changes()}
	if j.Change != nil {
		ch = f.at(&j.Change, *j.Change, ch.Text)
	}
	if !c.st.AtSameCost() && j.Requests != nil {
		ch.Figs = append(ch.Figs, Fig{f.key(&j.Requests), g(*j.Requests)})
	}
	ch = f.withCI(ch, j.ChangeCI)
	lags := []Part{f.age(&j.EqualCostLag), plain(" against "), f.age(&c.base.Lag.Mean)}
	if j.Interpolated {
		s := append(Sentence{plain("At the same cost as " + j.Name + ": "), ch, plain(": ")}, lags...)
		return append(s, plain(" at "+j.Name+"'s "), f.number(&c.base.RequestsPerItem),
			plain(" requests per item, read between fits that spent "), f.number(&j.Bracket[0].RequestsPerItem),
			plain(" and "), f.number(&j.Bracket[1].RequestsPerItem),
			plain(" (the fit at "+j.Name+"'s cost on the fitting items spent "), f.number(&c.cost.RequestsPerItem), plain(")."))
	}
	head := "At the same cost as " + j.Name + ": "
	if !j.SameCost {
		head = "Against " + j.Name + ", at the fit at its cost: "
	}
	s := append(Sentence{plain(head), ch, plain(": ")}, lags...)
	s = append(s, plain(" at "), f.number(&c.cost.RequestsPerItem), plain(" against "), f.number(&c.base.RequestsPerItem),
		plain(" requests per item, on the same held-out items"))
	if j.NoBracket {
		s = append(s, plain("; no fit spent "+j.Name+"'s held-out cost, so this is the fit's own pair"))
	}
	return append(s, plain("."))
}

// sameLag is the comparison at today's lag.
func (c cmp) sameLag() Sentence {
	j, f, r := c.j, c.f, c.j.SameLag
	if r == nil {
		return Sentence{plain(fmt.Sprintf("At the same lag as %s: no fit up to %s's cost waits as little on the held-out items.", j.Name, j.Name))}
	}
	return Sentence{plain("At the same lag as " + j.Name + ": "), f.num(&r.Saving, func(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }),
		plain(" fewer requests, "), f.number(&r.Row.RequestsPerItem), plain(" against "), f.number(&c.base.RequestsPerItem),
		plain(" per item, waiting "), f.age(&r.Row.Lag.Mean), plain(" against "), f.age(&c.base.Lag.Mean),
		plain(", with "), f.code(&r.Schedule), plain(".")}
}
