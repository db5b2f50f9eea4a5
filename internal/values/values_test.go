package values

import (
	"math"
	"testing"
	"time"
)

func TestCrawlDelay(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration
		ok    bool
	}{
		{"1", time.Second, true},
		{"10", 10 * time.Second, true},
		{"1.5", 1500 * time.Millisecond, true},
		{".5", 500 * time.Millisecond, true},
		{"2.", 2 * time.Second, true},
		{"0", 0, true},
		{"0.0000000019", 1, true}, // beyond nanoseconds is dropped
		{"9223372035", 9223372035 * time.Second, true},
		// Every value over what a time.Duration holds is the largest one
		// (issue 26 item 12): a file asking for more than 292 years is not
		// read as asking for no delay at all.
		{"9223372036", math.MaxInt64, true},
		{"9223372036.5", math.MaxInt64, true},
		{"99999999999999999999999", math.MaxInt64, true},
		{"", 0, false},
		{".", 0, false},
		{"-1", 0, false},
		{"1,5", 0, false},
		{"10 seconds", 0, false},
		{"1e3", 0, false},
		{"soon", 0, false},
	}
	for _, tt := range tests {
		got, err := CrawlDelay(tt.value)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("CrawlDelay(%q) = %v, %v, want %v, ok %t", tt.value, got, err, tt.want, tt.ok)
		}
	}
}

func TestHost(t *testing.T) {
	for _, good := range []string{"example.com", "example.com.", "http://example.com/", "EXAMPLE.com:80", "xn--bcher-kva.example"} {
		if err := Host(good); err != nil {
			t.Errorf("Host(%q) = %v", good, err)
		}
	}
	for _, bad := range []string{"", "ftp://example.com", "example.com:port", "example.com/path", "exa mple.com", "https://"} {
		if Host(bad) == nil {
			t.Errorf("Host(%q) succeeded", bad)
		}
	}
}
