// Package values is the grammar of the values of the lines Google ignores
// and others read (crawl-delay, request-rate, visit-time, host,
// clean-param, Content-Signal, Content-Usage), which package robots reads
// into its types and package lint checks.
package values

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/sfv"
)

// The keys, lower-case.
const (
	KeyCrawlDelay    = "crawl-delay"
	KeyRequestRate   = "request-rate"
	KeyVisitTime     = "visit-time"
	KeyHost          = "host"
	KeyCleanParam    = "clean-param"
	KeyContentSignal = "content-signal"
	KeyContentUsage  = "content-usage"
)

var (
	errNotNumber   = errors.New("not a number of seconds")
	errRequestRate = errors.New(`not a rate such as "1/5" or "1/10m"`)
	errVisitTime   = errors.New(`not a UTC time window such as "0600-0845"`)
	errHost        = errors.New(`not a host name such as "example.com" or "https://example.com:8443"`)
	errCleanParam  = errors.New(`not parameters and an optional path such as "ref&sid /forum/"`)
)

// CrawlDelay parses a crawl-delay value as Group.CrawlDelay reads it:
// seconds, with or without a fraction; digits beyond nanoseconds are
// dropped, and a value too large for a time.Duration is the largest.
func CrawlDelay(v string) (time.Duration, error) {
	whole, frac, _ := strings.Cut(v, ".")
	if whole+frac == "" || strings.Trim(whole+frac, digits) != "" {
		return 0, errNotNumber
	}
	// Up to this many whole seconds, any fraction fits a time.Duration.
	const maxSeconds = int64(math.MaxInt64/time.Second) - 1
	if secs, _ := consumeDigits(whole); secs >= 0 && secs <= maxSeconds {
		ns, _ := strconv.Atoi((frac + "000000000")[:9])
		return time.Duration(secs)*time.Second + time.Duration(ns), nil
	}
	return math.MaxInt64, nil
}

// consumeDigits returns the decimal number that s starts with (0 if none,
// -1 if it overflows an int64) and the rest of s.
func consumeDigits(s string) (n int64, rest string) {
	rest = strings.TrimLeft(s, digits)
	if n, err := strconv.ParseInt("0"+s[:len(s)-len(rest)], 10, 64); err == nil {
		return n, rest
	}
	return -1, rest
}

const digits = "0123456789"

var rateUnits = map[string]time.Duration{"": time.Second, "s": time.Second, "m": time.Minute, "h": time.Hour}

// RequestRate parses a request-rate value: requests, "/", a period and an
// optional unit, then optionally a visit-time window (from and to 0 if
// none).
func RequestRate(v string) (requests int, per, from, to time.Duration, err error) {
	rate, window := CutSpace(v)
	reqs, period, _ := strings.Cut(rate, "/")
	n, rest := consumeDigits(reqs)
	p, unit := consumeDigits(period)
	if n <= 0 || n > 1<<31 || rest != "" || p <= 0 || p > 1<<31 || rateUnits[unit] == 0 {
		return 0, 0, 0, 0, errRequestRate
	}
	from, to, err = VisitTime(window) // 0 and 0, all day, if none
	if err != nil && window != "" {
		return 0, 0, 0, 0, err
	}
	return int(n), time.Duration(p) * rateUnits[unit], from, to, nil
}

// VisitTime parses a visit-time value, "hhmm-hhmm" in UTC, into offsets
// from midnight.
func VisitTime(v string) (from, to time.Duration, err error) {
	f, t, _ := strings.Cut(v, "-")
	start, ok1 := parseHHMM(lines.TrimSpace(f))
	end, ok2 := parseHHMM(lines.TrimSpace(t))
	if !ok1 || !ok2 {
		return 0, 0, errVisitTime
	}
	return start, end, nil
}

