package fetch

// The response fields that set how long a fetched file is kept:
// Cache-Control's max-age (RFC 9111) and Retry-After (RFC 9110).

import (
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxAge returns the value of the max-age directive of the Cache-Control
// fields of h (RFC 9111, section 5.2.2.1), and whether there is a valid one:
//
//	max-age = "max-age" "=" delta-seconds   ; the quoted form is accepted
//
// A value too large to represent counts as 2^31 seconds (RFC 9111, section
// 1.2.2).
func maxAge(h http.Header) (time.Duration, bool) {
	for _, field := range h.Values("Cache-Control") {
		for directive := range strings.SplitSeq(field, ",") {
			name, value, _ := strings.Cut(directive, "=")
			if !strings.EqualFold(strings.TrimSpace(name), "max-age") {
				continue
			}
			value = strings.TrimSpace(value)
			if len(value) >= 2 && value[0] == '"' && value[len(value)-1] == '"' {
				value = value[1 : len(value)-1]
			}
			secs, err := strconv.ParseUint(value, 10, 32)
			if errors.Is(err, strconv.ErrRange) || secs > 1<<31 {
				secs, err = 1<<31, nil
			}
			if err != nil {
				continue
			}
			return time.Duration(secs) * time.Second, true
		}
	}
	return 0, false
}

// retriesAfter reports whether a Retry-After field is read after status
// code: 429 Too Many Requests and 503 Service Unavailable.
func retriesAfter(code int) bool {
	return code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable
}

// retryAfter returns the delay that the Retry-After field of h asks for,
// counted from now, and whether there is a valid one (RFC 9110, section
// 10.2.3):
//
//	Retry-After = HTTP-date / delay-seconds
//
// A date in the past is a delay of zero.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	value := strings.TrimSpace(h.Get("Retry-After"))
	if value == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(value, 10, 32); err == nil {
		return time.Duration(secs) * time.Second, true
	} else if errors.Is(err, strconv.ErrRange) {
		return 1 << 31 * time.Second, true
	}
	date, err := http.ParseTime(value)
	if err != nil {
		return 0, false
	}
	return max(date.Sub(now), 0), true
}
