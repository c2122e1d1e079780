package logs

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/pollfit/pollfit/internal/opterr"
)

// promSeries is one histogram of a Prometheus text exposition: its
// cumulative bucket counts by upper bound, sum and count.
type promSeries struct {
	le, cum    []float64
	sum, count float64
	hasCount   bool
}

// parsePrometheus reads the text exposition format: lines name{labels}
// value [timestamp], # comments. Histograms are the _bucket series with
// an le label, with their _sum and _count; a series is a name and its
// labels other than le.
func parsePrometheus(path string, data []byte, opt MetricOptions) (*Histogram, error) {
	series := map[string]*promSeries{} // by base name + labels without le
	base := map[string]string{}        // series key to base name
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		name, labels, value, err := promSample(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		b, kind := promKind(name)
		if kind == "" {
			continue
		}
		le, hasLE := labels["le"]
		delete(labels, "le")
		key := b + promLabels(labels)
		s := series[key]
		if s == nil {
			s = &promSeries{sum: math.NaN()}
			series[key], base[key] = s, b
		}
		switch kind {
		case "bucket":
			if !hasLE {
				continue // a _bucket series of something else
			}
			bound, err1 := strconv.ParseFloat(le, 64)
			c, err2 := parseCount(value)
			if err1 != nil || math.IsNaN(bound) {
				return nil, fmt.Errorf("%s:%d: bad bucket bound le=%q", path, line, le)
			} else if err2 != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err2)
			}
			s.le, s.cum = append(s.le, bound), append(s.cum, c)
		case "sum":
			s.sum, _ = strconv.ParseFloat(value, 64)
		case "count":
			c, err := parseCount(value)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %v", path, line, err)
			}
			s.count, s.hasCount = c, true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return promPick(path, series, base, opt)
}

// promPick chooses the histogram opt names, or the only one, summing
// the series of one name.
func promPick(path string, series map[string]*promSeries, base map[string]string, opt MetricOptions) (*Histogram, error) {
	var keys []string
	names := map[string]bool{}
	for k, s := range series {
		if len(s.le) > 0 && (opt.Metric == "" || base[k] == opt.Metric) {
			keys = append(keys, k)
			names[base[k]] = true
		}
	}
	sort.Strings(keys)
	switch {
	case len(keys) == 0 && opt.Metric != "":
		return nil, fmt.Errorf("%s: no histogram named %q (no %s_bucket series with an le label)", path, opt.Metric, opt.Metric)
	case len(keys) == 0:
		return nil, fmt.Errorf("%s: no histogram: want _bucket{le=...} series in the Prometheus text format", path)
	case len(names) > 1:
		return nil, fmt.Errorf("%s: %w", path, opterr.Optionf("Metric", nil, "holds %d histograms (%s): pick one by name with Metric", len(names), strings.Join(sortedKeys(names), ", ")))
	}
	total := &promSeries{sum: 0}
	byLE := map[float64]float64{}
	for _, k := range keys {
		s := series[k]
		for i, le := range s.le {
			byLE[le] += s.cum[i]
		}
		total.sum += s.sum
		if s.hasCount {
			total.count += s.count
		}
	}
	for le, c := range byLE {
		total.le, total.cum = append(total.le, le), append(total.cum, c)
	}
	h, err := fromCumulative(base[keys[0]], total.le, total.cum)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	h.Sum = total.sum
	if n := h.Hi[len(h.Hi)-1]; !math.IsInf(n, 1) {
		return nil, fmt.Errorf("%s: %s has no le=\"+Inf\" bucket: the exposition format requires one", path, h.Name)
	}
	return h, nil
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// promKind splits a sample name into a histogram's base name and
// "bucket", "sum" or "count", or kind "" for another series.
func promKind(name string) (base, kind string) {
	for _, k := range []string{"bucket", "sum", "count"} {
		if b, ok := strings.CutSuffix(name, "_"+k); ok {
			return b, k
		}
	}
	return name, ""
}

// promLabels writes labels in a canonical order, as a series key.
func promLabels(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%s=%q", k, labels[k])
	}
	b.WriteByte('}')
	return b.String()
}

// promSample parses one sample line: name, optional {labels}, value and
// an optional timestamp.
func promSample(text string) (name string, labels map[string]string, value string, err error) {
	labels = map[string]string{}
	i := strings.IndexAny(text, "{ \t")
	if i <= 0 {
		return "", nil, "", fmt.Errorf("bad sample %s: want name{labels} value", quoted(text))
	}
	name, rest := text[:i], text[i:]
	if rest[0] == '{' {
		rest, err = promLabelSet(rest[1:], labels)
		if err != nil {
			return "", nil, "", fmt.Errorf("sample %s: %v", quoted(text), err)
		}
	}
	f := strings.Fields(rest)
	if len(f) < 1 || len(f) > 2 {
		return "", nil, "", fmt.Errorf("bad sample %s: want name{labels} value [timestamp]", quoted(text))
	}
	return name, labels, f[0], nil
}

// promLabelSet parses name="value" pairs up to the closing brace,
// returning what follows it.
func promLabelSet(s string, labels map[string]string) (string, error) {
	for {
		s = strings.TrimLeft(s, " \t,")
		if strings.HasPrefix(s, "}") {
			return s[1:], nil
		}
		eq := strings.IndexByte(s, '=')
		if eq <= 0 || eq+1 >= len(s) || s[eq+1] != '"' {
			return "", fmt.Errorf("bad label set: want name=\"value\"")
		}
		key := strings.TrimSpace(s[:eq])
		var val strings.Builder
		j := eq + 2
		for ; j < len(s) && s[j] != '"'; j++ {
			if s[j] == '\\' && j+1 < len(s) {
				j++
				switch s[j] {
				case 'n':
					val.WriteByte('\n')
				default:
					val.WriteByte(s[j])
				}
				continue
			}
			val.WriteByte(s[j])
		}
		if j >= len(s) {
			return "", fmt.Errorf("unterminated label value")
		}
		labels[key] = val.String()
		s = s[j+1:]
	}
}
