package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/pollfit/pollfit/fit"
	"github.com/pollfit/pollfit/fit/schedule"
)

// writeShapes says what the estimators found and whether the shapes paid.
func writeShapes(w io.Writer, res *fit.StudyResult) {
	for _, s := range shapeLines(res) {
		fmt.Fprintf(w, "\n%s\n", s)
	}
}

// shapeLines are the sentences about the shapes, for the text and the
// report.
func shapeLines(res *fit.StudyResult) []string {
	f := res.Shapes
	if f == nil {
		return nil
	}
	var out []string
	if f.Deadline != nil {
		var ds []string
		for _, d := range f.Deadlines {
			ds = append(ds, fmt.Sprintf("%s (%.0f%% of the fitting items)", schedule.FormatAge(d.Age), 100*d.Share))
		}
		out = append(out, fmt.Sprintf("deadline at %s: %s", strings.Join(ds, ", "), shapeText(f.Deadline, "a burst of asks after it", "deadlines", slices.Contains(f.OverCap, fit.ShapeDeadline))))
	}
	if f.Batch != nil {
		p := f.Period
		out = append(out, fmt.Sprintf("batches every %s, answers %s after the boundary (%.0f%% of the fitting items' answers): %s",
			schedule.FormatDuration(time.Duration(math.Round(p.Period*1e9))), schedule.FormatAge(p.Phase), 100*p.Share, shapeText(f.Batch, "wall-clock aligned asks", "batches", slices.Contains(f.OverCap, fit.ShapeBatch))))
	}
	if f.Signals {
		out = append(out, "the fitted schedule resets on signal (the log's signals made it pay on the fitting items; --signals=false to fit without); the limit does not")
	}
	return out
}

// shapeText says whether a shape paid, with the lag on the fitting items,
// and whether it was left out for asking a stuck item too often.
func shapeText(s *fit.Shape, what, flag string, overCap bool) string {
	if s.Shaped.Items == 0 {
		return what + " could not be tried"
	}
	if overCap {
		return fmt.Sprintf("%s paid on the fitting items but asks a stuck item more often than the stuck cap allows, so it was left out (--stuck-asks to allow it)", what)
	}
	if s.Paid {
		return fmt.Sprintf("%s paid: %s mean lag instead of %s at %.2f requests per item (vs %.2f) on the fitting items (--%s=false to fit without)",
			what, schedule.FormatAge(s.Shaped.Lag.Mean), schedule.FormatAge(s.Plain.Lag.Mean), s.Shaped.RequestsPerItem, s.Plain.RequestsPerItem, flag)
	}
	return fmt.Sprintf("%s did not pay (%s mean lag at %.2f requests per item vs %s at %.2f, seeing %.0f answers vs %.0f, on the fitting items)",
		what, schedule.FormatAge(s.Shaped.Lag.Mean), s.Shaped.RequestsPerItem, schedule.FormatAge(s.Plain.Lag.Mean), s.Plain.RequestsPerItem, float64(s.Shaped.Detected), float64(s.Plain.Detected))
}
