package robots

import (
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

// TestPatternKeptOnce checks that a pattern is kept once, as written,
// whether escaping changes it or not, and that Records and Decide quote it
// as written and match it escaped.
func TestPatternKeptOnce(t *testing.T) {
	tests := []struct {
		name, pattern, path string
		raw                 bool // escaping changes it
	}{
		{"ascii", "/a/b", "/a/b", false},
		{"utf8", "/café", "/caf%C3%A9", true},
		{"invalid-utf8", "/\xff\xfe1\xc0", "/%FF%FE1%C0", true},
		{"lower-hex", "/%e2%82", "/%E2%82", true},
		{"lower-hex-low", "/%2f", "/%2F", true},
		{"upper-hex", "/%E2%82", "/%E2%82", false},
		{"upper-hex-and-utf8", "/%C3%A9/é", "/%C3%A9/%C3%A9", true},
		{"ascii-escape-and-utf8", "/%2F/é", "/%2F/%C3%A9", true},
		{"percent-and-utf8", "/100%/é", "/100%/%C3%A9", true},
		{"wildcard", "/*é$", "/x/%C3%A9", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte("user-agent: *\ndisallow: " + tt.pattern + "\n"))
			if got, want := r.text()[:r.linesAt()], "*"+tt.pattern; got != want {
				t.Errorf("kept values %q, want %q", got, want)
			}
			var g Group
			r.globalGroup(&g)
			if rules := g.set.Rules(); len(rules) != 1 || rules[0].Raw() != tt.raw {
				t.Errorf("compiled %x, want one rule, raw %t", rules, tt.raw)
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

// text returns the kept text of r: values, line table and index.
func (r *Robots) text() string { return r.src.Text() }

// linesAt returns the bytes of the kept values of r, before its table.
func (r *Robots) linesAt() uint32 { return uint32(len(r.table().Values())) }

// setLen returns the rules of s, or rule lines of a lazy set.
func setLen(s *ruleset.Set) int32 { _, n, _ := s.Parts(); return n }

// setLo returns where the rules of s start, ^rec for record rec read from
// the line table.
func setLo(s *ruleset.Set) int32 { lo, _, _ := s.Parts(); return lo }
