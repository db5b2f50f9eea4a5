package semdiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gorep/robots"
)

// fuzzMaxBytes bounds the inputs FuzzCompare reads: Go's fuzzer minimises
// every input that reaches new code, for up to a minute by default, with
// candidates in number quadratic in its size, and each costs a Compare
// (297 executions a second before, 12,600 after, 30 s on a loaded 2-core
// machine). A larger input reaches no new code and is never minimised;
// TestCompareExample checks the command's example diff, which is larger.
const fuzzMaxBytes = 256

// FuzzCompare checks, on any pair of files of up to fuzzMaxBytes in all,
// that Compare does not panic, that every change it reports is real, and
// that a file compared with itself has no change.
func FuzzCompare(f *testing.F) {
	f.Add("user-agent: *\ndisallow: /private/\n", "user-agent: *\ndisallow: /private/\nallow: /private/press/\ncrawl-delay: 5\n")
	f.Add("user-agent: *\ndisallow: /*a*b$\nallow: /a/index.html\n", "user-agent: *\ndisallow: /*b*a\n")
	f.Add("user-agent: a\ndisallow: /%2f\n", "user-agent: A\nallow: /\xff\ndisallow: *\n")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		if len(oldText)+len(newText) > fuzzMaxBytes {
			return // see fuzzMaxBytes
		}
		checkCompare(t, oldText, newText)
	})
}

// TestCompareExample runs the checks of FuzzCompare on the example diff of
// the robotstxt command.
func TestCompareExample(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "diff")
	old, err := os.ReadFile(filepath.Join(dir, "old.txt"))
	if err != nil {
		t.Fatal(err)
	}
	new, err := os.ReadFile(filepath.Join(dir, "new.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checkCompare(t, string(old), string(new))
}

// checkCompare checks that every change Compare reports from oldText to
// newText is real, and that a file compared with itself has no change.
func checkCompare(t *testing.T, oldText, newText string) {
	t.Helper()
	o, n := robots.Parse([]byte(oldText)), robots.Parse([]byte(newText))
	rep := Compare(o, n, Options{Agents: []string{"a", "Googlebot"}})
	checkSound(t, rep, o, n, oldText, newText)
	if same := Compare(o, o, Options{}); same.Changed() {
		t.Fatalf("Compare of a file with itself reports changes: %+v\nfile:\n%s", same, oldText)
	}
}
