package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/opterr"
)

// AsksOptions configures Asks. The zero value is usable for a schedule
// that stops.
type AsksOptions struct {
	// Horizon is the give-up age: the list ends with the last ask at or
	// before it. Zero means the schedule's End; a schedule that never
	// stops needs one.
	Horizon time.Duration
	// JSON writes one JSON object instead of one age per line.
	JSON bool
}

// asksDoc is the JSON form of Asks. Key order here is the order in the
// output.
type asksDoc struct {
	Schedule      string        `json:"schedule"`
	GiveUpMS      json.Number   `json:"give_up_ms"`
	ResetOnSignal bool          `json:"reset_on_signal"`
	AsksMS        []json.Number `json:"asks_ms"`
}

// Asks writes the ages of the asks of s, in milliseconds as exact
// decimals (see JSON), up to the give-up age: one per line, or with
// opt.JSON a JSON object
//
//	{"schedule": "at 0s 1s, 2s until 10s", "give_up_ms": 10000, "reset_on_signal": false, "asks_ms": [0, 1000, 3000, ...]}
//
// for a language pollfit writes no code for, or a configuration file.
// A client that resets on signal starts the list over at each signal.
// Asks refuses a schedule with wall-clock aligned clauses, whose asks
// depend on when each item was created, and one that never stops when
// opt.Horizon is 0.
func Asks(w io.Writer, s *schedule.Schedule, opt AsksOptions) error {
	if err := s.Validate(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	c := schedule.Canonical(s)
	if len(c.Aligned) > 0 {
		return fmt.Errorf("export: the asks format lists ages, and the aligned asks of %q depend on the wall clock; write it as json, go, js, ts or kotlin", schedule.Format(c))
	}
	h := opt.Horizon
	if h <= 0 {
		end, ok := c.End()
		if !ok {
			return fmt.Errorf("export: %w", opterr.Optionf("Horizon", nil, "%q never stops, so the asks format needs a give-up age: give Horizon (for example Horizon 1h)", schedule.Format(c)))
		}
		h = end
	}
	asks, err := c.Timeline().Asks(h)
	if err != nil {
		return fmt.Errorf("export: %w", opterr.Optionf("Horizon", schedule.FormatDuration(h), "%v; give a shorter Horizon", err))
	}
	var b bytes.Buffer
	if opt.JSON {
		doc := asksDoc{Schedule: schedule.Format(c), GiveUpMS: ms(h), ResetOnSignal: c.ResetOnSignal, AsksMS: []json.Number{}}
		for _, a := range asks {
			doc.AsksMS = append(doc.AsksMS, ms(a))
		}
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(doc); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	} else {
		for _, a := range asks {
			b.WriteString(string(ms(a)) + "\n")
		}
	}
	_, err = w.Write(b.Bytes())
	return err
}
