package logs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"strconv"
	"time"
)

// timeParser turns timestamp fields into Unix nanoseconds. The zero
// value parses automatically in UTC with epoch numbers in seconds.
type timeParser struct {
	layout string         // Go layout, or "" for automatic
	loc    *time.Location // zone for zone-less timestamps; nil = UTC
	unitNS float64        // nanoseconds per epoch unit
	unitI  int64          // the same, as an integer
	unit   string
	// mins caches minutes the fast path parsed, one for each value of
	// the low two bits of the minute's last digit: logs come mostly in
	// time order, and a row's creation and settle times often lie in
	// neighbouring minutes.
	mins [4]minuteKey
}

// minuteKey is the first 16 bytes of a fast-path timestamp,
// "YYYY-MM-DDThh:mm" (read as two little-endian words), and the Unix
// seconds at the start of that minute.
type minuteKey struct {
	k0, k1 uint64
	secs   int64
	ok     bool
}

var errTimeRange = errors.New("out of range (years 1678 to 2261)")

func newTimeParser(layout, unit string, loc *time.Location) (*timeParser, error) {
	p := &timeParser{layout: layout, loc: loc, unit: unit}
	switch unit {
	case "", "s":
		p.unitI, p.unit = 1e9, "s"
	case "ms":
		p.unitI = 1e6
	case "us", "µs":
		p.unitI, p.unit = 1e3, "us"
	case "ns":
		p.unitI = 1
	default:
		return nil, errors.New(`time unit must be "s", "ms", "us" or "ns", not "` + unit + `"`)
	}
	p.unitNS = float64(p.unitI)
	if p.loc == time.UTC {
		p.loc = nil
	}
	return p, nil
}

// isNumber reports whether b looks like an epoch number: an optional
// sign, digits with an optional fraction, an optional exponent.
func isNumber(b []byte) bool {
	i := 0
	if i < len(b) && (b[i] == '-' || b[i] == '+') {
		i++
	}
	digits := 0
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		digits++
	}
	if i < len(b) && b[i] == '.' {
		for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '-' || b[i] == '+') {
			i++
		}
		exp := 0
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(b)
}

// parse returns the Unix nanoseconds of the timestamp in b.
func (p *timeParser) parse(b []byte) (int64, error) {
	if ns, ok := p.fast(b); ok {
		return ns, nil
	}
	return p.notFast(b)
}

// notFast is parse for a timestamp fast does not read. The CSV reader
// calls fast itself, then notFast: parse cannot inline, and the call it
// saves is a fifth of a timestamp's cost.
func (p *timeParser) notFast(b []byte) (int64, error) {
	if p.layout == "" && isNumber(b) {
		return p.epoch(b)
	}
	return p.slow(string(b))
}

// epoch parses a number of TimeUnit since 1970, exactly for decimals
// with up to nine fraction digits.
func (p *timeParser) epoch(b []byte) (int64, error) {
	ip, fp, dot := bytes.Cut(b, []byte{'.'})
	if n, err := strconv.ParseInt(string(ip), 10, 64); err == nil && (!dot || len(fp) <= 9 && allDigits(fp)) {
		if n > math.MaxInt64/p.unitI-1 || n < math.MinInt64/p.unitI+1 {
			return 0, p.epochRange(b)
		}
		ns := n * p.unitI
		if dot {
			var frac, pow int64 = 0, 1 // fp = frac / pow of a unit
			for _, c := range fp {
				frac = frac*10 + int64(c-'0')
				pow *= 10
			}
			f := frac * p.unitI / pow // < 1e18: fits
			if len(ip) > 0 && ip[0] == '-' {
				f = -f
			}
			ns += f
		}
		return ns, nil
	}
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, errors.New("bad epoch number " + quoted(string(b)))
	}
	ns := f * p.unitNS
	if ns >= math.MaxInt64 || ns <= math.MinInt64 {
		return 0, p.epochRange(b)
	}
	return int64(math.Round(ns)), nil
}

func allDigits(b []byte) bool {
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func (p *timeParser) epochRange(b []byte) error {
	msg := "epoch " + string(b) + " out of range for time unit " + p.unit
	if p.unitI > 1 {
		msg += " (is the time unit smaller?)"
	}
	return errors.New(msg)
}

var autoLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999Z0700",
	"2006-01-02 15:04:05.999999999 -0700 MST",
	"2006-01-02 15:04:05.999999999 MST",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02T15:04",
	"2006-01-02 15:04",
	"2006-01-02",
	"2006/01/02 15:04:05.999999999",
	"2006/01/02",
	time.RFC1123Z,
	time.RFC1123,
	time.RFC850,
	time.ANSIC,
	time.UnixDate,
}

func (p *timeParser) location() *time.Location {
	if p.loc == nil {
		return time.UTC
	}
	return p.loc
}

