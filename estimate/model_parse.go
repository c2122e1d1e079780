package estimate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
	"gonum.org/v1/gonum/stat/distuv"
)

// ModelError is a fault in model text, with the column (1-based, in
// bytes) where it was found.
type ModelError struct {
	Col  int
	Msg  string
	Text string
}

// Error gives "model:col: msg" followed by the text and a caret under the
// fault.
// A text longer than 200 bytes is cut to a window around the caret.
func (e *ModelError) Error() string {
	text, col := e.Text, e.Col-1
	if len(text) > quote.Max {
		lo := max(0, min(col-quote.Max/2, len(text)-quote.Max))
		hi := min(len(text), lo+quote.Max)
		text, col = text[lo:hi], col-lo
		if lo > 0 {
			text, col = "..."+text, col+3
		}
		if hi < len(e.Text) {
			text += "..."
		}
	}
	return fmt.Sprintf("model:%d: %s\n\t%s\n\t%s^", e.Col, e.Msg, text, strings.Repeat(" ", max(col, 0)))
}

// ParseModel reads a settle-time model (see Model for the language):
// terms separated by "+", each "[weight*]name(key=value, ...)" or
// "weight*never". Durations use Go syntax ("500ms", "1.5s", "2m", "1h")
// with "d" for a day; shape and sigma are plain numbers. The parameters:
//
//	lognormal(median=D, sigma=X)   exponential(mean=D)
//	weibull(shape=X, scale=D)      normal(mean=D, sd=D), truncated at 0
//	gamma(shape=X, scale=D)        uniform(min=D, max=D)
//	point(at=D)
func ParseModel(src string) (*Model, error) {
	p := &modelParser{src: src}
	m := &Model{}
	var sum float64
	weighted := 0
	for {
		p.space()
		start := p.pos
		w, hasW, err := p.weight()
		if err != nil {
			return nil, err
		}
		t, err := p.term()
		if err != nil {
			return nil, err
		}
		if hasW {
			weighted++
		}
		t.w = w
		if t.name == "never" {
			if !hasW {
				return nil, p.errAt(start, "never needs a weight, as in 0.02*never")
			}
			m.never += w
		} else {
			m.terms = append(m.terms, t)
		}
		sum += w
		p.space()
		if p.pos == len(src) {
			break
		}
		if src[p.pos] != '+' {
			return nil, p.errAt(p.pos, fmt.Sprintf("expected + or the end, found %q", src[p.pos:p.pos+1]))
		}
		p.pos++
	}
	n := len(m.terms)
	if m.never > 0 {
		n++
	}
	switch {
	case len(m.terms) == 0:
		return nil, p.errAt(0, "model has no settling term")
	case n > 1 && weighted < n:
		return nil, p.errAt(0, "every term of a mixture needs a weight, as in 0.3*lognormal(...)")
	case n > 1 && math.Abs(sum-1) > 1e-6:
		return nil, p.errAt(0, fmt.Sprintf("weights sum to %g, not 1", sum))
	case n == 1 && weighted == 1 && math.Abs(sum-1) > 1e-6:
		return nil, p.errAt(0, fmt.Sprintf("a single term's weight must be 1, not %g", sum))
	}
	if n == 1 {
		m.terms[0].w = 1
	}
	return m, nil
}

type modelParser struct {
	src string
	pos int
}

func (p *modelParser) errAt(off int, msg string) error {
	return &ModelError{Col: off + 1, Msg: msg, Text: p.src}
}

func (p *modelParser) space() {
	for p.pos < len(p.src) && strings.ContainsRune(" \t\n\r", rune(p.src[p.pos])) {
		p.pos++
	}
}

// word reads a run of characters that are not spaces or punctuation.
func (p *modelParser) word() (string, int) {
	p.space()
	start := p.pos
	for p.pos < len(p.src) && !strings.ContainsRune(" \t\n\r*+(),=", rune(p.src[p.pos])) {
		p.pos++
	}
	return p.src[start:p.pos], start
}

// weight reads an optional "number*".
func (p *modelParser) weight() (float64, bool, error) {
	save := p.pos
	w, at := p.word()
	p.space()
	if p.pos >= len(p.src) || p.src[p.pos] != '*' {
		p.pos = save
		return 1, false, nil
	}
	p.pos++
	v, err := strconv.ParseFloat(w, 64)
	if err != nil || v <= 0 || v > 1 || math.IsNaN(v) {
		return 0, false, p.errAt(at, fmt.Sprintf("weight must be a number in (0, 1], not %q", quote.Clip(w)))
	}
	return v, true, nil
}

