package robots

import (
	"testing"
)

// TestPatternKeptOnce checks that a pattern escaping changes is kept once,
// escaped, when unescaping gives back what was written, and that Records
// and Decide quote it as written either way.
func TestPatternKeptOnce(t *testing.T) {
	tests := []struct {
		name, pattern, path string
		once                bool // kept escaped only
	}{
		{"ascii", "/a/b", "/a/b", false},
		{"utf8", "/café", "/caf%C3%A9", true},
		{"invalid-utf8", "/\xff\xfe1\xc0", "/%FF%FE1%C0", true},
		{"lower-hex", "/%e2%82", "/%E2%82", false},
		{"upper-hex-and-utf8", "/%C3%A9/é", "/%C3%A9/%C3%A9", false},
		{"ascii-escape-and-utf8", "/%2F/é", "/%2F/%C3%A9", true},
		{"percent-and-utf8", "/100%/é", "/100%/%C3%A9", true},
		{"wildcard", "/*é$", "/x/%C3%A9", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte("user-agent: *\ndisallow: " + tt.pattern + "\n"))
			_, rules := r.recordLines(0, nil, nil)
			if once := rules[0]&srcUnescape != 0; once != tt.once {
				t.Errorf("kept escaped only: %t, want %t", once, tt.once)
			}
			if got := r.Records()[0].Rules[0].Pattern; got != tt.pattern {
				t.Errorf("Records pattern = %q, want %q", got, tt.pattern)
			}
			d := r.Decide("a", tt.path)
			if d.Allowed || d.Rule.Pattern != tt.pattern {
				t.Errorf("Decide(%q) = %v, want disallowed by %q", tt.path, d, tt.pattern)
			}
		})
	}
}
