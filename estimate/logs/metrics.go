package logs

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"

	"github.com/pollfit/pollfit/estimate"
)

// Histogram is a latency metric of time to the final answer: Count[i]
// items answered at an age in (Lo[i], Hi[i]] seconds, in increasing
// order (a bucket with Lo == Hi holds age Lo exactly; the last Hi may be
// +Inf: answered beyond the last bound). Metrics count only the items
// that answered; Intervals adds the others.
type Histogram struct {
	// Name is the metric's name; Format "prometheus" or "otlp".
	Name, Format  string
	Lo, Hi, Count []float64
	// Sum is the metric's sum of ages, NaN when it gives none.
	Sum float64
}

// Total is the number of answered items.
func (h *Histogram) Total() float64 {
	t := 0.0
	for _, c := range h.Count {
		t += c
	}
	return t
}

// MetricOptions say how to read a metric file.
type MetricOptions struct {
	// Metric picks the histogram by name when a file holds several; the
	// series of that name (label or attribute sets) are summed.
	Metric string
}

// ReadMetric reads a file holding one histogram (see Metric): the
// Prometheus text exposition, the JSON answer of Prometheus's query API
// (classic buckets or native histograms) or OTLP JSON, told apart by
// their first byte ('{' for JSON) and the API's "resultType".
func ReadMetric(path string, opt MetricOptions) (*Histogram, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseMetric(path, data, opt)
}

func parseMetric(path string, data []byte, opt MetricOptions) (*Histogram, error) {
	switch t := bytes.TrimSpace(data); {
	case len(t) > 0 && t[0] == '{' && bytes.Contains(t, []byte(`"resultType"`)):
		return parsePromAPI(path, data, opt)
	case len(t) > 0 && t[0] == '{':
		return parseOTLP(path, data, opt)
	}
	return parsePrometheus(path, data, opt)
}

// IsMetric reports whether the file at path looks like a metric file:
// OTLP JSON with an exponential histogram, or Prometheus text with a
// _bucket series. It reads at most the first 64 KiB.
func IsMetric(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 1<<16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if t := bytes.TrimSpace(head); len(t) > 0 && t[0] == '{' {
		return bytes.Contains(bytes.ToLower(head), []byte("scale")) || bytes.Contains(head, []byte(`"resultType"`))
	}
	return bytes.Contains(head, []byte("_bucket{")) && bytes.Contains(head, []byte("le="))
}

// Sub returns h minus before, the answers within the window between two
// reads of cumulative counters. It fails when a bucket's count fell (a
// counter reset: read a later file) or the buckets differ.
func (h *Histogram) Sub(before *Histogram) (*Histogram, error) {
	type key struct{ lo, hi float64 }
	prev := map[key]float64{}
	for i := range before.Lo {
		prev[key{before.Lo[i], before.Hi[i]}] += before.Count[i]
	}
	out := &Histogram{Name: h.Name, Format: h.Format, Sum: h.Sum - before.Sum}
	for i := range h.Lo {
		k := key{h.Lo[i], h.Hi[i]}
		c := h.Count[i] - prev[k]
		if c < 0 {
			return nil, fmt.Errorf("bucket (%v, %v] fell from %v to %v between the two files: a counter reset; subtract a file read after it", h.Lo[i], h.Hi[i], prev[k], h.Count[i])
		}
		delete(prev, k)
		out.Lo, out.Hi, out.Count = append(out.Lo, h.Lo[i]), append(out.Hi, h.Hi[i]), append(out.Count, c)
	}
	for k, c := range prev {
		if c > 0 {
			return nil, fmt.Errorf("bucket (%v, %v] of the earlier file is missing from the later one: the two histograms have different buckets", k.lo, k.hi)
		}
	}
	return out, nil
}

// Intervals returns the buckets as weighted intervals, with unanswered
// items (never answered within the metric's range) pending at the
// largest finite bound; a bucket beyond the last bound, answered at an
// unknown age, counts as pending at that bound too, since the estimate
// cannot tell the two apart.
func (h *Histogram) Intervals(unanswered float64) []estimate.Interval {
	var out []estimate.Interval
	top := 0.0
	for i, c := range h.Count {
		if !math.IsInf(h.Hi[i], 1) {
			top = max(top, h.Hi[i])
		}
		if c > 0 {
			out = append(out, estimate.Interval{Lo: h.Lo[i], Hi: h.Hi[i], W: c})
		}
	}
	if unanswered > 0 {
		out = append(out, estimate.Interval{Lo: top, Hi: math.Inf(1), W: unanswered})
	}
	return out
}

// fromCumulative builds a Histogram from Prometheus's cumulative counts
// at upper bounds le.
func fromCumulative(name string, le, cum []float64) (*Histogram, error) {
	idx := make([]int, len(le))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return le[idx[a]] < le[idx[b]] })
	h := &Histogram{Name: name, Format: "prometheus", Sum: math.NaN()}
	lo, prev := 0.0, 0.0
	for k, i := range idx {
		if k > 0 && le[i] == le[idx[k-1]] {
			return nil, fmt.Errorf("%s: bucket le=%v given twice", name, le[i])
		}
		if le[i] < 0 {
			return nil, fmt.Errorf("%s: bucket le=%v: a settle time is not negative", name, le[i])
		}
		if cum[i] < prev {
			return nil, fmt.Errorf("%s: bucket le=%v counts %v, fewer than %v at the bound below: counts are cumulative", name, le[i], cum[i], prev)
		}
		h.Lo, h.Hi, h.Count = append(h.Lo, lo), append(h.Hi, le[i]), append(h.Count, cum[i]-prev)
		lo, prev = le[i], cum[i]
	}
	return h, nil
}

func parseCount(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || !(v >= 0) || math.IsInf(v, 1) {
		return 0, fmt.Errorf("bad count %q (want a number >= 0)", s)
	}
	return v, nil
}
