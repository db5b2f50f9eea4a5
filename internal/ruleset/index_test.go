package ruleset

import (
	"slices"
	"testing"
)

// TestLinks checks the forms of the up links of a layout (links): kept
// in the rules when every rule can keep its own; else all kept apart, in
// 2 bytes each, up to maxLaid-1 rules. Each link reads as set,
// and the need of a wildcard rule is left as it is.
func TestLinks(t *testing.T) {
	prefix := newRule("/a", 2, false, true, 0)
	wild := newRule("/a*b", 4, false, true, 0)
	tests := []struct {
		name      string
		n         int
		wild, far bool // a wildcard rule, a link linkFar rules back
		inRules   bool
	}{
		{"near", 300, false, false, true},
		{"near-many", maxLaid - 1, false, false, true},
		{"wildcard", 300, true, false, false},
		{"far", 300, false, true, false},
		{"far-many", maxLaid - 1, false, true, false},
	}
	for _, tt := range tests {
		rules := make([]rule, tt.n)
		up := make([]int32, tt.n)
		for i := range rules {
			rules[i] = prefix
			if tt.wild && i == tt.n/2 {
				rules[i] = wild
			}
			switch i % 5 {
			case 0:
				up[i] = -1
			case 1:
				up[i] = inRun
			case 2:
				up[i] = int32(max(i-linkFar+1, 0))
			default:
				up[i] = int32(i - 1)
			}
		}
		if tt.far {
			up[tt.n-1] = 0
		}
		want := slices.Clone(up)
		l := makeLinks(rules, up)
		if inRules := l.all == nil; inRules != tt.inRules {
			t.Errorf("%s: kept in the rules %t", tt.name, inRules)
		}
		for i := range rules {
			if got := l.at(rules, int32(i)); got != want[i] {
				t.Fatalf("%s: link %d set to %d reads %d", tt.name, i, want[i], got)
			}
			if rules[i].shape() >= shapeWildcard && rules[i].need() != wild.need() {
				t.Fatalf("%s: the need of wildcard rule %d changed", tt.name, i)
			}
		}
	}
}
