package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/quote"
	"github.com/spf13/pflag"
)

// A command is one pollfit subcommand. Each lives in its own file and
// registers itself with register from an init function.
type command struct {
	name    string
	summary string // one line for "pollfit help"
	usage   string // "pollfit NAME [flags] ARGS"
	example string // shown under --help
	// flags adds the command's flags to fs and returns the function that
	// runs it with the positional arguments once flags are parsed.
	flags func(fs *pflag.FlagSet) func(env *env, args []string) error
}

// env is what a running command may touch.
type env struct {
	ctx            context.Context // cancelled by SIGINT or SIGTERM
	stdout, stderr io.Writer
	args           []string // the whole command line after "pollfit"
}

// context is the command's context: Background when none was given.
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

var commands = map[string]*command{}

func register(c *command) {
	if commands[c.name] != nil {
		panic("pollfit: command registered twice: " + c.name)
	}
	commands[c.name] = c
}

// usageError is a mistake in how pollfit was called: it exits 2.
type usageError struct{ err error }

func (e *usageError) Error() string { return e.err.Error() }

// Unwrap is the error usagef wrapped with %w, if any.
func (e *usageError) Unwrap() error { return errors.Unwrap(e.err) }

// usagef is a usage error formatted as fmt.Errorf does (%w wraps).
func usagef(format string, args ...any) error {
	return &usageError{fmt.Errorf(format, args...)}
}

// run runs pollfit with args (without the program name) and returns the
// exit code: 0 on success, 1 on an error, 2 on a usage mistake.
func run(args []string, stdout, stderr io.Writer) int {
	return runContext(context.Background(), args, stdout, stderr)
}

// runContext is run with a context that SIGINT and SIGTERM cancel: the
// long operations watch it and stop, and the error they stop with is
// not printed (onSignal has said why pollfit stops).
func runContext(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	err := dispatch(ctx, args, stdout, stderr)
	if err == nil {
		return 0
	}
	if ctx.Err() != nil {
		return 1 // stopped by a signal, which onSignal reported: main exits 130 or 143
	}
	fmt.Fprintf(stderr, "pollfit: %s%s\n", errorText(err), fixHint(err))
	return errorExit(err)
}

func dispatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		help(stderr)
		return usagef("no command given")
	}
	name := args[0]
	switch name {
	case "version", "--version":
		fmt.Fprintf(stdout, "pollfit %s\n", version())
		return nil
	case "help", "-h", "--help":
		if len(args) > 1 {
			if c := commands[args[1]]; c != nil {
				fs, _ := newFlagSet(c)
				commandHelp(stdout, c, fs)
				return nil
			}
			if t := topics[args[1]]; t != nil {
				topicHelp(stdout, t)
				return nil
			}
			return usagef("help: unknown command or topic %q (run 'pollfit help')", quote.Clip(args[1]))
		}
		help(stdout)
		return nil
	}
	c := commands[name]
	if c == nil {
		return usagef("unknown command %q (run 'pollfit help')", quote.Clip(name))
	}
	fs, runner := newFlagSet(c)
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, pflag.ErrHelp) {
			commandHelp(stdout, c, fs)
			return nil
		}
		return usagef("%s: %v", name, err)
	}
	if err := finiteFlags(name, fs); err != nil {
		return err
	}
	return runner(&env{ctx: ctx, stdout: stdout, stderr: stderr, args: args}, fs.Args())
}

// finiteFlags refuses NaN and infinite values of float flags, which
// strconv.ParseFloat accepts ("NaN", "Inf", "1e999") but no pollfit
// flag means: a NaN share would slip past every range check.
func finiteFlags(name string, fs *pflag.FlagSet) error {
	var err error
	fs.Visit(func(f *pflag.Flag) {
		if f.Value.Type() != "float64" || err != nil {
			return
		}
		if x, perr := strconv.ParseFloat(f.Value.String(), 64); perr == nil && (math.IsNaN(x) || math.IsInf(x, 0)) {
			err = usagef("%s: --%s %s: want a finite number", name, f.Name, f.Value.String())
		}
	})
	return err
}

func newFlagSet(c *command) (*pflag.FlagSet, func(*env, []string) error) {
	fs := pflag.NewFlagSet(c.name, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.SortFlags = false
	runner := c.flags(fs)
	return fs, runner
}

func help(w io.Writer) {
	fmt.Fprintln(w, "pollfit fits the best polling schedule from observed settle times.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: pollfit COMMAND [flags] [args]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Commands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Topics:")
	for _, n := range topicNames() {
		fmt.Fprintf(w, "  %-10s %s\n", n, topics[n].summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'pollfit COMMAND --help' for a command's flags and examples,")
	fmt.Fprintln(w, "and 'pollfit help TOPIC' for a topic.")
}

func commandHelp(w io.Writer, c *command, fs *pflag.FlagSet) {
	fmt.Fprintf(w, "Usage: %s\n\n%s\n", c.usage, c.summary)
	if u := fs.FlagUsages(); u != "" {
		fmt.Fprintf(w, "\nFlags:\n%s", u)
	}
	if c.example != "" {
		fmt.Fprintf(w, "\nExamples:\n%s\n", strings.TrimRight(c.example, "\n"))
	}
}
