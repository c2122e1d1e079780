package logs

import (
	"fmt"
	"strings"

	"github.com/pollfit/pollfit/internal/opterr"
)

// logMode is how a log gives ages.
type logMode uint8

const (
	modeTimes    logMode = iota // created_at and settled_at timestamps
	modeDuration                // a duration column (created_at optional)
	modeHist                    // a histogram: lo_s, hi_s, final, pending
)

// layout says where the needed columns of one file are (-1: absent).
type layout struct {
	file                                       string
	names                                      []string // header, trimmed
	mode                                       logMode
	created, settled, duration, status, signal int
	by                                         int // the Options.By column
	lo, hi, final, pending                     int
}

func (l *layout) name(col int) string {
	if col < 0 || col >= len(l.names) {
		return ""
	}
	return l.names[col]
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// indexHeader fills names with the trimmed header and maps each
// lower-cased name to its first column, and each first column named
// again to the first column repeating it.
func indexHeader(header, names []string) (index map[string]int, dups map[int]int) {
	index, dups = map[string]int{}, map[int]int{}
	for i, h := range header {
		h = strings.TrimSpace(h)
		names[i] = h
		if j, dup := index[strings.ToLower(h)]; !dup {
			index[strings.ToLower(h)] = i
		} else if _, seen := dups[j]; !seen {
			dups[j] = i
		}
	}
	return index, dups
}

// resolveColumns finds the columns opt asks for in a header.
func resolveColumns(file string, header []string, opt *Options) (*layout, error) {
	l := &layout{file: file, names: make([]string, len(header))}
	index, dups := indexHeader(header, l.names)
	found := func() string {
		if len(l.names) == 0 {
			return "the header is empty"
		}
		return "header has: " + cut(strings.Join(l.names, ", "))
	}
	var missing []string
	var dup error
	find := func(set, def string) int {
		if i, ok := index[strings.ToLower(strings.TrimSpace(orDefault(set, def)))]; ok {
			if j, twice := dups[i]; twice && dup == nil {
				dup = &RowError{File: file, Line: 1, Col: j + 1, Column: cut(l.names[j]),
					Msg: fmt.Sprintf("the header names this column twice (columns %d and %d): rename or drop one", i+1, j+1)}
			}
			return i
		}
		if set != "" {
			missing = append(missing, fmt.Sprintf("%q", set))
		}
		return -1
	}
	l.created = find(opt.CreatedCol, "created_at")
	l.settled = find(opt.SettledCol, "settled_at")
	l.duration = find(opt.DurationCol, "duration")
	l.status = find(opt.StatusCol, "status")
	l.signal = find(opt.SignalCol, "signal")
	if l.signal < 0 && opt.SignalCol == "" {
		l.signal = find("", "signal_at")
	}
	l.by = -1
	if opt.By != "" {
		l.by = find(opt.By, "")
	}
	l.lo, l.hi = find("", "lo_s"), find("", "hi_s")
	l.final, l.pending = find("", "final"), find("", "pending")
	hist := l.lo >= 0 && l.hi >= 0 && l.final >= 0 && l.pending >= 0
	switch {
	case dup != nil:
		return nil, dup
	case opt.Histogram && !hist:
		return nil, fmt.Errorf("%s: a histogram needs the columns lo_s, hi_s, final, pending (%s)", file, found())
	case opt.Histogram:
		l.mode = modeHist
		return l, nil
	case hist && l.created < 0 && l.duration < 0:
		return nil, fmt.Errorf("%s: %w", file, opterr.Optionf("Histogram", nil, "looks like a histogram (lo_s, hi_s, final, pending): read it as one (Histogram)"))
	case l.created < 0 && l.duration < 0 && otherDelimiter(l.names, opt.Delimiter) != 0:
		d := otherDelimiter(l.names, opt.Delimiter)
		return nil, fmt.Errorf("%s: %w", file, opterr.Optionf("Delimiter", nil, "the header is one column, %s, holding %q: read the file with Delimiter %q", quoted(l.names[0]), d, d))
	case len(missing) > 0:
		return nil, fmt.Errorf("%s: no column %s (%s)", file, strings.Join(missing, " or "), found())
	case opt.DurationCol != "" || (l.duration >= 0 && (l.created < 0 || l.settled < 0)):
		l.mode = modeDuration
		l.settled = -1
	case l.created >= 0 && l.settled >= 0:
		l.mode = modeTimes
		l.duration = -1
	default:
		return nil, &MissingColumnsError{File: file, Created: orDefault(opt.CreatedCol, "created_at"),
			Settled: orDefault(opt.SettledCol, "settled_at"), Duration: orDefault(opt.DurationCol, "duration"), Found: found()}
	}
	return l, nil
}

// width is the number of fields a row must have.
func (l *layout) width() int { return len(l.names) }

// otherDelimiter is the delimiter a header of one column holds, when it
// holds one the read did not use (set, or ',' when 0): ';', tab, '|' or
// ','; 0 otherwise.
func otherDelimiter(names []string, set rune) rune {
	if len(names) != 1 {
		return 0
	}
	if set == 0 {
		set = ','
	}
	for _, d := range []rune{';', '\t', '|', ','} {
		if d != set && strings.ContainsRune(names[0], d) {
			return d
		}
	}
	return 0
}
