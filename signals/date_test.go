package signals

import (
	"strings"
	"testing"
	"time"
)

// TestParseDateSpecs checks ParseDate on the examples of each
// specification Google names, and on the forms issue 32 (item 7) lists.
func TestParseDateSpecs(t *testing.T) {
	at := func(y int, m time.Month, d, h, min, s, ns int) time.Time {
		return time.Date(y, m, d, h, min, s, ns, time.UTC)
	}
	nov6 := at(1994, 11, 6, 8, 49, 37, 0)
	tests := []struct {
		name string
		in   string
		want time.Time
	}{
		{"google/meta-example", "2020-09-21", at(2020, 9, 21, 0, 0, 0, 0)},
		{"google/header-example", "25 Jun 2010 15:00:00 PST", at(2010, 6, 25, 23, 0, 0, 0)},
		// RFC 822, appendix A.3: "26 Aug 76 14:29 EDT", "27 Aug 76 09:32 PDT".
		{"rfc822/a.3.1", "26 Aug 76 14:29 EDT", at(1976, 8, 26, 18, 29, 0, 0)},
		{"rfc822/a.3.3", "27 Aug 76 09:32 PDT", at(1976, 8, 27, 16, 32, 0, 0)},
		{"rfc822/seconds", "06 Nov 94 08:49:37 GMT", nov6},
		{"rfc822/day-seconds", "Sun, 06 Nov 94 08:49:37 GMT", nov6},
		{"rfc822/offset", "06 Nov 94 08:49:37 +0000", nov6},
		{"rfc822/ut", "06 Nov 94 08:49:37 UT", nov6},
		{"rfc822/one-digit-day", "6 Nov 94 08:49 GMT", at(1994, 11, 6, 8, 49, 0, 0)},
		{"rfc822/est", "Sun, 06 Nov 94 03:49:37 EST", nov6},
		// RFC 1123, section 5.2.14, as RFC 9110 quotes it (IMF-fixdate).
		{"rfc1123/imf-fixdate", "Sun, 06 Nov 1994 08:49:37 GMT", nov6},
		{"rfc1123/offset", "Sun, 06 Nov 1994 08:49:37 -0500", at(1994, 11, 6, 13, 49, 37, 0)},
		{"rfc1123/no-seconds", "Sun, 06 Nov 1994 08:49 GMT", at(1994, 11, 6, 8, 49, 0, 0)},
		// RFC 850, section 2.1.4: "Friday, 19-Nov-82 16:14:55 EST".
		{"rfc850/example", "Friday, 19-Nov-82 16:14:55 EST", at(1982, 11, 19, 21, 14, 55, 0)},
		{"rfc850/rfc9110", "Sunday, 06-Nov-94 08:49:37 GMT", nov6},
		{"rfc850/four-digit-year", "Sunday, 06-Nov-1994 08:49:37 GMT", nov6},
		{"asctime/rfc9110", "Sun Nov  6 08:49:37 1994", nov6},
		// ISO 8601 (the standard's own examples, 1985-04-12 23:20:50).
		{"iso8601/basic-date", "19850412", at(1985, 4, 12, 0, 0, 0, 0)},
		{"iso8601/extended-date", "1985-04-12", at(1985, 4, 12, 0, 0, 0, 0)},
		{"iso8601/basic", "19850412T232050", at(1985, 4, 12, 23, 20, 50, 0)},
		{"iso8601/basic-utc", "19850412T232050Z", at(1985, 4, 12, 23, 20, 50, 0)},
		{"iso8601/extended-utc", "1985-04-12T23:20:50Z", at(1985, 4, 12, 23, 20, 50, 0)},
		{"iso8601/comma-fraction", "1985-04-12T23:20:50,5Z", at(1985, 4, 12, 23, 20, 50, 5e8)},
		{"iso8601/basic-offset", "19850412T152746+0100", at(1985, 4, 12, 14, 27, 46, 0)},
		{"iso8601/offset-hours", "1985-04-12T15:27:46+01", at(1985, 4, 12, 14, 27, 46, 0)},
		{"iso8601/minutes-utc", "2020-09-21T10:00Z", at(2020, 9, 21, 10, 0, 0, 0)},
		{"iso8601/offset-no-colon", "2020-09-21T10:00:00+0200", at(2020, 9, 21, 8, 0, 0, 0)},
		{"iso8601/millis-offset", "2020-09-21T10:00:00.000+0200", at(2020, 9, 21, 8, 0, 0, 0)},
		{"iso8601/basic-date-only", "20200921", at(2020, 9, 21, 0, 0, 0, 0)},
		{"iso8601/no-zone", "1994-11-06T08:49:37", nov6},
		{"iso8601/space", "1994-11-06 08:49", at(1994, 11, 6, 8, 49, 0, 0)},
		// RFC 3339, section 5.8.
		{"rfc3339/fraction", "1985-04-12T23:20:50.52Z", at(1985, 4, 12, 23, 20, 50, 52e7)},
		{"rfc3339/offset", "1996-12-19T16:39:57-08:00", at(1996, 12, 20, 0, 39, 57, 0)},
		{"rfc3339/leap-second", "1990-12-31T23:59:60Z", at(1990, 12, 31, 23, 59, 59, 0)},
		{"rfc3339/odd-offset", "1937-01-01T12:00:27.87+00:20", at(1937, 1, 1, 11, 40, 27, 87e7)},
		{"lenient/long-month", "25 June 2010", at(2010, 6, 25, 0, 0, 0, 0)},
		{"lenient/us", "June 25, 2010", at(2010, 6, 25, 0, 0, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseDate(tt.in)
			if err != nil || !got.Equal(tt.want) {
				t.Errorf("ParseDate(%q) = %v, %v, want %v", tt.in, got, err, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "tomorrow", "2020-13-45", "32 Jun 2010", "1985-04-12T23:61Z", "06 Nov 94", "2020-09-21T", strings.Repeat("1", 10000)} {
		if _, err := ParseDate(bad); err == nil {
			t.Errorf("ParseDate(%.20q) = nil error, want one", bad)
		}
	}
}

// FuzzParseDate checks that ParseDate never panics and that a date it reads
// is in UTC.
func FuzzParseDate(f *testing.F) {
	f.Add("Sun, 06 Nov 94 08:49:37 GMT")
	f.Add("2020-09-21T10:00:00.000+0200")
	f.Add("1990-12-31T23:59:60Z")
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := ParseDate(s); err == nil && d.Location() != time.UTC {
			t.Fatalf("ParseDate(%q) = %v, not in UTC", s, d)
		}
	})
}
