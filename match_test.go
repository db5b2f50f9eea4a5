package robots

import (
	"strings"
	"testing"
)

// TestLongEscapedPatterns checks rules whose escaped pattern is longer than
// 32 KiB: a line holds at most maxLineLen bytes, but escaping triples its
// non-ASCII bytes, so the literal head of a compiled rule can reach about
// 50,000 bytes, past what 15 bits of head length hold. A rule must match
// only paths that hold all of its head.
func TestLongEscapedPatterns(t *testing.T) {
	const n = 11_000 // non-ASCII bytes: 33,001 escaped, under maxLineLen raw
	raw := "/" + strings.Repeat("\xff", n)
	esc := "/" + strings.Repeat("%FF", n)
	tests := []struct {
		name, rule, path string
		want             bool
	}{
		{"prefix/first-233-bytes", "disallow: " + raw, esc[:233] + "z", true},
		{"prefix/half", "disallow: " + raw, esc[:len(esc)/2], true},
		{"prefix/all", "disallow: " + raw, esc + "z", false},
		{"exact/first-233-bytes", "disallow: " + raw + "$", esc[:233], true},
		{"exact/all", "disallow: " + raw + "$", esc, false},
		{"wildcard/first-233-bytes", "disallow: " + raw + "*z", esc[:233] + "z", true},
		{"wildcard/all", "disallow: " + raw + "*z", esc + "/z", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "user-agent: *\n" + tt.rule + "\n"
			r := Parse([]byte(body))
			if got := r.Allowed("a", tt.path); got != tt.want {
				t.Errorf("Allowed(%q) = %t, want %t; decision: %v", short(tt.path), got, tt.want, r.Decide("a", tt.path).Reason)
			}
			if got := slowAllowed([]byte(body), []string{"a"}, tt.path); got != tt.want {
				t.Errorf("slowAllowed(%q) = %t, want %t", short(tt.path), got, tt.want)
			}
		})
	}
}
