package semdiff

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gorep/robots"
)

// FuzzCompare checks, on any pair of files, that Compare does not panic,
// that every change it reports is real, and that a file compared with
// itself has no change.
func FuzzCompare(f *testing.F) {
	dir := filepath.Join("..", "..", "cmd", "robotstxt", "testdata", "diff")
	old, err := os.ReadFile(filepath.Join(dir, "old.txt"))
	if err != nil {
		f.Fatal(err)
	}
	new, err := os.ReadFile(filepath.Join(dir, "new.txt"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(old), string(new))
	f.Add("user-agent: *\ndisallow: /*a*b$\nallow: /a/index.html\n", "user-agent: *\ndisallow: /*b*a\n")
	f.Add("user-agent: a\ndisallow: /%2f\n", "user-agent: A\nallow: /\xff\ndisallow: *\n")
	f.Fuzz(func(t *testing.T, oldText, newText string) {
		o, n := robots.Parse([]byte(oldText)), robots.Parse([]byte(newText))
		rep := Compare(o, n, Options{Agents: []string{"a", "Googlebot"}})
		checkSound(t, rep, o, n, oldText, newText)
		if same := Compare(o, o, Options{}); same.Changed() {
			t.Fatalf("Compare of a file with itself reports changes: %+v\nfile:\n%s", same, oldText)
		}
	})
}
