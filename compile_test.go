package robots

import (
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