// slow parses with the Go layout, or tries the automatic layouts.
func (p *timeParser) slow(s string) (int64, error) {
	loc := p.location()
	if p.layout != "" {
		t, err := time.ParseInLocation(p.layout, s, loc)
		if err != nil {
			return 0, errors.New("bad timestamp " + quoted(s) + " for layout " + quoted(p.layout))
		}
		return unixNano(t)
	}
	for _, l := range autoLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return unixNano(t)
		}
	}
	return 0, errors.New("bad timestamp " + quoted(s) + " (want RFC 3339, \"2006-01-02 15:04:05\", an epoch number, or set the time format)")
}

func unixNano(t time.Time) (int64, error) {
	if y := t.Year(); y < 1678 || y > 2261 {
		return 0, errTimeRange
	}
	return t.UnixNano(), nil
}

// fast parses YYYY-MM-DD[T ]hh:mm:ss[.fraction][Z|±hh:mm|±hhmm] without
// allocating; as RFC 3339 allows, t and z may be lower-case and the
// seconds may be 60, a leap second, read as the next minute's :00 (Unix
// time has no leap seconds). Zone-less timestamps take the parser's
// location. It reports false for anything else, which then goes the
// slow way, as it does for any timestamp when the parser has a layout.
func (p *timeParser) fast(b []byte) (int64, bool) {
	if len(b) < 19 || b[16] != ':' || p.layout != "" {
		return 0, false
	}
	// The minute, b[:16], from the cache when it holds it.
	k0, k1 := binary.LittleEndian.Uint64(b[:8]), binary.LittleEndian.Uint64(b[8:16])
	c := &p.mins[k1>>56&3] // byte 15: the minute's last digit
	minute := c.secs
	if !c.ok || c.k0 != k0 || c.k1 != k1 {
		var ok bool
		if minute, ok = c.fill(b, k0, k1); !ok {
			return 0, false
		}
	}
	if len(b) == 24 { // the commonest form, to the millisecond in UTC, inline
		w := binary.LittleEndian.Uint64(b[16:])
		if d := w & digitAt; w&punctAt == punct && ((d-zeros)|(d+to80))&high == 0 {
			d -= zeros
			if ss := int64(tens(d >> 8)); ss <= 60 {
				return inRange(minute+ss, int64(tens(d>>32)*10+(d>>48)&0xf)*1e6)
			}
		}
	}
	return p.fastTail(b, minute)
}

// fastTail parses the rest of a timestamp in fast's form, b[16:], in the
// minute b[:16] spells, minute seconds into Unix time.
func (p *timeParser) fastTail(b []byte, minute int64) (int64, bool) {
	ss, ok := two(b[17], b[18])
	if !ok || ss > 60 {
		return 0, false
	}
	var frac int64
	i := 19
	if i < len(b) && b[i] == '.' {
		i++
		if d0, d1, d2, ok := threeDigits(b, i); ok { // the commonest fraction
			frac, i = (int64(d0)*100+int64(d1)*10+int64(d2))*1e6, i+3
		} else {
			start := i
			for ; i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 9; i++ {
				frac = frac*10 + int64(b[i]-'0')
			}
			if i == start || i < len(b) && b[i] >= '0' && b[i] <= '9' {
				return 0, false // no digits, or more than nine
			}
			frac *= fracScale[i-start]
		}
	}
	secs := minute + int64(ss)
	switch {
	case i == len(b):
		if p.loc != nil {
			return p.inLocation(secs, frac)
		}
	case (b[i] == 'Z' || b[i] == 'z') && i+1 == len(b):
	case b[i] == '+' || b[i] == '-':
		off, ok := zoneOffset(b[i+1:])
		if !ok {
			return 0, false
		}
		if b[i] == '+' {
			off = -off
		}
		secs += off
	default:
		return 0, false
	}
	return inRange(secs, frac)
}

// inRange is the Unix ns of secs and frac ns, if they fit an int64.
func inRange(secs, frac int64) (int64, bool) {
	if secs < minUnixSec || secs > maxUnixSec {
		return 0, false
	}
	return secs*1e9 + frac, true
}

// The end of a timestamp to the millisecond in UTC, ":ss.fffZ", as a
// little-endian word: fast checks all eight bytes at once. A digit's byte
// is from '0' to '9': taking '0' sets the top bit of a byte below '0' or
// from 0xb0, and adding 0x46 sets it for one from ':' to 0xb9. The
// lowest bad byte is always seen, as good digits neither borrow nor
// carry.
const (
	punctAt = 0xff000000ff0000ff // bytes 0, 3 and 7
	punct   = 'Z'<<56 | '.'<<24 | ':'
	digitAt = 0x00ffffff00ffff00 // bytes 1, 2, 4, 5 and 6
	zeros   = 0x0030303000303000
	to80    = 0x0046464600464600
	high    = 0x0080808000808000
)

