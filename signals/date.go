package signals

// Dates of unavailable_after. Google accepts "a widely adopted format,
// including but not limited to RFC 822, RFC 850, and ISO 8601" (robots
// meta tag specification); its own example is
// "unavailable_after: 2020-09-21". ParseDate reads:
//
//   - RFC 822 (section 5.1) and RFC 1123 (section 5.2.14): an optional
//     day name and comma, a day of one or two digits, a month name, a
//     year of two digits (RFC 822) or four (RFC 1123), a time with or
//     without seconds, and a zone: a name (UT, GMT, the North American
//     ones, any other that Go reads as UTC), or an offset +hhmm;
//     "06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 08:49 -0500";
//   - RFC 850 (section 2.1.4): "Sunday, 06-Nov-94 08:49:37 GMT", with a
//     two- or four-digit year, with or without the day name or seconds;
//   - ISO 8601: a calendar date, extended (2020-09-21) or basic
//     (20200921), alone or with a time after "T" or a space, extended
//     (10:00, 10:00:00) or basic (1000, 100000), with or without a
//     decimal fraction of the second ("." or ","), and a zone Z, +hh:mm,
//     +hhmm or +hh, or none (read as UTC); RFC 3339's leap second (:60)
//     is read as :59;
//   - the forms real pages write besides: ANSI C's asctime
//     ("Sun Nov  6 08:49:37 1994"), "25 June 2010", "June 25, 2010".
//
// A two-digit year is 1969-2068, as Go reads it (RFC 2822, section 4.3,
// asks 1950-2049 for "obs-year"; the dates of a robots rule are recent).

import (
	"errors"
	"strings"
	"time"
)

// The layouts ParseDate tries, by the form the text starts with (see
// layoutsFor), made by makeLayouts from the grammars above: a failed
// time.Parse costs about 150 ns, and a rule of a thousand dates should not
// try all 150 layouts each.
var isoExtended, isoBasic, rfcNoDay, rfcDay = makeLayouts()

// makeLayouts returns the layouts of every form in the package comment:
// ISO 8601 extended and basic, then the others without and with a day
// name (RFC 822/1123/850, asctime and the lenient forms).
func makeLayouts() (isoExt, isoBas, noDay, day []string) {
	iso := func(date string) []string {
		out := []string{date}
		for _, sep := range []string{"T", " "} {
			for _, clock := range []string{"15:04:05", "15:04", "150405", "1504"} {
				for _, zone := range []string{"", "Z07:00", "Z0700", "Z07"} {
					out = append(out, date+sep+clock+zone)
				}
			}
		}
		return out
	}
	rfc := func(day string) []string {
		var out []string
		for _, date := range []string{"2 Jan 06", "2 Jan 2006", "02-Jan-06", "02-Jan-2006"} {
			for _, clock := range []string{"15:04:05", "15:04"} {
				for _, zone := range []string{" MST", " -0700", " -07:00", ""} {
					out = append(out, day+date+" "+clock+zone)
				}
			}
		}
		return out
	}
	noDay = append(rfc(""), "2 Jan 2006", "2 January 2006")
	day = append(append(rfc("Mon, "), rfc("Monday, ")...), time.ANSIC, "Mon Jan _2 15:04:05 MST 2006", "January 2, 2006", "Jan 2, 2006")
	return iso("2006-01-02"), iso("20060102"), noDay, day
}

// layoutsFor returns the layouts that may read s: ISO 8601 extended
// ("2020-"), ISO 8601 basic (eight digits), the other forms that start
// with a digit, or those that start with a name (none if s starts with a
// word that names neither a day nor a month).
func layoutsFor(s string) []string {
	digits := 0
	for digits < len(s) && digits < 8 && '0' <= s[digits] && s[digits] <= '9' {
		digits++
	}
	switch {
	case digits == 4 && len(s) > 4 && s[4] == '-':
		return isoExtended
	case digits == 8:
		return isoBasic
	case digits > 0:
		return rfcNoDay
	}
	word, _, _ := strings.Cut(s, " ")
	word = strings.TrimSuffix(word, ",")
	if _, err := time.Parse("Jan", word[:min(len(word), 3)]); err != nil && !isWeekday(word) {
		return nil // neither a day's name nor a month's: no layout can read it
	}
	return rfcDay
}

// zoneOffsets are the zone names of RFC 822 that time.Parse cannot place
// (it gives them offset zero), in hours east of UTC.
var zoneOffsets = map[string]int{
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
}

// maxDateLen bounds the text ParseDate reads: no date format is longer.
const maxDateLen = 64

var errDate = errors.New("unavailable_after: not a date in RFC 822, RFC 850 or ISO 8601 form, so the rule is ignored")

// ParseDate parses the date of an unavailable_after rule, in any of the
// forms of the package's date.go, and returns it in UTC.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxDateLen {
		return time.Time{}, errDate
	}
	if strings.HasSuffix(s, " UT") { // RFC 822's name for UTC, which Go reads only as UTC
		s += "C"
	}
	if i := strings.Index(s, ":60"); i >= 0 && (i+3 == len(s) || s[i+3] < '0' || s[i+3] > '9') {
		s = s[:i] + ":59" + s[i+3:] // a leap second (RFC 3339, section 5.7)
	}
	for _, layout := range layoutsFor(s) {
		t, err := time.Parse(layout, s)
		if err != nil {
			continue
		}
		if name, off := t.Zone(); off == 0 {
			if h, ok := zoneOffsets[name]; ok {
				t = t.Add(-time.Duration(h) * time.Hour)
			}
		}
		return t.UTC(), nil
	}
	return time.Time{}, errDate
}

// isWeekday reports whether s is a day name, full or of three letters,
// as the start of an RFC 822 or RFC 850 date.
func isWeekday(s string) bool {
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(s, d.String()) || strings.EqualFold(s, d.String()[:3]) {
			return true
		}
	}
	return false
}
