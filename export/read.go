package export

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pollfit/pollfit/fit/schedule"
)

// FieldError is a fault in a JSON document, at a path such as
// "clauses[2].every_ms" ("" for the whole document).
type FieldError struct {
	Path string
	Msg  string
}

func (e *FieldError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

func fieldErr(path, format string, args ...any) error {
	return &FieldError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// ReadJSON reads a schedule from a JSON document: a version 1 document
// as JSON writes, or any object whose "schedule" key holds schedule
// language text and that has no "version" key (the output of
// "pollfit fit --json"; its other keys are ignored), or whose
// "schedule" key holds a version 1 document. It returns the schedule
// as written (not canonicalised) and the document's meta, nil when it
// has none. It reads at most MaxDocument bytes, and refuses a schedule
// longer as text than schedule.MaxText. Faults are *FieldError naming the JSON path, or a syntax
// error with the line and column.
func ReadJSON(r io.Reader) (*schedule.Schedule, *Meta, error) {
	data, err := readLimited(r)
	if err != nil {
		return nil, nil, err
	}
	v, err := decode(data)
	if err != nil {
		return nil, nil, err
	}
	return fromValue("", v)
}

// decode parses one JSON value with numbers kept as json.Number.
func decode(data []byte) (any, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, errors.New("empty document")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.As(json.Unmarshal(data, new(any)), &se) {
			line, col := lineCol(data, se.Offset-1) // Offset is just past the fault
			return nil, fmt.Errorf("%d:%d: %v", line, col, se)
		}
		return nil, err
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		end += int64(len(data[end:]) - len(bytes.TrimLeft(data[end:], " \t\r\n")))
		line, col := lineCol(data, end)
		return nil, fmt.Errorf("%d:%d: data after the end of the document", line, col)
	}
	return v, nil
}

func lineCol(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

func fromValue(path string, v any) (*schedule.Schedule, *Meta, error) {
	obj, ok := v.(map[string]any)
	if !ok {
		return nil, nil, fieldErr(path, "expected a JSON object, found %s", kindOf(v))
	}
	if _, ok := obj["version"]; ok {
		return readDocument(path, obj)
	}
	switch sv := obj["schedule"].(type) {
	case string:
		s, err := schedule.Parse(sv)
		if err != nil {
			return nil, nil, fieldErr(join(path, "schedule"), "%v", err)
		}
		return s, nil, nil
	case map[string]any:
		return fromValue(join(path, "schedule"), sv)
	case nil:
		return nil, nil, fieldErr(path, "not a pollfit schedule: no \"version\" or \"schedule\" key")
	default:
		return nil, nil, fieldErr(join(path, "schedule"), "expected a string, found %s", kindOf(sv))
	}
}

// ParseSpec reads a schedule given on a command line: schedule language
// text, or "@FILE" for a file holding a JSON document (when its first
// non-space character is "{"; see ReadJSON) or schedule language text,
// at most MaxDocument bytes. Errors name the file.
func ParseSpec(spec string) (*schedule.Schedule, error) {
	name, ok := strings.CutPrefix(spec, "@")
	if !ok {
		return schedule.Parse(spec)
	}
	data, err := ReadSpecFile(name)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimSpace(data); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
		s, _, err := ReadJSON(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return s, nil
	}
	s, err := schedule.Parse(string(data))
	if err != nil {
		return nil, fmt.Errorf("%s:%w", name, err)
	}
	return s, nil
}
