package signals

import (
	"fmt"
	"strings"
	"testing"
)

// TestUsageHeadersHostile checks that a Content-Usage or Content-Signal
// header of a hundred thousand unknown keys yields a bounded list of
// problems, not one problem per key (800,000 problems, 29.6 MB of text, for
// a 4 MiB Content-Signal before): the field is read up to maxFieldBytes and
// maxFieldMembers, problems are listed up to maxFieldProblems and the
// others counted, and each bound reached is a problem.
func TestUsageHeadersHostile(t *testing.T) {
	var keys []string
	for i := range 100000 {
		keys = append(keys, fmt.Sprintf("k%d=y", i))
	}
	field := strings.Join(keys, ", ")
	_, usage := contentUsageHeader([]string{field})
	_, signal := contentSignalHeader([]string{strings.ReplaceAll(field, "=y", "=yes")})
	for name, problems := range map[string][]string{"Content-Usage": usage, "Content-Signal": signal} {
		if n := len(problems); n > maxFieldProblems+1 {
			t.Errorf("%s: %d problems, want at most %d", name, n, maxFieldProblems+1)
			continue
		}
		all := strings.Join(problems, "\n")
		for _, want := range []string{name + " is longer than 8192 bytes", name + ": more than 64 members: the others are ignored", "more problems not listed"} {
			if !strings.Contains(all, want) {
				t.Errorf("%s: problems %q do not say %q", name, problems, want)
			}
		}
	}
}
