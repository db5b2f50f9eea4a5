package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

// What the engine's compile keeps, asked through Parse: it leaves out the
// rules that can never decide, keeps a pattern once, as written, and leaves
// out the directories of index.htm allow rules, for the layout to file
// apart, or folds them into their index.htm rules.

// TestCompileLeavesOut checks that compile leaves out the rules that can
// never decide, and that the answers and the lines Decide quotes do not
// change: it keeps the earliest of rules alike.
func TestCompileLeavesOut(t *testing.T) {
	var cycle strings.Builder // 2-byte rules, cycling, in a large set
	cycle.WriteString("user-agent: *\n")
	for i := range 3000 {
		kind := []string{"allow", "disallow"}[i%2]
		cycle.WriteString(kind + ":/" + string(rune('a'+i/2%26)) + "\n")
	}
	for _, tt := range []struct {
		name     string
		body     string
		compiled int
		path     string
		line     int // of the deciding rule, or 0 for none
	}{
		{"same", "user-agent: *\nallow: /\ndisallow: /\nallow: /\ndisallow: /\n", 2, "/x", 2},
		{"never matches", "user-agent: *\ndisallow: x\ndisallow: $\ndisallow: %2F\nallow: /x\n", 1, "/x", 5},
		{"star", "user-agent: *\ndisallow: *\nallow: *\ndisallow: *\n", 2, "/", 3},
		{"long alike", "user-agent: *\ndisallow: /abc\nallow: /abc\ndisallow: /abc\n", 2, "/abcd", 3},
		{"index.htm alike", "user-agent: *\nallow: /d/index.htm\nallow: /d/index.html\nallow: /d/$\n", 4, "/d/", 2},
		{"cycle", cycle.String(), 52, "/c", 6},
	} {
		r := Parse([]byte(tt.body))
		if n := compiledRules(r); n != tt.compiled {
			t.Errorf("%s: %d compiled rules, want %d", tt.name, n, tt.compiled)
		}
		d := r.Decide("googlebot", tt.path)
		if line := d.Rule.Line; d.Reason != ReasonRule && tt.line != 0 || line != tt.line {
			t.Errorf("%s: Decide(%q) = %v, want the rule of line %d", tt.name, tt.path, d, tt.line)
		}
		if got, want := r.Allowed("googlebot", tt.path), slowAllowed([]byte(tt.body), []string{"googlebot"}, tt.path); got != want {
			t.Errorf("%s: Allowed(%q) = %t, the slow model says %t", tt.name, tt.path, got, want)
		}
	}
}

// TestPatternKeptOnce checks that a pattern is kept once, as written,
// whether escaping changes it or not, and that Records and Decide quote it
// as written and match it escaped.
func TestPatternKeptOnce(t *testing.T) {
	tests := []struct {
		name, pattern, path string
		raw                 bool // escaping changes it
	}{
		{"ascii", "/a/b", "/a/b", false},
		{"utf8", "/café", "/caf%C3%A9", true},
		{"invalid-utf8", "/\xff\xfe1\xc0", "/%FF%FE1%C0", true},
		{"lower-hex", "/%e2%82", "/%E2%82", true},
		{"lower-hex-low", "/%2f", "/%2F", true},
		{"upper-hex", "/%E2%82", "/%E2%82", false},
		{"upper-hex-and-utf8", "/%C3%A9/é", "/%C3%A9/%C3%A9", true},
		{"ascii-escape-and-utf8", "/%2F/é", "/%2F/%C3%A9", true},
		{"percent-and-utf8", "/100%/é", "/100%/%C3%A9", true},
		{"wildcard", "/*é$", "/x/%C3%A9", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte("user-agent: *\ndisallow: " + tt.pattern + "\n"))
			if got, want := r.text()[:r.linesAt()], "*"+tt.pattern; got != want {
				t.Errorf("kept values %q, want %q", got, want)
			}
			var g Group
			r.globalGroup(&g)
			if rules := g.set.Rules(); len(rules) != 1 || rules[0].Raw() != tt.raw {
				t.Errorf("compiled %x, want one rule, raw %t", rules, tt.raw)
			}
			if got := r.Records()[0].Rules[0].Pattern; got != tt.pattern {
				t.Errorf("Records pattern = %q, want %q", got, tt.pattern)
			}
			d := r.Decide("a", tt.path)
			if d.Allowed || d.Rule.Pattern != tt.pattern {
				t.Errorf("Decide(%q) = %v, want disallowed by %q", tt.path, d, tt.pattern)
			}
		})
	}
}

