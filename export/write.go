package export

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// Formats are the output formats Write knows, in the order help text
// lists them: the names of the registry, formats.
var Formats = formatNames()

// outFormat is one output format: how it writes one schedule, and a
// schedule per segment (nil: it has no segmented form, for the reason
// noGroups), and whether it writes an exploration.
type outFormat struct {
	name     string
	one      func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error
	groups   func(w io.Writer, s Segments, meta *Meta, o GoOptions) error
	noGroups string
	explores bool
}

// formats is the one registry of output formats, which Write and
// WriteSegments both read. Each writer takes what it needs of meta and
// the options: Go its GoOptions (Meta defaulting to meta), JS, TS,
// Kotlin and Python their header arguments from Args, and JS, TS and
// Kotlin the exploration (one schedule's only: WriteSegments refuses it).
var formats = []outFormat{
	{name: "dsl", one: func(w io.Writer, s *schedule.Schedule, meta *Meta, _ GoOptions) error { return DSL(w, s, meta) },
		groups: func(w io.Writer, s Segments, meta *Meta, _ GoOptions) error { return segmentsDSL(w, s, meta) }},
	{name: "json", one: func(w io.Writer, s *schedule.Schedule, meta *Meta, _ GoOptions) error { return JSON(w, s, meta) },
		groups: func(w io.Writer, s Segments, meta *Meta, _ GoOptions) error { return segmentsJSON(w, s, meta) }},
	{name: "go", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return Go(w, s, goWithMeta(o, meta))
		},
		groups: func(w io.Writer, s Segments, meta *Meta, o GoOptions) error {
			return goSegments(w, s, goWithMeta(o, meta))
		}},
	{name: "js", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return JS(w, s, jsOptions(o, meta))
		},
		groups: func(w io.Writer, s Segments, meta *Meta, o GoOptions) error {
			return jsSegments(w, s, JSOptions{Args: o.Args, Meta: meta}, false)
		}},
	{name: "ts", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return TS(w, s, jsOptions(o, meta))
		},
		groups: func(w io.Writer, s Segments, meta *Meta, o GoOptions) error {
			return jsSegments(w, s, JSOptions{Args: o.Args, Meta: meta}, true)
		}},
	{name: "kotlin", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return Kotlin(w, s, kotlinOptions(o, meta))
		},
		groups: func(w io.Writer, s Segments, meta *Meta, o GoOptions) error {
			return kotlinSegments(w, s, KotlinOptions{Package: o.Package, Object: o.Var, Args: o.Args, Meta: meta})
		}},
	{name: "python",
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return Python(w, s, PythonOptions{Args: o.Args, Meta: meta})
		},
		groups: func(w io.Writer, s Segments, meta *Meta, o GoOptions) error {
			return pythonSegments(w, s, PythonOptions{Args: o.Args, Meta: meta})
		}},
	{name: "asks", one: func(w io.Writer, s *schedule.Schedule, _ *Meta, _ GoOptions) error { return Asks(w, s, AsksOptions{}) },
		noGroups: "asks lists one schedule's asks: export each segment's schedule on its own, or use json"},
}

func formatNames() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// lookupFormat is the format named (in any case), or an error listing
// the names.
func lookupFormat(name string) (outFormat, error) {
	for _, f := range formats {
		if f.name == strings.ToLower(name) {
			return f, nil
		}
	}
	return outFormat{}, fmt.Errorf("unknown format %q (want %s)", name, strings.Join(Formats, ", "))
}

func goWithMeta(o GoOptions, meta *Meta) GoOptions {
	if o.Meta == nil {
		o.Meta = meta
	}
	return o
}

func jsOptions(o GoOptions, meta *Meta) JSOptions {
	return JSOptions{Args: o.Args, Meta: meta, Explore: o.Explore}
}

func kotlinOptions(o GoOptions, meta *Meta) KotlinOptions {
	return KotlinOptions{Package: o.Package, Object: o.Var, Args: o.Args, Meta: meta, Explore: o.Explore}
}

// Write writes s in the named format (one of Formats): DSL, JSON, JS
// and TS with meta, Go with goOpt, whose Meta defaults to meta, Kotlin
// with meta and the package and object names goOpt.Package and
// goOpt.Var, Python with meta, and Asks up to the schedule's end; JS,
// TS, Kotlin and Python take their header arguments from goOpt.Args,
// and JS, TS and Kotlin their exploration from goOpt.Explore. It is the
// one call behind "pollfit export --format" and "pollfit fit --format".
func Write(w io.Writer, format string, s *schedule.Schedule, meta *Meta, goOpt GoOptions) error {
	f, err := lookupFormat(format)
	if goOpt.Explore.On() && (err != nil || !f.explores) {
		return fmt.Errorf("export: the %s output does not explore: exploring is written in go, js, ts and kotlin", strings.ToLower(format))
	}
	if err != nil {
		return err
	}
	return f.one(w, s, meta, goOpt)
}

// writeGroups is WriteSegments once the segments are checked.
func writeGroups(w io.Writer, name string, s Segments, meta *Meta, goOpt GoOptions) error {
	f, err := lookupFormat(name)
	if err != nil {
		return err
	}
	if f.groups == nil {
		return errors.New("export: " + f.noGroups)
	}
	return f.groups(w, s, meta, goOpt)
}
