package estimate

// ClickHouse's timestamps. ClickHouse before 20.1 (Debian 12 ships
// 18.16) has no DateTime64, toDateTime64 or toUnixTimestamp64Micro, so
// a log's sub-second times are kept there as text; current ClickHouse
// keeps them as DateTime64. The dialect reads every timestamp column
// through its text, which both write alike ("2026-11-01 12:00:02.501"
// for a DateTime64(3); an ISO 8601 string as stored): the whole
// seconds by parseDateTimeBestEffortOrNull (an offset or Z is honoured;
// without one, the server's time zone), the fraction from the digits
// after the seconds, to the microsecond. A DateTime or DateTime64 column
// with a time zone of its own other than the server's is written as
// text in its zone and read back in the server's: every timestamp moves
// by the difference, which changes the hold-out split (the hash reads
// the creation time); give such a column as text with its offset, e.g.
// --query "SELECT concat(toString(created_at, 'UTC'), 'Z') AS created_at, …".
// Times before 1970 are bad timestamps (toUnixTimestamp is unsigned);
// the best-effort parser is laxer than pollfit's readers (it reads "1"
// as 2000-01-01), so a column of odd text may be read where a reader
// would refuse it.

// clickhouseSeconds is a timestamp column's text parsed to a DateTime,
// null when it is null, empty (which 18.16 parses as 2000-01-01) or
// cannot be read.
func clickhouseSeconds(col string) string {
	return "parseDateTimeBestEffortOrNull(nullIf(toString(" + col + "), ''))"
}

// clickhouseEpochUS is a timestamp column's whole microseconds since
// 1970: its seconds, and the first six digits of its fraction (padded
// with zeros).
func clickhouseEpochUS(col string) string {
	frac := "extract(toString(" + col + "), ':[0-9][0-9][.,]([0-9]+)')"
	return "toInt64(toUnixTimestamp(" + clickhouseSeconds(col) + ")) * 1000000 + " +
		"toInt64OrZero(substring(concat(ifNull(" + frac + ", ''), '000000'), 1, 6))"
}

// clickhouseReadable is whether a timestamp column is null, empty or
// read as a time after 1970 (the best-effort parser reads a bad date
// such as 2026-13-45 as zero, and text that is no time as null, which
// ifNull makes false): one that is none of these is a bad timestamp, as
// the readers count it.
func clickhouseReadable(col string) string {
	return "(" + col + " IS NULL OR toString(" + col + ") = '' OR ifNull(toUnixTimestamp(" + clickhouseSeconds(col) + "), 0) > 0)"
}
