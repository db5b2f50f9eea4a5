package robots

import (
	"strings"
	"testing"
)

// TestEscapeFree checks escapeFree, which reads eight bytes at a time,
// against what it means: escaping leaves the pattern as it is. Each
// interesting byte is tried at every position of patterns of up to 20
// bytes, so that it falls in a whole word and in the tail.
func TestEscapeFree(t *testing.T) {
	tests := []struct {
		name string
		c    byte
		want bool
	}{
		{"ascii", 'a', true},
		{"slash", '/', true},
		{"percent", '%', false},
		{"neighbour-below", '$', true},
		{"neighbour-above", '&', true},
		{"nul", 0, true},
		{"del", 0x7f, true},
		{"high", 0x80, false},
		{"high-percent", 0x80 | '%', false},
		{"top", 0xff, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for n := 1; n <= 20; n++ {
				for at := range n {
					b := []byte(strings.Repeat("/", n))
					b[at] = tt.c
					s := string(b)
					if got := escapeFree(s); got != tt.want {
						t.Errorf("escapeFree(%q) = %t, want %t", s, got, tt.want)
					}
					if got, want := escapeFree(s), string(appendEscaped(nil, s+"ab")) == s+"ab" && !strings.Contains(s, "%"); got != want {
						t.Errorf("escapeFree(%q) = %t, escaping says %t", s, got, want)
					}
				}
			}
		})
	}
}

// TestUnescapesTo checks, for patterns that escaping changes, whether the
// escaped form gives back what was written (keepRule then keeps it alone),
// by unescapesTo and by unescapePattern, which must agree.
func TestUnescapesTo(t *testing.T) {
	tests := []struct {
		name, v string
		want    bool
	}{
		{name: "outside-ascii", v: "/\xe9", want: true},
		{name: "percent-before", v: "%\xe9", want: true},
		{name: "percent-hex-digit-before", v: "%E\xe9", want: true},
		{name: "percent-low-digit", v: "%8\xe9", want: true},
		{name: "trailing-percent", v: "/\xe9%", want: true},
		{name: "lower-case-escape", v: "/%e9", want: false},
		{name: "upper-case-high-escape", v: "/%C3\xe9", want: false},
		{name: "upper-case-low-escape", v: "/%2F\xe9", want: true},
		{name: "percent-percent", v: "%%E9\xe9", want: false},
		{name: "lower-case-low-escape", v: "/%2f", want: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := appendEscaped(nil, tt.v)
			if got := unescapesTo(e, tt.v); got != tt.want {
				t.Errorf("unescapesTo(%q, %q) = %t, want %t", e, tt.v, got, tt.want)
			}
			if got := unescapePattern(string(e)) == tt.v; got != tt.want {
				t.Errorf("unescapePattern(%q) = %q, want it to give back %q: %t", e, unescapePattern(string(e)), tt.v, tt.want)
			}
		})
	}
}
