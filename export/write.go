package export

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
)

// Formats are the output formats Write knows, in the order help text
// lists them; GroupFormats those WriteGroups knows, and
// ExploreFormats those that write an exploration (Explore): the names
// of the registry, formats.
var (
	Formats        = formatNames(func(outFormat) bool { return true })
	GroupFormats   = formatNames(func(f outFormat) bool { return f.groups != nil })
	ExploreFormats = formatNames(func(f outFormat) bool { return f.explores })
)

// outFormat is one output format: how it writes one schedule, and a
// schedule per group (nil: it has no grouped form, for the reason
// noGroups), and whether it writes an exploration.
type outFormat struct {
	name     string
	one      func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error
	groups   func(w io.Writer, s Groups, meta *Meta, o GoOptions) error
	noGroups string
	explores bool
}

// formats is the one registry of output formats, which Write and
// WriteGroups both read. Each writer takes what it needs of meta and
// the options: Go its GoOptions (Meta defaulting to meta), JS, TS,
// Kotlin and Python their header arguments from Args, and JS, TS and
// Kotlin the exploration (one schedule's only: writeGroups turns it off).
var formats = []outFormat{
	{name: "dsl", one: func(w io.Writer, s *schedule.Schedule, meta *Meta, _ GoOptions) error { return DSL(w, s, meta) },
		groups: func(w io.Writer, s Groups, meta *Meta, _ GoOptions) error { return segmentsDSL(w, s, meta) }},
	{name: "json", one: func(w io.Writer, s *schedule.Schedule, meta *Meta, _ GoOptions) error { return JSON(w, s, meta) },
		groups: func(w io.Writer, s Groups, meta *Meta, _ GoOptions) error { return segmentsJSON(w, s, meta) }},
	{name: "go", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return Go(w, s, goWithMeta(o, meta))
		},
		groups: func(w io.Writer, s Groups, meta *Meta, o GoOptions) error {
			return goSegments(w, s, goWithMeta(o, meta))
		}},
	{name: "js", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return JS(w, s, jsOptions(o, meta))
		},
		groups: func(w io.Writer, s Groups, meta *Meta, o GoOptions) error {
			return jsSegments(w, s, jsOptions(o, meta), false)
		}},
	{name: "ts", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return TS(w, s, jsOptions(o, meta))
		},
		groups: func(w io.Writer, s Groups, meta *Meta, o GoOptions) error {
			return jsSegments(w, s, jsOptions(o, meta), true)
		}},
	{name: "kotlin", explores: true,
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return Kotlin(w, s, kotlinOptions(o, meta))
		},
		groups: func(w io.Writer, s Groups, meta *Meta, o GoOptions) error {
			return kotlinSegments(w, s, kotlinOptions(o, meta))
		}},
	{name: "python",
		one: func(w io.Writer, s *schedule.Schedule, meta *Meta, o GoOptions) error {
			return Python(w, s, PythonOptions{Args: o.Args, Meta: meta})
		},
		groups: func(w io.Writer, s Groups, meta *Meta, o GoOptions) error {
			return pythonSegments(w, s, PythonOptions{Args: o.Args, Meta: meta})
		}},
	{name: "asks", one: func(w io.Writer, s *schedule.Schedule, _ *Meta, _ GoOptions) error { return Asks(w, s, AsksOptions{}) },
		noGroups: "asks lists one schedule's asks: export each group's schedule on its own, or use json"},
}

// formatNames are the names of the formats keep keeps, in order.
func formatNames(keep func(outFormat) bool) []string {
	var out []string
	for _, f := range formats {
		if keep(f) {
			out = append(out, f.name)
		}
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
		return fmt.Errorf("export: the %s output does not explore: exploring is written in %s", strings.ToLower(format), quote.List(ExploreFormats, "and"))
	}
	if err != nil {
		return err
	}
	return f.one(w, s, meta, goOpt)
}

// writeGroups is WriteGroups once the segments are checked.
func writeGroups(w io.Writer, name string, s Groups, meta *Meta, goOpt GoOptions) error {
	f, err := lookupFormat(name)
	if err != nil {
		return err
	}
	if f.groups == nil {
		return errors.New("export: " + f.noGroups)
	}
	goOpt.Explore = Explore{} // off (WriteGroups refuses it on): a module per group explores nothing
	return f.groups(w, s, meta, goOpt)
}