func (p *modelParser) expect(c byte) error {
	p.space()
	if p.pos >= len(p.src) || p.src[p.pos] != c {
		found := "the end"
		if p.pos < len(p.src) {
			found = strconv.Quote(p.src[p.pos : p.pos+1])
		}
		return p.errAt(p.pos, fmt.Sprintf("expected %q, found %s", c, found))
	}
	p.pos++
	return nil
}

// term reads "name(key=value, ...)" or "never".
func (p *modelParser) term() (term, error) {
	name, at := p.word()
	name = strings.ToLower(name)
	if name == "" {
		return term{}, p.errAt(at, "expected a distribution name such as lognormal")
	}
	if name == "never" {
		return term{name: name}, nil
	}
	spec, ok := modelSpecs[name]
	if !ok {
		return term{}, p.errAt(at, fmt.Sprintf("unknown distribution %q (known: exponential, gamma, lognormal, normal, point, uniform, weibull, never)", quote.Clip(name)))
	}
	if err := p.expect('('); err != nil {
		return term{}, err
	}
	vals := map[string]float64{}
	t := term{name: name}
	for _, key := range spec.keys {
		if len(vals) > 0 {
			if err := p.expect(','); err != nil {
				return term{}, err
			}
		}
		k, kat := p.word()
		if strings.ToLower(k) != key {
			return term{}, p.errAt(kat, fmt.Sprintf("%s expects %s= here, found %q", name, key, quote.Clip(k)))
		}
		if err := p.expect('='); err != nil {
			return term{}, err
		}
		v, vat := p.word()
		x, err := parseParam(v, durationKey(key))
		if err != nil {
			return term{}, p.errAt(vat, fmt.Sprintf("%s: %v", key, err))
		}
		vals[key] = x
		t.args = append(t.args, key+"="+v)
	}
	if err := p.expect(')'); err != nil {
		return term{}, err
	}
	d, err := spec.make(vals)
	if err != nil {
		return term{}, p.errAt(at, fmt.Sprintf("%s: %v", name, err))
	}
	t.d = d
	return t, nil
}

// durationKey reports whether a parameter is a duration (else a number).
func durationKey(k string) bool { return k != "shape" && k != "sigma" }

// parseParam reads a duration (in seconds, at most MaxAge) or a number.
func parseParam(v string, duration bool) (float64, error) {
	x, err := parseParamValue(v, duration)
	if err == nil && duration && x > maxAgeSeconds {
		return 0, fmt.Errorf("%q is longer than the maximum age of 100 years", quote.Clip(v))
	}
	return x, err
}

func parseParamValue(v string, duration bool) (float64, error) {
	if !duration {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return 0, fmt.Errorf("%q is not a number", quote.Clip(v))
		}
		return x, nil
	}
	d, err := schedule.ParseDuration(v)
	if err != nil {
		return 0, err
	}
	return seconds(d), nil
}

type modelSpec struct {
	keys []string
	make func(v map[string]float64) (component, error)
}

func positive(v map[string]float64, keys ...string) error {
	for _, k := range keys {
		if !(v[k] > 0) {
			return fmt.Errorf("%s must be positive", k)
		}
	}
	return nil
}

var modelSpecs = map[string]modelSpec{
	"lognormal": {[]string{"median", "sigma"}, func(v map[string]float64) (component, error) {
		return distuv.LogNormal{Mu: math.Log(v["median"]), Sigma: v["sigma"]}, positive(v, "median", "sigma")
	}},
	"weibull": {[]string{"shape", "scale"}, func(v map[string]float64) (component, error) {
		return distuv.Weibull{K: v["shape"], Lambda: v["scale"]}, positive(v, "shape", "scale")
	}},
	"gamma": {[]string{"shape", "scale"}, func(v map[string]float64) (component, error) {
		return distuv.Gamma{Alpha: v["shape"], Beta: 1 / v["scale"]}, positive(v, "shape", "scale")
	}},
	"exponential": {[]string{"mean"}, func(v map[string]float64) (component, error) {
		return distuv.Exponential{Rate: 1 / v["mean"]}, positive(v, "mean")
	}},
	"normal": {[]string{"mean", "sd"}, func(v map[string]float64) (component, error) {
		n := distuv.Normal{Mu: v["mean"], Sigma: v["sd"]}
		return truncNormal{n: n, p0: n.CDF(0)}, positive(v, "sd")
	}},
	"uniform": {[]string{"min", "max"}, func(v map[string]float64) (component, error) {
		if !(v["min"] >= 0 && v["max"] > v["min"]) {
			return nil, fmt.Errorf("need 0 ≤ min < max")
		}
		return distuv.Uniform{Min: v["min"], Max: v["max"]}, nil
	}},
	"point": {[]string{"at"}, func(v map[string]float64) (component, error) {
		if v["at"] < 0 {
			return nil, fmt.Errorf("at must not be negative")
		}
		return pointMass(v["at"]), nil
	}},
}
