package export

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
)

// Helpers for walking a decoded JSON value (numbers as json.Number)
// with the path of each fault.

// readList reads an optional array (absent means empty) with read.
func readList[T any](path string, v any, read func(string, any) (T, error)) ([]T, error) {
	if v == nil {
		return nil, nil
	}
	arr, ok := v.([]any)
	if !ok {
		return nil, fieldErr(path, "expected an array, found %s", kindOf(v))
	}
	if len(arr) > maxList {
		return nil, fieldErr(path, "%d elements, more than the %d a schedule may hold", len(arr), maxList)
	}
	var out []T
	for i, e := range arr {
		x, err := read(index(path, i), e)
		if err != nil {
			return nil, err
		}
		out = append(out, x)
	}
	return out, nil
}

// readMSList reads a required, non-empty array of durations.
func readMSList(path string, v any) ([]time.Duration, error) {
	if v == nil {
		return nil, fieldErr(path, "missing")
	}
	ds, err := readList(path, v, readMS)
	if err == nil && len(ds) == 0 {
		err = fieldErr(path, "must not be empty")
	}
	return ds, err
}

func readPositive(path string, v any) (time.Duration, error) {
	if v == nil {
		return 0, fieldErr(path, "missing")
	}
	if n, ok := v.(json.Number); ok && strings.HasPrefix(string(n), "-") {
		return 0, fieldErr(path, "must be positive, found %s", n)
	}
	d, err := readMS(path, v)
	if err == nil && d == 0 {
		err = fieldErr(path, "must be positive")
	}
	return d, err
}

// readMS reads a duration in milliseconds written as a JSON number,
// exactly: 0.000001 is one nanosecond, 1e3 is a second.
func readMS(path string, v any) (time.Duration, error) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, fieldErr(path, "expected a number of milliseconds, found %s", kindOf(v))
	}
	s := string(n)
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		if e, err := strconv.Atoi(s[i+1:]); err != nil || e < -40 || e > 40 {
			return 0, fieldErr(path, "%s ms is out of range", s)
		}
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, fieldErr(path, "invalid number %s", s)
	}
	r.Mul(r, big.NewRat(int64(time.Millisecond), 1))
	switch {
	case r.Sign() < 0:
		return 0, fieldErr(path, "must not be negative, found %s", s)
	case !r.IsInt():
		return 0, fieldErr(path, "%s ms is not a whole number of nanoseconds", s)
	case !r.Num().IsInt64():
		return 0, fieldErr(path, "%s ms is too long", s)
	}
	return time.Duration(r.Num().Int64()), nil
}

func onlyKeys(path string, obj map[string]any, keys ...string) error {
	for _, k := range sortedKeys(obj) {
		known := false
		for _, want := range keys {
			known = known || k == want
		}
		if !known {
			return fieldErr(join(path, k), "unknown key (expected one of %s)", strings.Join(keys, ", "))
		}
	}
	return nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%T", v)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string { return fmt.Sprintf("%s[%d]", path, i) }
