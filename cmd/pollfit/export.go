package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "export",
		summary: "write a schedule as schedule text, JSON, Go or JavaScript",
		usage:   "pollfit export [--format dsl|json|go|js] (--schedule SPEC | --from FILE) [-o FILE] [flags]",
		example: `  pollfit export --schedule 'at 0s 3s 8s 16s 29s, 15s until 2m, 30s' --format json -o poll.json
  pollfit export --from poll.json --format go --package payments --var CheckoutPoll -o poll_gen.go
  pollfit fit --json payments.csv | pollfit export --from - --format dsl --comment 'for checkout'

--schedule takes schedule text or @FILE (schedule text or JSON). --from reads
a JSON document written by 'pollfit export --format json' (its meta is kept)
or by 'pollfit fit --json'; - reads standard input. The Go output imports
only the standard library; see 'go doc github.com/pollfit/pollfit/export'
for its API and for adapters to cenkalti/backoff, failsafe-go, retry-go
and go-retry.`,
		flags: exportFlags,
	})
}

func exportFlags(fs *pflag.FlagSet) func(*env, []string) error {
	format := fs.StringP("format", "f", "dsl", "output format: "+strings.Join(export.Formats, ", "))
	spec := fs.StringP("schedule", "s", "", "the schedule: schedule text or @FILE")
	from := fs.String("from", "", "read the schedule and its meta from a JSON document (- for stdin)")
	out := fs.StringP("output", "o", "", "write to FILE instead of stdout")
	force := fs.Bool("force", false, "overwrite an existing output file")
	comment := fs.String("comment", "", "comment to put in the output (replaces one read with --from)")
	pkg := fs.String("package", "poll", "Go: package name")
	varName := fs.String("var", "Poll", "Go: name of the schedule variable")
	typ := fs.String("type", "Schedule", "Go: name of the schedule type (helper types are named after it)")
	varOnly := fs.Bool("var-only", false, "Go: declare only the variable, for a package that already has the types")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usagef("export: unexpected argument %q (give the schedule with --schedule or --from)", args[0])
		}
		f := strings.ToLower(*format)
		if !slices.Contains(export.Formats, f) {
			return usagef("export: unknown --format %q (want %s)", *format, strings.Join(export.Formats, ", "))
		}
		if f != "go" {
			for _, name := range []string{"package", "var", "type", "var-only"} {
				if fs.Changed(name) {
					return usagef("export: --%s applies to --format go only", name)
				}
			}
		}
		s, meta, err := exportInput(*spec, *from)
		if err != nil {
			return err
		}
		if fs.Changed("comment") {
			if meta == nil {
				meta = &export.Meta{}
			}
			meta.Comment = *comment
		}
		goOpt := export.GoOptions{Package: *pkg, Var: *varName, Type: *typ, VarOnly: *varOnly, Args: e.args}
		if f == "go" {
			// Check the names before any file is created.
			if err := export.Go(io.Discard, s, goOpt); err != nil {
				return usagef("%v", err)
			}
		}
		return writeOutput(*out, *force, e.stdout, func(w io.Writer) error {
			return export.Write(w, f, s, meta, goOpt)
		})
	}
}

// exportInput reads the schedule from --schedule or --from, exactly one.
func exportInput(spec, from string) (*schedule.Schedule, *export.Meta, error) {
	switch {
	case spec == "" && from == "":
		return nil, nil, usagef("export: give the schedule with --schedule or --from")
	case spec != "" && from != "":
		return nil, nil, usagef("export: give --schedule or --from, not both")
	case spec != "":
		s, err := export.ParseSpec(spec)
		if err != nil {
			return nil, nil, fmt.Errorf("export: --schedule: %v", err)
		}
		return s, nil, nil
	}
	r, name := io.Reader(os.Stdin), "stdin"
	if from != "-" {
		f, err := os.Open(from)
		if err != nil {
			return nil, nil, fmt.Errorf("export: %v", err)
		}
		defer f.Close()
		r, name = f, from
	}
	s, meta, err := export.ReadJSON(r)
	if err != nil {
		return nil, nil, fmt.Errorf("export: read %s: %v", name, err)
	}
	return s, meta, nil
}
