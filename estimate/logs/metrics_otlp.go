package logs

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/opterr"
)

// otlpPoint is one exponential-histogram data point.
type otlpPoint struct {
	scale, offset int
	counts        []float64
	zero, zeroThr float64
	sum           float64
}

// parseOTLP reads the exponential histograms of an OTLP JSON file, in
// the protobuf JSON mapping (resourceMetrics, scopeMetrics, metrics,
// exponentialHistogram.dataPoints with scale, zeroCount, zeroThreshold,
// positive.offset, positive.bucketCounts; 64-bit counts as strings or
// numbers) or as the Go SDK's stdout exporter writes metricdata (Scale,
// ZeroCount, ZeroThreshold, PositiveBucket.Offset, .Counts): keys are
// matched case-insensitively. The data points of the chosen metric
// (one per attribute set) are summed, at the coarsest scale among them.
// Bucket i at scale s holds ages in (b^i, b^(i+1)], b = 2^(2^−s); the
// zero bucket ages in [0, zeroThreshold], or exactly 0.
func parseOTLP(path string, data []byte, opt MetricOptions) (*Histogram, error) {
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: bad JSON: %v", path, err)
	}
	points := map[string][]otlpPoint{}
	var walkErr error
	walkMetrics(doc, func(name string, dp map[string]any) {
		p, err := otlpPointOf(dp)
		if err != nil && walkErr == nil {
			walkErr = fmt.Errorf("%s: metric %q: %v", path, name, err)
		}
		points[name] = append(points[name], p)
	})
	if walkErr != nil {
		return nil, walkErr
	}
	names := map[string]bool{}
	for n := range points {
		if opt.Metric == "" || n == opt.Metric {
			names[n] = true
		}
	}
	switch {
	case len(names) == 0 && opt.Metric != "":
		return nil, fmt.Errorf("%s: no exponential histogram named %q", path, opt.Metric)
	case len(names) == 0:
		return nil, fmt.Errorf("%s: no exponential histogram (want dataPoints with scale and positive bucket counts)", path)
	case len(names) > 1:
		return nil, fmt.Errorf("%s: %w", path, opterr.Optionf("Metric", nil, "holds %d exponential histograms (%s): pick one by name with Metric", len(names), strings.Join(sortedKeys(names), ", ")))
	}
	name := sortedKeys(names)[0]
	return otlpHistogram(name, points[name])
}

// walkMetrics calls fn with each data point of each metric that has an
// exponential histogram, found anywhere in doc.
func walkMetrics(doc any, fn func(name string, dp map[string]any)) {
	switch v := doc.(type) {
	case []any:
		for _, e := range v {
			walkMetrics(e, fn)
		}
	case map[string]any:
		name, _ := field(v, "name").(string)
		for _, hk := range []string{"exponentialHistogram", "data"} {
			if h, ok := field(v, hk).(map[string]any); ok && name != "" {
				if dps, ok := field(h, "dataPoints").([]any); ok {
					for _, dp := range dps {
						if m, ok := dp.(map[string]any); ok && field(m, "scale") != nil {
							fn(name, m)
						}
					}
					return
				}
			}
		}
		for _, e := range v {
			walkMetrics(e, fn)
		}
	}
}

// field is m[key], the key matched case-insensitively.
func field(m map[string]any, key string) any {
	if v, ok := m[key]; ok {
		return v
	}
	for k, v := range m {
		if strings.EqualFold(k, key) {
			return v
		}
	}
	return nil
}

// num reads a JSON number or a number in a string (protobuf's 64-bit
// integers); nil is 0.
func num(v any) (float64, error) {
	switch x := v.(type) {
	case nil:
		return 0, nil
	case float64:
		return x, nil
	case string:
		return strconv.ParseFloat(x, 64)
	}
	return 0, fmt.Errorf("%v is not a number", v)
}

func otlpPointOf(dp map[string]any) (otlpPoint, error) {
	var p otlpPoint
	sc, err1 := num(field(dp, "scale"))
	p.zero, _ = num(field(dp, "zeroCount"))
	p.zeroThr, _ = num(field(dp, "zeroThreshold"))
	p.sum, _ = num(field(dp, "sum"))
	pos, _ := field(dp, "positive").(map[string]any)
	if pos == nil {
		pos, _ = field(dp, "positiveBucket").(map[string]any)
	}
	if err1 != nil || sc != math.Trunc(sc) || sc < -10 || sc > 20 {
		return p, fmt.Errorf("bad scale %v (want a whole number from -10 to 20)", field(dp, "scale"))
	}
	p.scale = int(sc)
	if pos != nil {
		off, err := num(field(pos, "offset"))
		if err != nil || off != math.Trunc(off) {
			return p, fmt.Errorf("bad positive offset %v", field(pos, "offset"))
		}
		p.offset = int(off)
		cs, _ := field(pos, "bucketCounts").([]any)
		if cs == nil {
			cs, _ = field(pos, "counts").([]any)
		}
		for _, c := range cs {
			v, err := num(c)
			if err != nil || !(v >= 0) {
				return p, fmt.Errorf("bad bucket count %v", c)
			}
			p.counts = append(p.counts, v)
		}
	}
	return p, nil
}

// otlpHistogram sums points at their coarsest scale.
func otlpHistogram(name string, points []otlpPoint) (*Histogram, error) {
	scale := points[0].scale
	for _, p := range points {
		scale = min(scale, p.scale)
	}
	byIndex := map[int]float64{}
	h := &Histogram{Name: name, Format: "otlp"}
	zero, zeroThr := 0.0, 0.0
	for _, p := range points {
		shift := p.scale - scale
		for k, c := range p.counts {
			byIndex[(p.offset+k)>>shift] += c // floor division by 2^shift
		}
		zero += p.zero
		zeroThr = max(zeroThr, p.zeroThr)
		h.Sum += p.sum
	}
	if zero > 0 {
		h.Lo, h.Hi, h.Count = append(h.Lo, 0), append(h.Hi, zeroThr), append(h.Count, zero)
	}
	idx := make([]int, 0, len(byIndex))
	for i := range byIndex {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	width := math.Exp2(-float64(scale)) // of a bucket in log2 of the age
	for _, i := range idx {
		lo, hi := math.Exp2(float64(i)*width), math.Exp2(float64(i+1)*width)
		if lo < zeroThr {
			return nil, fmt.Errorf("metric %q: bucket %d (%v, %v] overlaps the zero bucket [0, %v]", name, i, lo, hi, zeroThr)
		}
		h.Lo, h.Hi, h.Count = append(h.Lo, lo), append(h.Hi, hi), append(h.Count, byIndex[i])
	}
	return h, nil
}
