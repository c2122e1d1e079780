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

// promAPIAnswer is the JSON of Prometheus's HTTP API query endpoints
// (/api/v1/query and /api/v1/query_range).
type promAPIAnswer struct {
	Status string `json:"status"`
	Error  string `json:"error"`
	Data   struct {
		ResultType string          `json:"resultType"`
		Result     []promAPISeries `json:"result"`
	} `json:"data"`
}

type promAPISeries struct {
	Metric     map[string]string `json:"metric"`
	Value      []json.RawMessage `json:"value"`      // [ts, "v"]
	Values     [][]any           `json:"values"`     // [[ts, "v"], ...]
	Histogram  []json.RawMessage `json:"histogram"`  // [ts, {...}]
	Histograms [][]any           `json:"histograms"` // [[ts, {...}], ...]
}

// promNative is a native histogram as the API writes it: buckets
// [boundary rule, lower, upper, count], the numbers as strings.
type promNative struct {
	Count   string  `json:"count"`
	Sum     string  `json:"sum"`
	Buckets [][]any `json:"buckets"`
}

// parsePromAPI reads a query answer: classic buckets (a vector or matrix
// of _bucket series with le labels; a matrix's last value counts) or
// native histograms (histogram or histograms values; the last counts).
// Series of one name are summed, as in the text format.
func parsePromAPI(path string, data []byte, opt MetricOptions) (*Histogram, error) {
	var a promAPIAnswer
	if err := json.Unmarshal(data, &a); err != nil {
		return nil, fmt.Errorf("%s: bad Prometheus API JSON: %v", path, err)
	}
	if a.Status != "success" {
		return nil, fmt.Errorf("%s: the query failed: %s", path, a.Error)
	}
	series, base := map[string]*promSeries{}, map[string]string{}
	var native []promNative
	nativeNames := map[string]bool{}
	for _, s := range a.Data.Result {
		name := s.Metric["__name__"]
		if opt.Metric != "" && name != opt.Metric && name != opt.Metric+"_bucket" {
			continue
		}
		if h, ok, err := lastNative(s); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		} else if ok {
			native, nativeNames[name] = append(native, h), true
			continue
		}
		if err := addClassic(s, series, base); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	if len(nativeNames) > 1 {
		return nil, fmt.Errorf("%s: %w", path, opterr.Optionf("Metric", nil, "holds %d histograms (%s): pick one by name with Metric", len(nativeNames), strings.Join(sortedKeys(nativeNames), ", ")))
	}
	for name := range nativeNames {
		return nativeHistogram(path, native, name)
	}
	return promPick(path, series, base, opt)
}

// lastNative returns the last native histogram of a series, if any.
func lastNative(s promAPISeries) (promNative, bool, error) {
	var raw any
	switch {
	case len(s.Histogram) == 2:
		raw = s.Histogram[1]
	case len(s.Histograms) > 0 && len(s.Histograms[len(s.Histograms)-1]) == 2:
		raw = s.Histograms[len(s.Histograms)-1][1]
	default:
		return promNative{}, false, nil
	}
	b, err := json.Marshal(raw)
	var h promNative
	if err == nil {
		err = json.Unmarshal(b, &h)
	}
	if err != nil {
		return h, false, fmt.Errorf("bad native histogram: %v", err)
	}
	return h, true, nil
}

// addClassic adds a _bucket sample (its last value) to series.
func addClassic(s promAPISeries, series map[string]*promSeries, base map[string]string) error {
	b, kind := promKind(s.Metric["__name__"])
	le, ok := s.Metric["le"]
	if kind != "bucket" || !ok {
		return nil
	}
	var v string
	switch {
	case len(s.Value) == 2:
		if err := json.Unmarshal(s.Value[1], &v); err != nil {
			return fmt.Errorf("bad sample value %s", s.Value[1])
		}
	case len(s.Values) > 0 && len(s.Values[len(s.Values)-1]) == 2:
		v, _ = s.Values[len(s.Values)-1][1].(string)
	}
	labels := map[string]string{}
	for k, x := range s.Metric {
		if k != "le" && k != "__name__" {
			labels[k] = x
		}
	}
	key := b + promLabels(labels)
	if series[key] == nil {
		series[key], base[key] = &promSeries{sum: math.NaN()}, b
	}
	bound, err1 := strconv.ParseFloat(le, 64)
	c, err2 := parseCount(v)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("series %s: bad bucket le=%q value %q", key, le, v)
	}
	series[key].le, series[key].cum = append(series[key].le, bound), append(series[key].cum, c)
	return nil
}

// nativeHistogram sums native histograms' buckets, each read as (lower,
// upper] with a negative lower bound taken as 0 (ages are not negative;
// the zero bucket straddles 0).
func nativeHistogram(path string, hs []promNative, name string) (*Histogram, error) {
	type key struct{ lo, hi float64 }
	counts := map[key]float64{}
	h := &Histogram{Name: name, Format: "prometheus"}
	for _, n := range hs {
		if s, err := strconv.ParseFloat(n.Sum, 64); err == nil {
			h.Sum += s
		}
		for _, b := range n.Buckets {
			if len(b) != 4 {
				return nil, fmt.Errorf("%s: bad native bucket %v: want [rule, lower, upper, count]", path, b)
			}
			lo, err1 := strconv.ParseFloat(fmt.Sprint(b[1]), 64)
			hi, err2 := strconv.ParseFloat(fmt.Sprint(b[2]), 64)
			c, err3 := parseCount(fmt.Sprint(b[3]))
			if err1 != nil || err2 != nil || err3 != nil || !(hi >= lo) || hi < 0 {
				return nil, fmt.Errorf("%s: bad native bucket %v", path, b)
			}
			counts[key{max(lo, 0), hi}] += c
		}
	}
	keys := make([]key, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].hi < keys[j].hi })
	for _, k := range keys {
		h.Lo, h.Hi, h.Count = append(h.Lo, k.lo), append(h.Hi, k.hi), append(h.Count, counts[k])
	}
	return h, nil
}
