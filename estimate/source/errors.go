package source

import "fmt"

// OptionError is a setting of Options that Read refuses; Field names it
// as Go spells it (Holdout, Log.By, ...).
type OptionError struct {
	Field, Value, Want string
}

func (e *OptionError) Error() string {
	if e.Value == "" {
		return fmt.Sprintf("source: %s: want %s", e.Field, e.Want)
	}
	return fmt.Sprintf("source: %s %s: want %s", e.Field, e.Value, e.Want)
}

// SplitError is a sketch file whose split is not the one Options asks
// for with KeepSplit: a sketch keeps the split it was written with.
type SplitError struct {
	Holdout, WantHoldout float64
	Seed, WantSeed       uint64
}

func (e *SplitError) Error() string {
	return fmt.Sprintf("the sketches split %g (seed %d), not Holdout %g Seed %d: a sketch keeps the split it was written with", e.Holdout, e.Seed, e.WantHoldout, e.WantSeed)
}

// NoSampleError is a sketch without an item sample (a SQL engine's, or
// one written with no sample) read for a caller that needs what only the
// items carry: Missing ("creation times" or "signals"), which Need (a
// schedule or baseline, from Needs) needs.
type NoSampleError struct {
	Files, Missing, Need string
	// Plural: Need is a plural noun ("... aligned asks").
	Plural bool
}

func (e *NoSampleError) Error() string {
	verb := "needs"
	if e.Plural {
		verb = "need"
	}
	return fmt.Sprintf("read %s: the sketch keeps no item sample, so no %s, which %s %s", e.Files, e.Missing, e.Need, verb)
}

// GroupColumnError is a sketch file read with Log.By that is not split
// by that column: File's column is Got ("" for a sketch without groups).
type GroupColumnError struct {
	File, Want, Got string
}

func (e *GroupColumnError) Error() string {
	if e.Got == "" {
		return fmt.Sprintf("group column %s: %s is a sketch without groups", e.Want, e.File)
	}
	return fmt.Sprintf("group column %s: %s is a sketch by %s", e.Want, e.File, e.Got)
}

// GroupsError is a log whose group column Column has more values than
// a sketch made with Options.Sketch keeps; Err is the sketch's own.
type GroupsError struct {
	Column string
	Err    error
}

func (e *GroupsError) Error() string { return fmt.Sprintf("group column %s: %v", e.Column, e.Err) }
func (e *GroupsError) Unwrap() error { return e.Err }

// DroppedError is a sketch a SQL engine made whose query left out rows
// the log readers refuse (Rows, counted by reason), read without
// Log.SkipBad.
type DroppedError struct {
	Name, Rows string
}

func (e *DroppedError) Error() string {
	return fmt.Sprintf("read %s: the query left out %s, rows the log readers refuse", e.Name, e.Rows)
}
