package estimate

import (
	"fmt"
	"math"
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

// NoTime marks an unknown creation time in Item.Created.
const NoTime int64 = math.MinInt64

// Item is one row of a settle-time log, reduced to what pollfit needs.
type Item struct {
	// Age is in seconds: from creation to the final answer for a final
	// item, from creation to the end of observation for a pending one.
	Age float64
	// Status says whether Age is a final answer or a censoring age.
	Status Status
	// Created is the creation time in Unix nanoseconds (UTC), or NoTime
	// when the log gives durations only. Wall-clock aligned schedules and
	// periodicity need it.
	Created int64
	// Signal is the age in seconds at which a signal (a push, the app
	// coming to the foreground) reached the client, or NaN when none did.
	Signal float64
}

// HasSignal reports whether a signal reached the client for this item.
func (it Item) HasSignal() bool { return !math.IsNaN(it.Signal) }

// HasCreated reports whether the item's creation time is known.
func (it Item) HasCreated() bool { return it.Created != NoTime }
