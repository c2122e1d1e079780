package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strings"
	"testing"
)

// This file holds a small JSON Schema validator for the subset of draft
// 2020-12 that schedule.schema.json uses (no JSON Schema library is in
// go.mod): type, const, enum, required, properties,
// additionalProperties, items, minItems, minimum, exclusiveMinimum,
// oneOf and $ref to "#/$defs/NAME". Annotations ($schema, $id, title,
// description) are ignored; any other keyword fails the test, so the
// schema cannot quietly outgrow the validator.

var schemaKeywords = map[string]bool{
	"type": true, "const": true, "enum": true, "required": true, "properties": true,
	"additionalProperties": true, "items": true, "minItems": true, "minimum": true,
	"exclusiveMinimum": true, "oneOf": true, "$ref": true, "$defs": true,
	"$schema": true, "$id": true, "title": true, "description": true,
}

type validator struct {
	root map[string]any
}

func decodeJSON(t *testing.T, data []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode: %v\n%s", err, data)
	}
	return v
}

// checkKeywords reports schema keywords the validator does not know.
func checkKeywords(path string, s map[string]any) []string {
	var bad []string
	for k, v := range s {
		if !schemaKeywords[k] {
			bad = append(bad, path+"/"+k)
		}
		switch k {
		case "properties", "$defs":
			for name, sub := range v.(map[string]any) {
				bad = append(bad, checkKeywords(path+"/"+k+"/"+name, sub.(map[string]any))...)
			}
		case "items", "additionalProperties":
			if sub, ok := v.(map[string]any); ok {
				bad = append(bad, checkKeywords(path+"/"+k, sub)...)
			}
		case "oneOf":
			for i, sub := range v.([]any) {
				bad = append(bad, checkKeywords(fmt.Sprintf("%s/oneOf/%d", path, i), sub.(map[string]any))...)
			}
		}
	}
	return bad
}

// validate returns the faults of v against schema s, each with the path.
func (vd *validator) validate(path string, s map[string]any, v any) []string {
	var errs []string
	fail := func(format string, args ...any) { errs = append(errs, path+": "+fmt.Sprintf(format, args...)) }
	if ref, ok := s["$ref"].(string); ok {
		name, ok := strings.CutPrefix(ref, "#/$defs/")
		def, found := vd.root["$defs"].(map[string]any)[name].(map[string]any)
		if !ok || !found {
			return []string{path + ": unresolvable $ref " + ref}
		}
		errs = append(errs, vd.validate(path, def, v)...)
	}
	if typ, ok := s["type"].(string); ok && !hasType(typ, v) {
		fail("want %s, have %T", typ, v)
		return errs
	}
	if c, ok := s["const"]; ok && !jsonEqual(c, v) {
		fail("want const %v, have %v", c, v)
	}
	if enum, ok := s["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			found = found || jsonEqual(e, v)
		}
		if !found {
			fail("%v not in enum %v", v, enum)
		}
	}
	if n, ok := v.(json.Number); ok {
		x := rat(n)
		if m, ok := s["minimum"].(json.Number); ok && x.Cmp(rat(m)) < 0 {
			fail("%s < minimum %s", n, m)
		}
		if m, ok := s["exclusiveMinimum"].(json.Number); ok && x.Cmp(rat(m)) <= 0 {
			fail("%s ≤ exclusiveMinimum %s", n, m)
		}
	}
	if arr, ok := v.([]any); ok {
		if m, ok := s["minItems"].(json.Number); ok && int64(len(arr)) < rat(m).Num().Int64() {
			fail("%d items < minItems %s", len(arr), m)
		}
		if items, ok := s["items"].(map[string]any); ok {
			for i, e := range arr {
				errs = append(errs, vd.validate(fmt.Sprintf("%s[%d]", path, i), items, e)...)
			}
		}
	}
	if obj, ok := v.(map[string]any); ok {
		errs = append(errs, vd.validateObject(path, s, obj)...)
	}
	if one, ok := s["oneOf"].([]any); ok {
		n, why := 0, []string{}
		for i, sub := range one {
			e := vd.validate(path, sub.(map[string]any), v)
			if len(e) == 0 {
				n++
			}
			why = append(why, fmt.Sprintf("oneOf[%d]: %v", i, e))
		}
		if n != 1 {
			fail("matches %d of the oneOf schemas, want exactly 1 (%s)", n, strings.Join(why, "; "))
		}
	}
	return errs
}

