package robots

import (
	"fmt"
	"strings"
	"testing"
)

// TestLongIndexHTMTails checks a large set whose index.htm allow rules
// have directories filed apart (htmDir) and, beside them, rules of more
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
