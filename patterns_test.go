package robots

import (
	"strings"
	"testing"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
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

// TestLargestKeptText checks the rules of a file whose patterns escaping
// makes largest: MaxSize bytes of rules of non-ASCII bytes at the line
// limit, with a lower-case "%ff" in each, which are kept as written (not
// escaped, four bytes for one written before), so that the offsets of the
// last rules fit a rule beside its raw bit (ruleRawBit), and matched
// escaped.
func TestLargestKeptText(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	var tags []string
	for i := 0; b.Len() < MaxSize; i++ {
		tag := "/" + letters(i) + "/%ff"
		tags = append(tags, tag)
		b.WriteString("allow:" + tag + strings.Repeat("\xff", lines.MaxLineLen-len("allow:")-len(tag)) + "\n")
	}
	b.WriteString("user-agent: a\n")
	r := Parse([]byte(b.String()))
	if n := int(r.linesAt()); n > MaxSize || n < MaxSize-64<<10 || len(r.text()) >= ruleset.MaxText {
		t.Fatalf("the kept text holds %d bytes of values, %d in all, want just under %d, and under %d", n, len(r.text()), MaxSize, ruleset.MaxText)
	}
	last := tags[len(tags)-2] // the last whole line
	esc := strings.Replace(last, "%ff", "%FF", 1) + strings.Repeat("%FF", lines.MaxLineLen-len("allow:")-len(last))
	for _, tt := range []struct {
		path string
		want bool
	}{
		{esc, true},
		{esc[:len(esc)-1], false},
	} {
		d := r.Decide("b", tt.path)
		if got := d.Reason == ReasonRule && d.Rule.Line == len(tags); got != tt.want {
			t.Errorf("Decide(b, %q) = %v, want the rule of line %d: %t", short(tt.path), d, len(tags), tt.want)
		}
	}
}

// TestCompileLeavesOut checks that compile leaves out the rules that can
// never decide, and that the answers and the lines Decide quotes do not
// change: it keeps the earliest of rules alike.
func TestCompileLeavesOut(t *testing.T) {
	var cycle strings.Builder // 2-byte rules, cycling, in a large set
	cycle.WriteString("user-agent: *\n")
	for i := range 3000 {
		kind := []string{"allow", "disallow"}[i%2]
		cycle.WriteString(kind + ":/" + string(rune('a'+i/2%26)) + "\n")
	}
	for _, tt := range []struct {
		name     string
		body     string
		compiled int
		path     string
		line     int // of the deciding rule, or 0 for none
	}{
		{"same", "user-agent: *\nallow: /\ndisallow: /\nallow: /\ndisallow: /\n", 2, "/x", 2},
		{"never matches", "user-agent: *\ndisallow: x\ndisallow: $\ndisallow: %2F\nallow: /x\n", 1, "/x", 5},
		{"star", "user-agent: *\ndisallow: *\nallow: *\ndisallow: *\n", 2, "/", 3},
		{"long alike", "user-agent: *\ndisallow: /abc\nallow: /abc\ndisallow: /abc\n", 2, "/abcd", 3},
		{"index.htm alike", "user-agent: *\nallow: /d/index.htm\nallow: /d/index.html\nallow: /d/$\n", 4, "/d/", 2},
		{"cycle", cycle.String(), 52, "/c", 6},
	} {
		r := Parse([]byte(tt.body))
		if n := compiledRules(r); n != tt.compiled {
			t.Errorf("%s: %d compiled rules, want %d", tt.name, n, tt.compiled)
		}
		d := r.Decide("googlebot", tt.path)
		if line := d.Rule.Line; d.Reason != ReasonRule && tt.line != 0 || line != tt.line {
			t.Errorf("%s: Decide(%q) = %v, want the rule of line %d", tt.name, tt.path, d, tt.line)
		}
		if got, want := r.Allowed("googlebot", tt.path), slowAllowed([]byte(tt.body), []string{"googlebot"}, tt.path); got != want {
			t.Errorf("%s: Allowed(%q) = %t, the slow model says %t", tt.name, tt.path, got, want)
		}
	}
}

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
