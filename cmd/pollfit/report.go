package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/cmd/pollfit/internal/report"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{
		name:    "report",
		summary: "write a self-contained HTML report: the decision, distribution, fit, lags, items, frontier, metrics",
		usage:   "pollfit report [fit flags] [--baseline NAME=SPEC]... LOG... -o report.html",
		example: `  pollfit report --requests-per-item 8 payments.csv -o report.html
  pollfit report --baseline now='1s until 30s, 5s' payments.csv -o report.html
  pollfit report --asks-by 20@10m --baseline every-10s=10s batch.csv -o batch.html

The report opens with a summary that decides: the schedule to ship,
today's (the first baseline) beside it with the lag and cost of both and
their bootstrap intervals, the same-cost and same-lag comparisons, the
stuck cost, the give-up age and the frontier's knee. The schedule to ship
is the one 'pollfit fit' ships with the same flags, so the summary's
figures are fit --json's: at the budget given, or without one at what
the first baseline spends; the knee is shown beside it, not shipped
(give its budget as --requests-per-item to ship it).

Then the pictures, inlined as SVG: the settle-time density and survival,
the hazard with the optimal ask rate and the fitted schedule, the lag
distribution of every schedule, thirty held-out items one by one under
today's schedule and the fitted one (fit --plot-items draws it alone), the
wait-versus-cost frontier of the fit, the batch phase when there is one,
and a table of metrics with the command that reproduces it. The frontier
is drawn at 7 budgets from 1.5 to 40 requests per item, evenly spaced on
a log scale, and the fit's own budget in place of the one nearest it
within 15%: at its own budget the fit shipped, at each other what 'pollfit
fit --requests-per-item B' ships; its knee is the knee of those points. It fetches nothing and
reads on a phone. The fit flags are those of 'pollfit fit'; without a
budget the fit spends what the first baseline spends. Every schedule is
measured on the --holdout share of the items, which the estimates and the
fit do not see. A log is read as fit reads it: into a sketch in one pass,
fitted from its bins, or from its item sample when it has signals or
settles in batches. --by COLUMN opens the summary as fit --by opens:
each value's decision first (against its own --baseline VALUE:NAME=SPEC,
else the first for every value, else the one schedule), then fit --by's
table: each value's share, held-out lag, cost, budget, stuck cost,
give-up age and schedule, the totals and the one schedule at the same
budget, and "segmenting: N% less mean lag", each figure fit --by
--json's; the one schedule for all values follows. The log is read
once, and the page's own figures, pictures and frontier are the study of
that one schedule (fit --by --json's "shared"), on the whole log; each
value's own pictures follow (density, survival, hazard, lags, items one
by one, batch phase), drawn from that value's study; a value that
follows the one schedule has none.`,
		flags: reportFlags,
	})
}

func reportFlags(fs *pflag.FlagSet) func(*env, []string) error {
	ff := addFitFlags(fs)
	title := fs.String("title", "", "title of the report (default: pollfit report: LOG...)")
	out := fs.StringP("output", "o", "", "output HTML file (default stdout)")
	force := fs.Bool("force", false, "overwrite an existing output file")
	rf := addReadFlags(fs)
	rf.iv = addIntervalReadFlags(fs)
	bf := addByFlag(fs, true)
	return func(e *env, args []string) error {
		if err := ff.useRenamed(e, "report"); err != nil {
			return err
		}
		if err := bf.useRenamed(e, "report"); err != nil {
			return err
		}
		if ff.model != "" {
			return usagef("report: --model: the report needs logs")
		}
		if len(args) == 0 {
			return usagef("report: no log given (pollfit report [fit flags] LOG... -o report.html)")
		}
		if err := checkOutput(*out, *force); err != nil { // fail before the work
			return err
		}
		rf.noHint = bf.by != ""
		var rep *fitReport
		var seg *groupReport
		if bf.by != "" {
			// One read, one study of the one schedule for all values (its
			// frontier too), and each value's: the page draws them all.
			var err error
			if seg, err = runGroups(e, rf, ff, bf, args, "report"); err != nil {
				return err
			}
			rep = &fitReport{res: seg.res.Shared, opt: seg.opt, source: seg.source}
		} else {
			var err error
			if rep, err = runStudy(e, rf, ff, args, "report"); err != nil {
				return err
			}
			defer rep.hint.wait() // looked for beside the study and the page, said after them
		}
		opt := report.Options{Title: *title, Inputs: args, Command: repCommand(e.args), Version: version(), Shapes: shapeLines(rep.res), Clauses: rep.opt.Clauses}
		if opt.Title == "" {
			opt.Title = "pollfit report: " + strings.Join(args, ", ")
		}
		draw := newStageLine(e, "report", rf.quiet)
		draw.set("the figures")
		r, err := report.Build(rep.res, rep.res.Frontier, opt) // the fit's frontier (fit.StudyOptions.Frontier)
		draw.stop()
		if err != nil {
			return err
		}
		if seg != nil {
			report.AddGroups(r, bf.by, seg.res)
			r.Facts = append(r.Facts, seg.facts()...)
		}
		if !rf.quiet {
			for _, w := range r.Warnings {
				fmt.Fprintf(e.stderr, "pollfit: warning: %s\n", w)
			}
		}
		draw = newStageLine(e, "report", rf.quiet)
		draw.set("drawing the page")
		err = writeOutput(*out, *force, e.stdout, func(w io.Writer) error { return report.Write(w, r) })
		draw.stop()
		if err != nil {
			return err
		}
		rep.hint.say(e.stderr)
		if *out != "" && *out != "-" && !rf.quiet {
			fmt.Fprintf(e.stderr, "pollfit: wrote %s\n", *out) // the page went to a file: say where
		}
		return nil
	}
}

// repCommand is the command line as a shell would take it back.
func repCommand(args []string) string {
	q := make([]string, len(args)+1)
	q[0] = "pollfit"
	for i, a := range args {
		q[i+1] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:@,+%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
