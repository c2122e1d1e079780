package schedule

import (
	"fmt"
	"strings"
	"time"

	"github.com/pollfit/pollfit/internal/quote"
)

// SyntaxError is a fault in schedule text, with the line and column
// (1-based, in bytes) where it was found.
type SyntaxError struct {
	Line, Col int
	Msg       string
	Text      string // the offending line of input
}

// Error gives "line:col: msg" followed by the line and a caret under the
// fault. A line longer than echoWidth bytes is cut to a window around
// the caret, marked with "...".
func (e *SyntaxError) Error() string {
	text, col := echoWindow(e.Text, e.Col-1)
	return fmt.Sprintf("%d:%d: %s\n\t%s\n\t%s^", e.Line, e.Col, e.Msg, text, strings.Repeat(" ", col))
}

// echoWidth is the most bytes of a line a SyntaxError echoes.
const echoWidth = 200

// echoWindow cuts text to at most about echoWidth bytes around byte col,
// returning the window and the caret's column in it.
func echoWindow(text string, col int) (string, int) {
	if len(text) <= echoWidth {
		return text, col
	}
	col = max(0, min(col, len(text)))
	lo := max(0, col-echoWidth/2)
	hi := min(len(text), lo+echoWidth)
	lo = max(0, hi-echoWidth)
	w := text[lo:hi]
	if lo > 0 {
		w, col = "..."+w, col-lo+3
	}
	if hi < len(text) {
		w += "..."
	}
	return w, col
}

type token struct {
	text      string
	off       int // byte offset in the input
	line, col int
}

type parser struct {
	src  string
	toks []token
	pos  int
	// Where each clause was written, for pointing Validate's errors at
	// the source: the first token of every age and aligned clause, and
	// the token of every explicit ask.
	clauseAt  []token
	askAt     [][]token
	alignedAt []token
}

// Parse reads a schedule written in the pollfit schedule language (see
// the package documentation) and validates it.
func Parse(src string) (*Schedule, error) {
	if len(src) > MaxText {
		line, _, _ := strings.Cut(src, "\n")
		return nil, &SyntaxError{Line: 1, Col: 1, Text: line,
			Msg: fmt.Sprintf("schedule text of %d bytes is longer than the %d pollfit reads", len(src), MaxText)}
	}
	p := &parser{src: src, toks: tokenize(src)}
	s := &Schedule{}
	if len(p.toks) == 0 {
		return nil, p.errAt(len(src), "empty schedule")
	}
	for {
		if err := p.clause(s); err != nil {
			return nil, err
		}
		if p.pos == len(p.toks) {
			break
		}
		if t := p.next(); t.text != "," {
			return nil, p.errTok(t, fmt.Sprintf("expected , between clauses, found %q", quote.Clip(t.text)))
		}
		if p.pos == len(p.toks) {
			return nil, p.errAt(len(src), "expected a clause after ,")
		}
	}
	if err := p.validate(s); err != nil {
		return nil, err
	}
	return s, nil
}

// tokenize splits src into words, commas and plus signs; "#" starts a
// comment that runs to the end of the line.
func tokenize(src string) []token {
	var toks []token
	line, lineStart := 1, 0
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line, lineStart = line+1, i+1
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case c == ',' || c == '+':
			toks = append(toks, token{string(c), i, line, i - lineStart + 1})
			i++
		default:
			j := i
			for j < len(src) && !strings.ContainsRune(" \t\r\n,+#", rune(src[j])) {
				j++
			}
			toks = append(toks, token{src[i:j], i, line, i - lineStart + 1})
			i = j
		}
	}
	return toks
}

func (p *parser) peek() token {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return token{off: len(p.src)}
}

func (p *parser) next() token { t := p.peek(); p.pos++; return t }

func (p *parser) more() bool { return p.pos < len(p.toks) && p.toks[p.pos].text != "," }

