package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/pollfit/pollfit/export"
	"github.com/pollfit/pollfit/fit/backoff"
	"github.com/pollfit/pollfit/fit/schedule"
	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "export",
		summary: "write a schedule as schedule text, JSON, Go, JavaScript, TypeScript, Kotlin, Python or a list of asks",
		usage:   "pollfit export [--format " + strings.Join(export.Formats, "|") + "] (--schedule SPEC | --from FILE) [-o FILE] [flags]",
		example: `  pollfit export --schedule 'at 0s 3s 8s 16s 29s, 15s until 2m, 30s' --format json -o poll.json
  pollfit export --from poll.json --format go --package payments --var CheckoutPoll -o poll_gen.go
  pollfit export --from poll.json --format kotlin --package com.example.payments --var CheckoutPoll
  pollfit export --schedule 'at 0s 1s, 2s until 2m, 5s' --format python -o poll.py
  pollfit export --schedule 'at 0s 1s, 2s until 2m, 5s' --format asks --horizon 10m
  pollfit export --from poll.json --format go --explore 0.1 --explore-seed 42 -o poll_gen.go
  pollfit fit --json --requests-per-item 8 payments.csv | pollfit export --from - --format dsl --comment 'for checkout'

--schedule takes schedule text or @FILE (schedule text or JSON). --from reads
a JSON document written by 'pollfit export --format json' (its meta is kept)
or by 'pollfit fit --json'; - reads standard input. The Go, JavaScript,
TypeScript, Kotlin and Python output has no dependencies (Python's
tenacity_wait() is tenacity's wait= and stop=). --format asks lists the
ages of the asks in milliseconds, one a line (--json: one JSON object), up to
the schedule's end or --horizon, for other languages and config files. See
'go doc github.com/pollfit/pollfit/export' for the API and for adapters to
cenkalti/backoff, failsafe-go, retry-go and go-retry. --explore F (go, js, ts,
kotlin) moves each item's asks by a seeded random fraction of the gaps, so
that the next poller log sees between them, and adds the one-row-per-item
log line pollfit reads back (pollfit help shipping).`,
		flags: exportFlags,
	})
}

// exportOpts are the flags of pollfit export.
type exportOpts struct {
	format, spec, from, out, comment *string
	pkg, varName, typ, horizon       *string
	service, codes, grpcClient       *string
	force, varOnly, json             *bool
	explore                          *float64
	exploreSeed                      *uint32
}

// exportFlagFormats says which formats each format-specific flag
// applies to.
var exportFlagFormats = map[string][]string{
	"package": {"go", "kotlin"}, "var": {"go", "kotlin"},
	"type": {"go"}, "var-only": {"go"},
	"horizon": {"asks"}, "json": {"asks"},
	"service": {"grpc"}, "codes": {"grpc"}, "grpc-client": {"grpc"},
	"explore": export.ExploreFormats, "explore-seed": export.ExploreFormats,
}

func exportFlags(fs *pflag.FlagSet) func(*env, []string) error {
	o := &exportOpts{
		format:      fs.StringP("format", "f", "dsl", "output format: "+strings.Join(export.Formats, ", ")),
		spec:        fs.StringP("schedule", "s", "", "the schedule: schedule text, a retry strategy or @FILE"),
		from:        fs.String("from", "", "read the schedule and its meta from a JSON document (- for stdin)"),
		out:         fs.StringP("output", "o", "", "write to FILE instead of stdout"),
		force:       fs.Bool("force", false, "overwrite an existing output file"),
		comment:     fs.String("comment", "", "comment to put in the output (replaces one read with --from)"),
		pkg:         fs.String("package", "poll", "Go, Kotlin: package name"),
		varName:     fs.String("var", "Poll", "Go: name of the schedule variable; Kotlin: name of the object"),
		typ:         fs.String("type", "Schedule", "Go: name of the schedule type (helper types are named after it)"),
		varOnly:     fs.Bool("var-only", false, "Go: declare only the variable, for a package that already has the types"),
		horizon:     fs.String("horizon", "", "asks: the give-up age (default: the schedule's end; needed when it never stops)"),
		json:        fs.Bool("json", false, "asks: write one JSON object instead of one age a line"),
		service:     fs.String("service", "", "grpc: the service the retry policy is for, or one method of it (pkg.Svc/Method) (default every service)"),
		codes:       fs.String("codes", "UNAVAILABLE", "grpc: the status codes to retry on, comma-separated gRPC names (UNAVAILABLE, DEADLINE_EXCEEDED, ...)"),
		grpcClient:  fs.String("grpc-client", "", "grpc: "+grpcClientHelp),
		explore:     fs.Float64("explore", 0, "go, js, ts, kotlin: move each ask after the first and before the last earlier by a seeded random fraction in [0, F) of the gap before it, and log each item's asks (0: off)"),
		exploreSeed: fs.Uint32("explore-seed", 1, "go, js, ts, kotlin: the fleet's seed of --explore's shifts, hashed with each item's key"),
	}
	return func(e *env, args []string) error { return runExport(e, fs, o, args) }
}

