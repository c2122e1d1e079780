package estimate

import (
	"fmt"
	"time"
)

// Status is what a log says about an item when it was last seen.
type Status uint8

const (
	// Pending: no final answer yet; the item is right-censored at its age.
	Pending Status = iota
	// Settled: the item succeeded (settled, succeeded, completed, ...).
	Settled
	// Failed: the item failed. A failure is a final answer too: it is
	// what the poller waits for just as much as a success.
	Failed
)

// Final reports whether s is a final answer (settled or failed).
func (s Status) Final() bool { return s == Settled || s == Failed }

func (s Status) String() string {
	switch s {
	case Pending:
		return "pending"
	case Settled:
		return "settled"
	case Failed:
		return "failed"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Item is one row of a settle-time log, reduced to what pollfit needs.
// Its zero value knows nothing but an age of 0 and a pending status: no
// creation time and no signal. The flags Dated and Signalled say which
// of Created and Signal hold a value, so that the Unix epoch and a
// signal at age 0 are values like any other.
type Item struct {
	// Age is in seconds: from creation to the final answer for a final
	// item, from creation to the end of observation for a pending one.
	Age float64
	// Created is the creation time in Unix nanoseconds (UTC); it means
	// nothing unless Dated. Wall-clock aligned schedules and periodicity
	// need it.
	Created int64
	// Signal is the age in seconds at which a signal (a push, the app
	// coming to the foreground) reached the client; it means nothing
	// unless Signalled.
	Signal float64
	// Status says whether Age is a final answer or a censoring age.
	Status Status
	// Dated says whether the log gives the creation time (not just a
	// duration).
	Dated bool
	// Signalled says whether a signal reached the client.
	Signalled bool
}

// HasSignal reports whether a signal reached the client for this item.
func (it Item) HasSignal() bool { return it.Signalled }

// HasCreated reports whether the item's creation time is known.
func (it Item) HasCreated() bool { return it.Dated }

// WithCreated returns it created at t.
func (it Item) WithCreated(t time.Time) Item {
	it.Created, it.Dated = t.UnixNano(), true
	return it
}

// WithSignal returns it with a signal at age seconds.
func (it Item) WithSignal(age float64) Item {
	it.Signal, it.Signalled = age, true
	return it
}
