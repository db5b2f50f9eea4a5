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

// dateLayouts are the layouts ParseDate tries, in order, made by
// makeLayouts from the grammars above.
var dateLayouts = makeLayouts()

// makeLayouts returns the layouts of every form in the package comment.
func makeLayouts() []string {
	var out []string
	// ISO 8601 first: the commonest on the web, and Google's example.
	isoZones := []string{"", "Z07:00", "Z0700", "Z07"}
	for _, date := range []string{"2006-01-02", "20060102"} {
		out = append(out, date)
		for _, sep := range []string{"T", " "} {
			for _, clock := range []string{"15:04:05", "15:04", "150405", "1504"} {
				for _, zone := range isoZones {
					out = append(out, date+sep+clock+zone)
				}
			}
		}
	}
	// RFC 822, 1123 and 850, each with and without a day name, seconds,
	// a four-digit year.
	for _, day := range []string{"", "Mon, ", "Monday, "} {
		for _, date := range []string{"2 Jan 06", "2 Jan 2006", "02-Jan-06", "02-Jan-2006"} {
			for _, clock := range []string{"15:04:05", "15:04"} {
				for _, zone := range []string{" MST", " -0700", " -07:00", ""} {
					out = append(out, day+date+" "+clock+zone)
				}
			}
		}
	}
	return append(out, time.ANSIC, "Mon Jan _2 15:04:05 MST 2006", "2 Jan 2006", "2 January 2006", "January 2, 2006", "Jan 2, 2006")
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
	for _, layout := range dateLayouts {
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