// indexHTMFile returns a file of n index.htm allow rules, each written
// twice, and a disallow of everything.
func indexHTMFile(n int) string {
	var b strings.Builder
	b.WriteString("user-agent: *\ndisallow: /\n")
	for i := range n {
		fmt.Fprintf(&b, "allow: /d%d/index.html\n", i)
	}
	for i := range n {
		fmt.Fprintf(&b, "allow: /d%d/index.htm\n", i)
	}
	return b.String()
}

// TestDecideDirsOfIndexHTM checks sets large enough that compile leaves
// out the directory rules of their index.htm allow rules (leaveOut), which
// the layout files instead: directories written several times, with
// bytes outside ASCII, "$", rules of the directory written out, in
// records merged and past the merge budget.
func TestDecideDirsOfIndexHTM(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 3))
	dirs := []string{"/", "/a/", "/a/b/", "/\xe9/", "/%e9/", "/a$/", "/*/", "/b/"}
	pattern := func() string {
		d := dirs[rng.IntN(len(dirs))]
		switch rng.IntN(6) {
		case 0, 1:
			return d + "index.htm" + []string{"", "l", "l$", "x"}[rng.IntN(4)]
		case 2:
			return d + "$"
		case 3:
			return d
		case 4:
			return d + string(rune('a'+rng.IntN(3)))
		}
		return fmt.Sprintf("/r%d", rng.IntN(60))
	}
	var paths []string
	for _, d := range dirs {
		e := strings.ReplaceAll(d, "\xe9", "%E9")
		paths = append(paths, e, e+"index.html", e+"a", strings.ReplaceAll(e, "*", "x"))
	}
	filed := 0 // sets whose layout filed directories
	for file := range 40 {
		var b strings.Builder
		for rec := range 1 + rng.IntN(3) {
			b.WriteString("user-agent: a\n")
			if rec%2 == 1 {
				b.WriteString("user-agent: b\n")
			}
			for range 20 + rng.IntN(60) {
				kind := "disallow"
				if rng.IntN(3) > 0 {
					kind = "allow"
				}
				fmt.Fprintf(&b, "%s: %s\n", kind, pattern())
			}
		}
		t.Run(fmt.Sprintf("file-%d", file), func(t *testing.T) {
			checkOddFile(t, b.String(), []string{"a", "b"}, paths)
			if t.Failed() {
				t.Logf("file:\n%s", b.String())
			}
			r := Parse([]byte(b.String()))
			layOutAll(r)
			var g Group
			if r.group("a", &g); g.set.Inspect().Dirs > 0 {
				filed++
			}
		})
	}
	if filed < 10 {
		t.Errorf("only %d of 40 files had directories filed at layout", filed)
	}
}

// TestLayoutDirs checks the directories that index.htm allow rules also
// allow in a large set, which its layout files apart (bigSet.dirs): the
// answers, the line Decide quotes (the earliest of a directory's index
// rules, on a tie of rank that of the allow), and that the rules are not
// compiled (a directory with a "*" is folded: dirs.go, tryFolded).
func TestLayoutDirs(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := range 40 {
		b.WriteString("allow: /" + letters(i) + "/index.htm\n") // lines 2-41
	}
	b.WriteString("disallow: /b/$\n")           // 42: ties /b/'s directory rule, which wins
	b.WriteString("allow: /c/index.html\n")     // 43: a second index rule of /c/
	b.WriteString("disallow: /d/e\n")           // 44
	b.WriteString("allow: /*/x/index.html\n")   // 45: a directory with "*", folded
	b.WriteString("allow: /%c3%a9/index.htm\n") // 46: escaped
	b.WriteString("disallow: /\n")              // 47
	body := b.String()
	r := Parse([]byte(body))
	if n, want := compiledRules(r), 46; n != want {
		t.Errorf("%d compiled rules, want %d: one a line (the directory with a \"*\" folded)", n, want)
	}
	for _, tt := range []struct {
		path string
		line int
	}{
		{"/a/", 2},
		{"/a/x", 47},
		{"/a", 47},
		{"/b/", 3},
		{"/c/", 4},
		{"/c/index.html", 43},
		{"/q/x/", 45},
		{"/%C3%A9/", 46},
		{"/%c3%a9/", 47},
		{"/zz/", 47},
	} {
		d := r.Decide("googlebot", tt.path)
		if d.Reason != ReasonRule || d.Rule.Line != tt.line {
			t.Errorf("Decide(%q) = %v, want the rule of line %d", tt.path, d, tt.line)
		}
		if got, want := r.Allowed("googlebot", tt.path), slowAllowed([]byte(body), []string{"googlebot"}, tt.path); got != want || got != d.Allowed {
			t.Errorf("Allowed(%q) = %t, Decide %t, the slow model says %t", tt.path, got, d.Allowed, want)
		}
	}
}

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