func runExport(e *env, fs *pflag.FlagSet, o *exportOpts, args []string) error {
	if len(args) > 0 {
		return usagef("export: unexpected argument %q (give the schedule with --schedule or --from)", quote.Clip(args[0]))
	}
	f := strings.ToLower(*o.format)
	if f != "grpc" && !slices.Contains(export.Formats, f) {
		return usagef("export: unknown --format %q (want %s or grpc)", quote.Clip(*o.format), strings.Join(export.Formats, ", "))
	}
	for _, name := range []string{"package", "var", "type", "var-only", "horizon", "json", "service", "codes", "grpc-client", "explore", "explore-seed"} {
		if fs.Changed(name) && !slices.Contains(exportFlagFormats[name], f) {
			return usagef("export: --%s applies to --format %s only", name, quote.List(exportFlagFormats[name], "and"))
		}
	}
	if fs.Changed("explore-seed") && *o.explore == 0 {
		return usagef("export: --explore-seed seeds --explore's shifts: give --explore too")
	}
	if ex := (export.Explore{Fraction: *o.explore}); ex.Check() != nil {
		return usagef("export: --explore %v is not in [0, 1]: 0.1 moves each ask by up to a tenth of the gap before it", *o.explore)
	}
	if f == "grpc" {
		return exportGRPC(e, o)
	}
	s, meta, err := exportInput(*o.spec, *o.from)
	if err != nil {
		return err
	}
	if fs.Changed("comment") {
		if meta == nil {
			meta = &export.Meta{}
		}
		meta.Comment = *o.comment
	}
	write, err := exportWriter(e, f, s, meta, o)
	if err != nil {
		return err
	}
	// Check the names and the horizon before any file is created.
	if slices.Contains([]string{"go", "js", "ts", "kotlin", "asks"}, f) {
		if err := write(io.Discard); err != nil {
			return usagef("%w", err)
		}
	}
	return writeOutput(*o.out, *o.force, e.stdout, write)
}

// exportWriter returns what writes s in format f.
func exportWriter(e *env, f string, s *schedule.Schedule, meta *export.Meta, o *exportOpts) (func(io.Writer) error, error) {
	goOpt := export.GoOptions{Package: *o.pkg, Var: *o.varName, Type: *o.typ, VarOnly: *o.varOnly, Args: e.args,
		Explore: export.Explore{Fraction: *o.explore, Seed: *o.exploreSeed}}
	switch f {
	case "asks":
		opt := export.AsksOptions{JSON: *o.json}
		if *o.horizon != "" {
			h, err := schedule.ParseDuration(*o.horizon)
			if err != nil || h <= 0 {
				return nil, usagef("export: --horizon %q is not a positive duration (for example 30m)", quote.Clip(*o.horizon))
			}
			opt.Horizon = h
		}
		return func(w io.Writer) error { return export.Asks(w, s, opt) }, nil
	}
	return func(w io.Writer) error { return export.Write(w, f, s, meta, goOpt) }, nil
}

// exportGRPC writes a retry strategy (--schedule) as a gRPC service
// config's retryPolicy.
func exportGRPC(e *env, o *exportOpts) error {
	if *o.from != "" || *o.spec == "" {
		return usagef("export: --format grpc takes the strategy with --schedule, e.g. 'exponential(initial=1s, factor=2, max=30s, attempts=5, jitter=grpc)'")
	}
	n, err := parseSpec("", *o.spec)
	if err == nil && n.strategy == nil {
		err = fmt.Errorf("%s is a schedule: --format grpc takes a retry strategy, e.g. 'exponential(initial=1s, factor=2, max=30s, attempts=5, jitter=grpc)'", *o.spec)
	}
	if err != nil {
		return usagef("export: --schedule: %v", err)
	}
	b, ok := n.strategy.(backoff.Backoff)
	if !ok {
		return usagef("export: --format grpc: %s is not exponential backoff", n.strategy)
	}
	opt := export.GRPCOptions{Service: *o.service, Codes: splitComma(*o.codes), Client: *o.grpcClient}
	return writeGRPC(e, "export", *o.out, *o.force, b, opt)
}

// grpcClientHelp is the help of --grpc-client, for export and fit.
const grpcClientHelp = "the client that runs the policy, whose retry timing pollfit models: go (default), java or node (cap × U(0.8, 1.2), gRFC A6 as revised in 2024; node from @grpc/grpc-js 1.14), or node-1.13 (@grpc/grpc-js 1.13 or earlier: U(0, cap))"

// writeGRPC writes b as a gRPC service config to out (stdout when ""),
// checked before any file is created, and says on stderr what the
// client must set besides (export.GRPCNote).
func writeGRPC(e *env, cmd, out string, force bool, b backoff.Backoff, opt export.GRPCOptions) error {
	if err := export.GRPC(io.Discard, b, opt); err != nil {
		return usagef("%s: %w", cmd, err)
	}
	if note := export.GRPCNote(b, opt); note != "" {
		fmt.Fprintf(e.stderr, "pollfit: %s: %s\n", cmd, note)
	}
	return writeOutput(out, force, e.stdout, func(w io.Writer) error { return export.GRPC(w, b, opt) })
}

// exportInput reads the schedule from --schedule or --from, exactly one.
func exportInput(spec, from string) (*schedule.Schedule, *export.Meta, error) {
	switch {
	case spec == "" && from == "":
		return nil, nil, usagef("export: give the schedule with --schedule or --from")
	case spec != "" && from != "":
		return nil, nil, usagef("export: give --schedule or --from, not both")
	case spec != "":
		n, err := parseSpec("", spec)
		if err == nil && n.sched == nil {
			err = fmt.Errorf("%s is randomised (jitter), so it has no one schedule: only --format grpc writes it", n.strategy)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("export: --schedule: %v", err)
		}
		return n.sched, nil, nil
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
