package robots

import (
	"fmt"
	"strings"
	"testing"
)

// TestScanPattern checks scanPattern against escapeChanges and
// strings.Contains, on patterns shorter and longer than a word, with the
// byte it looks for in the words and in the tail.
func TestScanPattern(t *testing.T) {
	tests := []struct {
		name, p         string
		mayChange, star bool
	}{
		{"empty", "", false, false},
		{"short plain", "/a", false, false},
		{"short star", "/a*", false, true},
		{"short percent", "/%2f", true, false},
		{"short non-ASCII", "/é", true, false},
		{"word plain", "/abcdefg", false, false},
		{"word star", "/abc*efg", false, true},
		{"long plain", "/private/area/", false, false},
		{"long star in word", "/*private/area/", false, true},
		{"long star in tail", "/private/area/x*", false, true},
		{"long percent in word", "/pri%2Fvate/area", true, false},
		{"long percent in tail", "/private/ar%2F", true, false},
		{"long non-ASCII in tail", "/private/areé", true, false},
		{"long dollar", "/private/area.php$", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mayChange, star := scanPattern(tt.p)
			if mayChange != tt.mayChange || star != tt.star {
				t.Errorf("scanPattern(%q) = %v, %v; want %v, %v", tt.p, mayChange, star, tt.mayChange, tt.star)
			}
			if escapeChanges(tt.p) && !mayChange {
				t.Errorf("escapeChanges(%q) but scanPattern says it may not change", tt.p)
			}
			if star != strings.Contains(tt.p, "*") {
				t.Errorf("scanPattern(%q): star %v, strings.Contains says otherwise", tt.p, star)
			}
		})
	}
}

// TestLongIndexHTMTails checks a large set whose index.htm allow rules
// have directories filed apart (plainDir) and, beside them, rules of more
// than 255 bytes after their directory, plain and raw, whose directory
// rules compile keeps: Decide against bruteDecision, scanned and laid out.
func TestLongIndexHTMTails(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	var paths []string
	for i := range 40 {
		fmt.Fprintf(&b, "allow: /d%d/index.html\ndisallow: /d%d/\n", i, i)
		paths = append(paths, fmt.Sprintf("/d%d/", i), fmt.Sprintf("/d%d/x", i))
	}
	long := strings.Repeat("x", 300)
	for i, dir := range []string{"/long/", "/lé/", "/l%2fa/"} {
		fmt.Fprintf(&b, "allow: %sindex.htm%s\ndisallow: %s\n", dir, long, dir)
		paths = append(paths, dir, slowEscape(dir), dir+"index.htm", fmt.Sprintf("%sq%d", dir, i))
	}
	checkDecisions(t, b.String(), "Googlebot", paths)
}
