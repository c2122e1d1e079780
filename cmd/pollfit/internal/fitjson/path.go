package fitjson

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Path is where in root's JSON the value field points to is written:
// the keys of the json tags down to it, and array indices as numbers,
// joined by dots ("comparisons.0.bracket.1.requests_per_item" for
// &j.Comparisons[0].Bracket[1].RequestsPerItem of a *Fit j). root is a
// pointer to a schema value (a *Fit), field a pointer into that very
// value, not into a copy of part of it. A field behind omitempty has
// its path even when its zero value leaves it out of the JSON.
//
// It fails when field is not inside root, or is inside a value that
// writes its own JSON (AsksBy): its Go fields are not JSON keys.
func Path(root, field any) (string, error) {
	r, f := reflect.ValueOf(root), reflect.ValueOf(field)
	if r.Kind() != reflect.Pointer || r.IsNil() {
		return "", fmt.Errorf("fitjson: path: root is %T, not a pointer to a schema value such as *fitjson.Fit", root)
	}
	if f.Kind() != reflect.Pointer || f.IsNil() {
		return "", fmt.Errorf("fitjson: path: field is %T, not a pointer to a field (&j.Fitted.Lag.Mean)", field)
	}
	w := walker{addr: f.Pointer(), typ: f.Type().Elem()}
	if keys, ok := w.walk(r.Elem(), nil); ok {
		return strings.Join(keys, "."), nil
	}
	return "", fmt.Errorf("fitjson: path: the %s at %#x is not a field of this %T: take the address within it (c := &j.Comparisons[0], not a copy)", w.typ, w.addr, root)
}

// MustPath is Path for a field known to be in root, such as one the
// caller has just read through root: it panics on Path's error, which
// is a bug of the caller's.
func MustPath(root, field any) string {
	p, err := Path(root, field)
	if err != nil {
		panic(err)
	}
	return p
}

// walker finds the value of type typ at address addr.
type walker struct {
	addr uintptr
	typ  reflect.Type
}

var marshaler = reflect.TypeFor[json.Marshaler]()

// walk is the keys from v down to the value sought, ok false when it
// is not inside v. A value and its first field share an address, so
// the type tells them apart.
func (w walker) walk(v reflect.Value, keys []string) ([]string, bool) {
	if v.CanAddr() && v.Addr().Pointer() == w.addr && v.Type() == w.typ {
		return keys, true
	}
	if v.Type().Implements(marshaler) || reflect.PointerTo(v.Type()).Implements(marshaler) {
		return nil, false // its own JSON: its fields are not keys
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return w.walk(v.Elem(), keys)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if k, ok := w.walk(v.Index(i), append(keys, strconv.Itoa(i))); ok {
				return k, true
			}
		}
	case reflect.Struct:
		return w.fields(v, keys)
	}
	return nil, false
}

// fields walks the exported fields of the struct v under their JSON
// keys; an embedded struct without a key of its own is inlined, as
// encoding/json does.
func (w walker) fields(v reflect.Value, keys []string) ([]string, bool) {
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if !sf.IsExported() || name == "-" {
			continue
		}
		sub := keys
		switch {
		case name != "":
			sub = append(keys, name)
		case !sf.Anonymous:
			sub = append(keys, sf.Name)
		}
		if k, ok := w.walk(v.Field(i), sub[:len(sub):len(sub)]); ok {
			return k, true
		}
	}
	return nil, false
}
