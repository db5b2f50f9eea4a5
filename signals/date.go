package signals

// Dates of unavailable_after. Google accepts "a widely adopted format,
// including but not limited to RFC 822, RFC 850, and ISO 8601" (robots
// meta tag specification); its own example is
// "unavailable_after: 2020-09-21". ParseDate accepts those three families
// and the forms real pages write (RFC 1123, ANSI C, a date alone, a date
// and time without zone, read as UTC).

import (
	"errors"
	"strings"
	"time"
)

// dateLayouts are the layouts ParseDate tries, in order.
var dateLayouts = []string{
	time.RFC3339, time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04:05", "2006-01-02",
	time.RFC1123, time.RFC1123Z, time.RFC822, time.RFC822Z, time.RFC850, time.ANSIC,
	"Mon, 2 Jan 2006 15:04:05 MST", "2 Jan 2006 15:04:05 MST", "02 Jan 2006 15:04:05 MST",
	"2 Jan 2006 15:04:05 -0700", "2 Jan 2006", "January 2, 2006", "2 January 2006",
	"Monday, 02-Jan-2006 15:04:05 MST",
}

// zoneOffsets are the North American zone names that dates write and that
// time.Parse cannot place (it gives them offset zero), in hours east of UTC.
var zoneOffsets = map[string]int{
	"EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7, "MDT": -6, "PST": -8, "PDT": -7,
}

// maxDateLen bounds the text ParseDate reads: no date format is longer.
const maxDateLen = 64

var errDate = errors.New("unavailable_after: not a date in RFC 822, RFC 850 or ISO 8601 form, so the rule is ignored")

// ParseDate parses the date of an unavailable_after rule.
func ParseDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxDateLen {
		return time.Time{}, errDate
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