// tens is the two digits in the low two bytes of x, tens first, as a
// number: the multiply puts x0·10 + x1 in the second byte, which the
// lower product x0 (at most 9) does not reach.
func tens(x uint64) uint64 {
	return ((x & 0xffff) * 0x0a01 >> 8) & 0xff
}

// threeDigits reports whether b[i:] is three digits, then the end or a
// byte that is no digit, and returns their values.
func threeDigits(b []byte, i int) (d0, d1, d2 byte, ok bool) {
	if i+3 > len(b) || i+3 < len(b) && b[i+3]-'0' <= 9 {
		return 0, 0, 0, false
	}
	d := b[i : i+3]
	d0, d1, d2 = d[0]-'0', d[1]-'0', d[2]-'0' // below '0' wraps above 9
	return d0, d1, d2, max(d0, d1, d2) <= 9
}

// fracScale[n] turns n digits of a fraction of a second into nanoseconds.
var fracScale = [10]int64{1e9, 1e8, 1e7, 1e6, 1e5, 1e4, 1e3, 100, 10, 1}

// The range of Unix seconds whose nanoseconds fit an int64 (1678 to 2261).
const (
	minUnixSec = -9223372036
	maxUnixSec = 9223372035
)

func (p *timeParser) inLocation(secs, frac int64) (int64, bool) {
	// Civil time in p.loc: build it with time.Date, which resolves the zone.
	t := time.Unix(secs, 0).UTC()
	u := time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), int(frac), p.loc)
	ns, err := unixNano(u)
	return ns, err == nil
}

// inZone reads the Unix ns of a UTC wall-clock time as that wall-clock
// time in the parser's location.
func (p *timeParser) inZone(ns int64) (int64, error) {
	t := time.Unix(0, ns).UTC()
	return unixNano(time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), p.location()))
}

// fill parses the minute b[:16] spells, YYYY-MM-DD[T ]hh:mm, whose
// words are k0 and k1, into c, and returns its Unix seconds.
func (c *minuteKey) fill(b []byte, k0, k1 uint64) (int64, bool) {
	secs, ok := parseMinute(b)
	if ok {
		*c = minuteKey{k0: k0, k1: k1, secs: secs, ok: true}
	}
	return secs, ok
}

// parseMinute returns the Unix seconds at the start of the minute b[:16]
// spells.
func parseMinute(b []byte) (int64, bool) {
	if b[4] != '-' || b[7] != '-' || (b[10] != 'T' && b[10] != 't' && b[10] != ' ') || b[13] != ':' {
		return 0, false
	}
	y1, ok1 := two(b[0], b[1])
	y2, ok2 := two(b[2], b[3])
	mo, ok3 := two(b[5], b[6])
	d, ok4 := two(b[8], b[9])
	hh, ok5 := two(b[11], b[12])
	mm, ok6 := two(b[14], b[15])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || !ok6 || mo < 1 || mo > 12 || d < 1 || hh > 23 || mm > 59 {
		return 0, false
	}
	y := y1*100 + y2
	if d > daysIn(mo, y) {
		return 0, false
	}
	return daysFromCivil(int64(y), int64(mo), int64(d))*86400 + int64(hh*3600+mm*60), true
}

func two(a, b byte) (int, bool) {
	if a < '0' || a > '9' || b < '0' || b > '9' {
		return 0, false
	}
	return int(a-'0')*10 + int(b-'0'), true
}

func daysIn(m, y int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// daysFromCivil is Howard Hinnant's days_from_civil: days since
// 1970-01-01 of the proleptic Gregorian date y-m-d.
func daysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y / 400
	if y < 0 && y%400 != 0 {
		era--
	}
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// zoneOffset parses hh:mm, hhmm or hh into seconds.
func zoneOffset(b []byte) (int64, bool) {
	var hh, mm int
	var ok1, ok2 bool
	switch len(b) {
	case 2:
		hh, ok1 = two(b[0], b[1])
		ok2 = true
	case 4:
		hh, ok1 = two(b[0], b[1])
		mm, ok2 = two(b[2], b[3])
	case 5:
		if b[2] != ':' {
			return 0, false
		}
		hh, ok1 = two(b[0], b[1])
		mm, ok2 = two(b[3], b[4])
	default:
		return 0, false
	}
	if !ok1 || !ok2 || hh > 23 || mm > 59 {
		return 0, false
	}
	return int64(hh*3600 + mm*60), true
}

// parseDuration parses an age: seconds as a number or a Go duration
// ("1.5s", "2m"). It rejects negative, NaN and infinite ages.
func parseDuration(b []byte) (float64, error) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		d, derr := time.ParseDuration(string(b))
		if derr != nil {
			return 0, errors.New("bad duration " + quoted(string(b)) + " (want seconds or a Go duration like 1.5s)")
		}
		f = d.Seconds()
	}
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		return 0, errors.New("duration " + cut(string(b)) + " is not finite")
	case f < 0:
		return 0, errors.New("negative duration " + cut(string(b)))
	}
	return f, nil
}