func (p *parser) clause(s *Schedule) error {
	t := p.peek()
	switch strings.ToLower(t.text) {
	case "at":
		p.next()
		c := Clause{}
		var at []token
		for p.more() {
			at = append(at, p.peek())
			d, err := p.duration()
			if err != nil {
				return err
			}
			c.At = append(c.At, d)
		}
		p.clauseAt, p.askAt = append(p.clauseAt, t), append(p.askAt, at)
		if len(c.At) == 0 {
			return p.errTok(p.peek(), "expected ages after at")
		}
		s.Clauses = append(s.Clauses, c)
	case "every":
		return p.aligned(s)
	case "reset":
		for _, w := range []string{"reset", "on", "signal"} {
			if t := p.next(); strings.ToLower(t.text) != w {
				return p.errTok(t, fmt.Sprintf("expected %q in \"reset on signal\"", w))
			}
		}
		if s.ResetOnSignal {
			return p.errTok(t, "reset on signal given twice")
		}
		s.ResetOnSignal = true
	default:
		d, err := p.period("interval")
		if err != nil {
			return err
		}
		c := Clause{Every: d, Forever: true}
		p.clauseAt, p.askAt = append(p.clauseAt, t), append(p.askAt, nil)
		if strings.EqualFold(p.peek().text, "until") {
			p.next()
			if c.Until, err = p.duration(); err != nil {
				return err
			}
			c.Forever = false
		}
		s.Clauses = append(s.Clauses, c)
	}
	if p.more() {
		return p.errTok(p.peek(), fmt.Sprintf("unexpected %q", quote.Clip(p.peek().text)))
	}
	return nil
}

func (p *parser) aligned(s *Schedule) error {
	p.alignedAt = append(p.alignedAt, p.next())
	a := Aligned{}
	var err error
	if a.Period, err = p.period("period"); err != nil {
		return err
	}
	if t := p.next(); !strings.EqualFold(t.text, "at") {
		return p.errTok(t, "expected at after every PERIOD (as in: every 5m at +2s +5s)")
	}
	for p.peek().text == "+" {
		p.next()
		d, err := p.duration()
		if err != nil {
			return err
		}
		a.Offsets = append(a.Offsets, d)
	}
	if len(a.Offsets) == 0 {
		return p.errTok(p.peek(), "expected offsets such as +2s after every PERIOD at")
	}
	if strings.EqualFold(p.peek().text, "until") {
		p.next()
		if a.Until, err = p.duration(); err != nil {
			return err
		}
		if a.Until == 0 {
			return p.errTok(p.toks[p.pos-1], "until must be after age 0")
		}
	}
	s.Aligned = append(s.Aligned, a)
	return nil
}

func (p *parser) duration() (time.Duration, error) {
	t := p.next()
	if t.text == "" || t.text == "," || t.text == "+" {
		return 0, p.errTok(t, "expected a duration such as 2s")
	}
	d, err := ParseDuration(t.text)
	if err != nil {
		return 0, p.errTok(t, err.Error())
	}
	return d, nil
}

// MaxText is the longest schedule text Parse reads, 256 KiB: thousands
// of explicit asks, and a bound on the memory its tokens take.
const MaxText = 256 << 10

// MinPeriod is the shortest interval or aligned period the schedule
// language accepts. Logs record times to the millisecond at best, and a
// shorter period would only make simulations ask billions of times.
const MinPeriod = time.Millisecond

// period reads an interval or an aligned period of at least MinPeriod.
func (p *parser) period(what string) (time.Duration, error) {
	t := p.peek()
	d, err := p.duration()
	if err == nil && d > 0 && d < MinPeriod {
		return 0, p.errTok(t, fmt.Sprintf("%s %s is shorter than the minimum %s (write 1ms or more)", what, FormatDuration(d), FormatDuration(MinPeriod)))
	}
	return d, err
}

func (p *parser) errTok(t token, msg string) error { return p.errAt(t.off, msg) }

func (p *parser) errAt(off int, msg string) error {
	lineStart := strings.LastIndexByte(p.src[:off], '\n') + 1
	lineEnd := strings.IndexByte(p.src[off:], '\n')
	if lineEnd < 0 {
		lineEnd = len(p.src)
	} else {
		lineEnd += off
	}
	line := strings.Count(p.src[:off], "\n") + 1
	return &SyntaxError{Line: line, Col: off - lineStart + 1, Msg: msg, Text: p.src[lineStart:lineEnd]}
}

// validate runs Validate and points its error at the clause at fault.
func (p *parser) validate(s *Schedule) error {
	err := s.Validate()
	ce, ok := err.(*ClauseError)
	switch {
	case err == nil:
		return nil
	case !ok:
		return p.errAt(0, err.Error())
	case ce.Aligned:
		return p.errTok(p.alignedAt[ce.Index], ce.Msg)
	case ce.Ask >= 0:
		return p.errTok(p.askAt[ce.Index][ce.Ask], ce.Msg)
	}
	return p.errTok(p.clauseAt[ce.Index], ce.Msg)
}