func (vd *validator) validateObject(path string, s map[string]any, obj map[string]any) []string {
	var errs []string
	if req, ok := s["required"].([]any); ok {
		for _, r := range req {
			if _, ok := obj[r.(string)]; !ok {
				errs = append(errs, fmt.Sprintf("%s: missing required %q", path, r))
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		sub, ok := props[k].(map[string]any)
		switch ap := s["additionalProperties"].(type) {
		case nil:
		case bool:
			if !ok && !ap {
				errs = append(errs, fmt.Sprintf("%s: property %q not allowed", path, k))
			}
		case map[string]any:
			if !ok {
				sub, ok = ap, true
			}
		}
		if ok {
			errs = append(errs, vd.validate(path+"."+k, sub, obj[k])...)
		}
	}
	return errs
}

func hasType(typ string, v any) bool {
	switch typ {
	case "object":
		_, ok := v.(map[string]any)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "string":
		_, ok := v.(string)
		return ok
	case "number":
		_, ok := v.(json.Number)
		return ok
	case "integer":
		n, ok := v.(json.Number)
		return ok && rat(n).IsInt()
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "null":
		return v == nil
	}
	return false
}

func rat(n json.Number) *big.Rat {
	r, ok := new(big.Rat).SetString(string(n))
	if !ok {
		panic("bad number " + n)
	}
	return r
}

func jsonEqual(a, b any) bool {
	if x, ok := a.(json.Number); ok {
		y, ok := b.(json.Number)
		return ok && rat(x).Cmp(rat(y)) == 0
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return bytes.Equal(ja, jb)
}

func schemaValidator(t *testing.T) *validator {
	t.Helper()
	root := decodeJSON(t, JSONSchema()).(map[string]any)
	if bad := checkKeywords("#", root); len(bad) > 0 {
		t.Fatalf("schema uses keywords the test validator does not implement: %v", bad)
	}
	if root["$schema"] != "https://json-schema.org/draft/2020-12/schema" {
		t.Fatalf("$schema = %v, want draft 2020-12", root["$schema"])
	}
	return &validator{root: root}
}

func (vd *validator) check(t *testing.T, data []byte) []string {
	t.Helper()
	return vd.validate("$", vd.root, decodeJSON(t, data))
}

// TestValidatorRejects checks the validator itself on documents that
// break the schema, each in one way.
func TestValidatorRejects(t *testing.T) {
	vd := schemaValidator(t)
	good := `{"version": 1, "schedule": "1s until 30s, 5s", "clauses": [{"kind": "every", "every_ms": 1000, "until_ms": 30000}, {"kind": "every", "every_ms": 5000, "forever": true}], "aligned": [], "reset_on_signal": false, "stops": false}`
	if errs := vd.check(t, []byte(good)); len(errs) > 0 {
		t.Fatalf("good document rejected: %v", errs)
	}
	for _, tc := range []struct{ name, from, to, want string }{
		{"version", `"version": 1`, `"version": 2`, "const"},
		{"missing key", `"stops": false`, `"x": false`, "required"},
		{"every zero", `"every_ms": 1000`, `"every_ms": 0`, "exclusiveMinimum"},
		{"negative until", `"until_ms": 30000`, `"until_ms": -1`, "minimum"},
		{"both until and forever", `"forever": true`, `"forever": true, "until_ms": 9`, "oneOf"},
		{"neither", `, "until_ms": 30000`, ``, "oneOf"},
		{"unknown kind", `"kind": "every", "every_ms": 1000`, `"kind": "often", "every_ms": 1000`, "oneOf"},
		{"extra key", `"aligned": []`, `"aligned": [], "colour": "red"`, "not allowed"},
		{"wrong type", `"reset_on_signal": false`, `"reset_on_signal": "no"`, "want boolean"},
		{"aligned without offsets", `"aligned": []`, `"aligned": [{"period_ms": 1000, "offsets_ms": [], "forever": true}]`, "minItems"},
	} {
		doc := strings.Replace(good, tc.from, tc.to, 1)
		if doc == good {
			t.Fatalf("%s: replacement did not apply", tc.name)
		}
		errs := vd.check(t, []byte(doc))
		if !strings.Contains(strings.Join(errs, "\n"), tc.want) {
			t.Errorf("%s: errors %v, want one mentioning %q", tc.name, errs, tc.want)
		}
	}
}
