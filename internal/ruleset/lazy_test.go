package ruleset

import "testing"

// TestCannotStart checks the glance by which a lazy set's first questions
// pass over rule lines: it must never pass over a line whose rule, or the
// directory of whose index.htm rule, may match the path.
func TestCannotStart(t *testing.T) {
	tests := []struct {
		p, path string
		want    bool
	}{
		{"/a", "/b", true},
		{"/a", "/a", false},
		{"/ab", "/a", false},
		{"/*a", "/b", false},     // a wildcard matches any second byte
		{"/$", "/x", true},       // "/" alone
		{"/$", "/", false},       // a path of one byte is not judged
		{"/$x", "/$x", false},    // "$" within a pattern stands for itself
		{"/%e9", "/%E9", false},  // "%" stays "%" escaped
		{"/%e9", "/x", true},     //
		{"/\xe9", "/%E9", false}, // a byte outside ASCII escapes to "%E9"
		{"/\xe9", "/\xe9", true}, // and never matches itself, raw
		{"/index.htm", "/", false},
		{"/index.htm", "/x", true}, // nor does its directory "/" match "/x"
		{"*a", "/b", false},
		{"/", "/b", false},
	}
	for _, tt := range tests {
		if got := cannotStart(tt.p, tt.path); got != tt.want {
			t.Errorf("cannotStart(%q, %q) = %t, want %t", tt.p, tt.path, got, tt.want)
		}
		s, rls := testSet(t, "user-agent: a\ndisallow: /\nallow: "+tt.p+"\n", 0)
		if best := bruteBest(s, rls, tt.path); tt.want && best.allow() {
			t.Errorf("cannotStart(%q, %q) passes over a rule that matches", tt.p, tt.path)
		}
	}
}
