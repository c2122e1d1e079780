package source

import (
	"fmt"
	"math"
	"strings"

	"github.com/pollfit/pollfit/estimate"
	"github.com/pollfit/pollfit/estimate/logs"
)

// The three readers of ReadIntervals: a metric, a poller log, sketch
// files with an interval part.

// metricFormats words a histogram's format for Intervals.Input.
var metricFormats = map[string]string{"prometheus": "Prometheus", "otlp": "OpenTelemetry exponential"}

// readMetric reads the histogram at path, minus o.Since, its
// unanswered items (o.Pending, o.Never) pending at its last finite
// bound.
func (o IntervalOptions) readMetric(path string) (*Intervals, error) {
	mo := logs.MetricOptions{Metric: o.Metric}
	h, err := logs.ReadMetric(path, mo)
	if err != nil {
		return nil, err
	}
	in := &Intervals{Kind: MetricFile, Set: &estimate.IntervalSet{}}
	in.Input = fmt.Sprintf("%s histogram %s in %s", metricFormats[h.Format], h.Name, path)
	if o.Since != "" {
		before, err := logs.ReadMetric(o.Since, mo)
		if err != nil {
			return nil, err
		}
		if h, err = h.Sub(before); err != nil {
			return nil, fmt.Errorf("%s minus %s: %v", path, o.Since, err)
		}
		in.Input += " minus " + o.Since
	}
	answered := h.Total()
	unanswered, assumed := o.unanswered(answered)
	in.Final, in.Pending, in.Assumed = answered, unanswered, assumed
	if n := len(h.Hi); n > 0 && math.IsInf(h.Hi[n-1], 1) {
		in.Beyond = h.Count[n-1]
	}
	for _, iv := range h.Intervals(unanswered) {
		if err := in.Set.Add(iv); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	in.finish([]string{path})
	if answered == 0 {
		return in, fmt.Errorf("%s: nothing to fit: the histogram counts no answers", path)
	}
	if o.Sketch {
		return in, in.sketchSet(o)
	}
	return in, nil
}

// sketchSet moves in's set into a sketch of o's split, each distinct
// interval thinned into the parts.
func (in *Intervals) sketchSet(o IntervalOptions) error {
	s, err := estimate.NewSketch(o.Holdout, o.Seed)
	if err != nil {
		return err
	}
	for _, iv := range in.Set.Intervals() {
		if err := s.AddInterval(iv); err != nil {
			return err
		}
	}
	in.Set, in.Sketch = nil, s
	return nil
}

// readPoller reads the poller logs at paths, item by item into a set or
// with o.Sketch into a sketch.
func (o IntervalOptions) readPoller(paths []string) (*Intervals, error) {
	in := &Intervals{Kind: PollerLog}
	add := func(iv estimate.Interval) error { return in.Set.Add(iv) }
	if o.Sketch {
		s, err := estimate.NewSketch(o.Holdout, o.Seed)
		if err != nil {
			return nil, err
		}
		in.Sketch, add = s, s.AddInterval
	} else {
		in.Set = &estimate.IntervalSet{}
	}
	var addErr error
	st, err := logs.EachPoller(paths, o.pollerOptions(), func(iv estimate.Interval) {
		if err := add(iv); err != nil && addErr == nil {
			addErr = err
		}
	})
	if err == nil {
		err = addErr
	}
	if err != nil {
		return nil, err
	}
	if w := skippedWarning(st); w != "" {
		in.Warnings = append(in.Warnings, w)
	}
	form := "one row per item"
	if st.PerAsk {
		form = fmt.Sprintf("one row per ask, %d rows", st.Rows)
	}
	in.Input = fmt.Sprintf("poller log (%s) in %s", form, strings.Join(st.Files, ", "))
	in.Final, in.Pending = float64(st.Final), float64(st.Pending)
	if in.Set != nil {
		in.finish(paths)
	} else {
		in.Stats = logs.Stats{Files: paths, Rows: st.Rows, Items: st.Items, Final: st.Final, Pending: st.Pending}
	}
	switch {
	case st.Final == 0 && o.Sketch:
		return in, fmt.Errorf("nothing to sketch: all %d items of %s are pending", st.Pending, strings.Join(st.Files, ", "))
	case st.Final == 0:
		return in, fmt.Errorf("nothing to fit: all %d items are pending", st.Pending)
	}
	return in, nil
}

// skippedWarning says which bad rows Log.SkipBad skipped in a poller
// log, as for every other log ("" for none).
func skippedWarning(st logs.PollerStats) string {
	if len(st.Skipped) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: skipped %s", strings.Join(st.Files, ", "), logs.SkippedText(st.Skipped))
}

// readIntervalSketch reads and merges sketch files, both parts of their
// interval part together.
func readIntervalSketch(paths []string) (*Intervals, error) {
	s, err := readSketchFilesMerged(paths)
	if err != nil {
		return nil, err
	}
	if !s.HasIntervals() {
		return nil, fmt.Errorf("read %s: the sketches have no interval part: read them with Read", names(paths))
	}
	set, err := SketchIntervals(s)
	if err != nil {
		return nil, err
	}
	in := &Intervals{Kind: IntervalSketch, Set: set, Input: "sketch " + names(paths) + " (with an interval part)"}
	in.Final, in.Pending = set.Weights()
	in.finish(paths)
	return in, nil
}

// readSketchFilesMerged reads and merges the sketch files at paths as
// they are, groups kept (Read with Options.Sketch).
func readSketchFilesMerged(paths []string) (*estimate.Sketch, error) {
	s, _, err := readSketches(paths, Options{}, true)
	return s, err
}
