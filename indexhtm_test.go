package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

// TestFoldedDirs checks the directories with a "*" of index.htm allow
// rules, which a large set folds into their index.htm rules (dirs.go, tryFolded),
// against bruteDecision and the slow model, in every state of the set
// (rawStates): index.htm rules under wildcard directories, anchored or
// not, some raw (never folded), others written twice, among disallow
// rules of the directories' own patterns (a tie of rank with a directory
// rule, which the allow wins) and of other wildcard rules, in sets of
// more wildcard rules than a layout files by anchor (ruleset.MinFloating) and of
// fewer; asked paths that are those directories, and others.
func TestFoldedDirs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const alphabet = "ab/*\xe9"
	word := func(n int) string { return randomWord(rng, alphabet, n) }
	dir := func() string {
		d := word(rng.IntN(3)) + "*" + word(rng.IntN(3))
		if rng.IntN(2) == 0 {
			d = "/" + d
		}
		return d + "/"
	}
	for file := range sample(120, 16) {
		var b strings.Builder
		b.WriteString("user-agent: a\n")
		n := ruleset.SmallSet + 1 + rng.IntN(40)
		if file%2 == 1 {
			n = ruleset.MinFloating + 10 + rng.IntN(200)
		}
		var dirs []string
		for range n {
			var line string
			switch rng.IntN(6) {
			case 0, 1, 2:
				d := dir()
				dirs = append(dirs, d)
				line = "allow: " + d + []string{"index.htm", "index.html", "index.htm$", "index.html*", "index.htm*b"}[rng.IntN(5)]
			case 3:
				line = "disallow: /" + word(3)
				if len(dirs) > 0 {
					line = "disallow: " + dirs[rng.IntN(len(dirs))] + "$"
				}
			case 4:
				line = "disallow: " + dir()
			default:
				line = fmt.Sprintf("%s: /%s", []string{"allow", "disallow"}[rng.IntN(2)], word(1+rng.IntN(4)))
			}
			b.WriteString(line + "\n")
			if rng.IntN(8) == 0 {
				b.WriteString(line + "\n") // the same line again
			}
		}
		body := b.String()
		var paths []string
		for range 80 {
			p := "/" + word(rng.IntN(8))
			if rng.IntN(3) > 0 {
				p += "/"
			}
			if len(dirs) > 0 && rng.IntN(2) == 0 {
				// A directory, its "*" some bytes, or a path under it,
				// after some bytes, so that its anchor may stand after a
				// gram of the same bucket.
				p = "/" + word(rng.IntN(8)) + strings.TrimPrefix(dirs[rng.IntN(len(dirs))], "/") + []string{"", "", "x", "index.htm"}[rng.IntN(4)]
			}
			p = strings.ReplaceAll(p, "*", word(rng.IntN(3)))
			paths = append(paths, strings.NewReplacer("*", "b", "\xe9", "%E9").Replace(p))
		}
		for how, r := range rawStates(body) {
			for _, path := range paths {
				want, ok := bruteDecision(r, "a", slowPathOf(path))
				d := r.Decide("a", path)
				slow := slowAllowed([]byte(body), []string{"a"}, path)
				if ok && (d.Reason != ReasonRule || d.Rule != want) || !ok && d.Reason == ReasonRule || d.Allowed != slow {
					t.Fatalf("file %d, %s: Decide(a, %q) = %v, want %v (deciding: %t), slow model %t; file:\n%s",
						file, how, path, d, want, ok, slow, body)
				}
				if got := r.Allowed("a", path); got != slow {
					t.Fatalf("file %d, %s: Allowed(a, %q) = %t, slow model %t; file:\n%s", file, how, path, got, slow, body)
				}
			}
		}
	}
}

// TestFoldDirsCompiles checks what compile folds (leaveOut, htmDir): the directory rules
// of the index.htm allow rules under a "*" that are not raw, in a set that
// stays large without them; not in a small set, nor in a set that would
// be small without them.
func TestFoldDirsCompiles(t *testing.T) {
	lines := func(n int, line func(i int) string) string {
		var b strings.Builder
		b.WriteString("user-agent: *\n")
		for i := range n {
			b.WriteString(line(i) + "\n")
		}
		return b.String()
	}
	wild := func(i int) string { return "allow: *" + letters(i) + "/index.htm" }
	tests := []struct {
		name       string
		body       string
		rules      int
		dirsFolded bool
		dir        string // of lines 3, 5 and 21, before the index of the line
	}{
		{"large", lines(40, wild), 40, true, "/x"},
		{"small-without", lines(20, wild), 40, false, "/x"},
		{"large-without", lines(33, wild), 33, true, "/x"},
		{"raw", lines(40, func(i int) string { return "allow: *\xe9" + letters(i) + "/index.htm" }), 80, false, "/x%E9"},
		{"plain", lines(40, func(i int) string { return "allow: /" + letters(i) + "/index.htm" }), 40, false, "/"},
		{"mixed", lines(40, func(i int) string {
			if i%2 == 0 {
				return "allow: *\xe9" + letters(i) + "/index.htm"
			}
			return wild(i)
		}), 60, true, "/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.body))
			if n := compiledRules(r); n != tt.rules {
				t.Errorf("%d compiled rules, want %d", n, tt.rules)
			}
			folded := false
			for _, s := range largeSets(r) {
				folded = folded || s.Inspect().Folded
			}
			if folded != tt.dirsFolded {
				t.Errorf("dirsFolded = %t, want %t", folded, tt.dirsFolded)
			}
			for _, i := range []int{1, 3, 19} {
				path := tt.dir + letters(i) + "/"
				if d := r.Decide("a", path); d.Reason != ReasonRule || d.Rule.Line != i+2 || !d.Allowed {
					t.Errorf("Decide(%q) = %v, want the allow of line %d", path, d, i+2)
				}
			}
		})
	}
}

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