// parseHHMM parses a time of day written "hhmm" or "hh:mm".
func parseHHMM(s string) (time.Duration, bool) {
	if len(s) == 5 && s[2] == ':' {
		s = s[:2] + s[3:]
	}
	if len(s) != 4 || strings.Trim(s, digits) != "" {
		return 0, false
	}
	h := int(s[0]-'0')*10 + int(s[1]-'0')
	m := int(s[2]-'0')*10 + int(s[3]-'0')
	if h > 24 || m > 59 || h == 24 && m > 0 {
		return 0, false
	}
	return time.Duration(h)*time.Hour + time.Duration(m)*time.Minute, true
}

// Host checks a host value:
//
//	host = [ ( "http" | "https" ) "://" ] host-name [ ":" port ] [ "/" ]
func Host(s string) error {
	if i := strings.Index(s, "://"); i >= 0 {
		if scheme := s[:i]; !lines.EqualFold(scheme, "http") && !lines.EqualFold(scheme, "https") {
			return errHost
		}
		s = s[i+3:]
	}
	s = strings.TrimSuffix(s, "/")
	if h, port, ok := strings.Cut(s, ":"); ok {
		if port == "" || len(port) > 5 || strings.Trim(port, digits) != "" {
			return errHost
		}
		s = h
	}
	if !HostName(lines.LowerASCII(s)) {
		return errHost
	}
	return nil
}

// CleanParam parses a clean-param value:
//
//	clean-param = param *( "&" param ) [ 1*WSP path ]
func CleanParam(v string) (params []string, path string, err error) {
	p, path := CutSpace(v)
	params = strings.Split(p, "&")
	if slices.Contains(params, "") || strings.ContainsAny(path, " \t") {
		return nil, "", errCleanParam
	}
	return params, path, nil
}

// CutSpace splits s, which has no surrounding space, around its first run
// of spaces and tabs.
func CutSpace(s string) (before, after string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], strings.TrimLeft(s[i:], " \t")
}

// HostName reports whether s, a lower-case ASCII host name, is
// dot-separated labels of letters, digits, "-" and "_".
func HostName(s string) bool {
	for label := range strings.SplitSeq(strings.TrimSuffix(s, "."), ".") {
		if label == "" || strings.Trim(label, "abcdefghijklmnopqrstuvwxyz0123456789-_") != "" {
			return false
		}
	}
	return true
}

// Content-Signal and Content-Usage categories, in the order of the fields
// of robots.ContentSignals and robots.ContentUsage.
var (
	SignalKeys = []string{"search", "ai-input", "ai-train"}
	UsageKeys  = []string{"train-ai", "ai-use", "search"}
)

// The preferences a value states, as robots.Preference numbers them.
const (
	Unknown = iota
	Yes
	No
)

// A Field is a "key=value" field of a Content-Signal value.
type Field struct{ Key, Value string }

// SignalFields splits a Content-Signal value into its non-empty
// "key=value" fields: each key lower-cased, each value as written.
func SignalFields(v string) []Field {
	var out []Field
	for f := range strings.SplitSeq(v, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		key, value, _ := strings.Cut(f, "=")
		out = append(out, Field{Key: strings.ToLower(strings.TrimSpace(key)), Value: strings.TrimSpace(value)})
	}
	return out
}

// SignalPref is the preference of a Content-Signal field's value: Yes,
// No (any case) or Unknown.
func SignalPref(value string) int {
	return max(0, slices.Index([]string{"unknown", "yes", "no"}, strings.ToLower(value)))
}

// UsagePref is the preference of a Content-Usage member: Yes for the
// token y, No for n, else Unknown.
func UsagePref(m sfv.Member) int {
	switch m.YesNo() {
	case 'y':
		return Yes
	case 'n':
		return No
	}
	return Unknown
}

// UsageLine reads a Content-Usage line: its path, from "/" to the first
// space or tab ("" if none), and its dictionary, nil with the error.
func UsageLine(v string) (path string, dict []sfv.Member, err error) {
	if strings.HasPrefix(v, "/") {
		path, v = CutSpace(v)
	}
	dict, err = sfv.ParseDictionary(v)
	return path, dict, err
}
