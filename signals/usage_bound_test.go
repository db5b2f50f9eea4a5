package signals

import (
	"fmt"
	"strings"
	"testing"
)

// TestUsageHeadersHostile checks that a Content-Usage or Content-Signal
// header of a hundred thousand unknown keys yields a bounded list of
// problems, the last of which counts the others, not one problem per key
// (800,000 problems, 29.6 MB of text, for a 4 MiB Content-Signal before).
func TestUsageHeadersHostile(t *testing.T) {
	var keys []string
	for i := range 100000 {
		keys = append(keys, fmt.Sprintf("k%d=y", i))
	}
	field := strings.Join(keys, ", ")
	for name, u := range map[string]UsagePrefs{
		"Content-Usage":  ParseContentUsage([]string{field}),
		"Content-Signal": ParseContentSignal([]string{strings.ReplaceAll(field, "=y", "=yes")}),
	} {
		if n := len(u.Problems); n > maxFieldProblems+1 {
			t.Errorf("%s: %d problems, want at most %d", name, n, maxFieldProblems+1)
			continue
		}
		if last := u.Problems[len(u.Problems)-1]; !strings.Contains(last, "99980 more") {
			t.Errorf("%s: last problem %q, want it to count the 99980 others", name, last)
		}
	}
}
