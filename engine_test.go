package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/lines"
)

// Odd inputs for the compact parsed form (lines.go, the rules compile
// leaves out, the directories of index.htm rules filed at layout): each
// file is checked against the slow model, the brute-force Decide and the
// values of its lines as written.

// checkOddFile checks, for each agent and path, that Allowed agrees with
// the slow model, that Decide quotes the rule bruteDecision finds, and
// that Records gives back the value of every rule line as written.
func checkOddFile(t *testing.T, body string, agents, paths []string) {
	t.Helper()
	values := map[int]string{}
	for _, l := range scanLinesSlow(body[:min(len(body), MaxSize)]) {
		values[l.N] = l.Value
	}
	r := Parse([]byte(body))
	for _, rec := range r.Records() {
		for _, w := range rec.Rules {
			if w.Pattern != values[w.Line] {
				t.Fatalf("rule of line %d has pattern %q, the line's value is %q", w.Line, short(w.Pattern), short(values[w.Line]))
			}
		}
	}
	for _, agent := range agents {
		checkDecisions(t, body, agent, paths)
		for _, p := range paths {
			if got, want := r.Allowed(agent, p), slowAllowed([]byte(body), []string{agent}, p); got != want {
				t.Errorf("Allowed(%q, %q) = %t, slow model says %t", agent, short(p), got, want)
			}
		}
	}
}

// TestOddFiles checks files of the shapes the compact form must survive:
// empty values, rules before any user-agent line, records without rules,
// CR-only line breaks, values at maxLineLen, tables crossing marks.
func TestOddFiles(t *testing.T) {
	long := strings.Repeat("\xe9", lines.MaxLineLen-len("allow:/"))
	tests := []struct {
		name  string
		body  string
		paths []string
		// filed is the number of directories the layout of the group of
		// "*" files (bigSet.dirs).
		filed int
	}{
		{name: "empty", body: "", paths: []string{"/"}},
		{name: "empty-values", body: "user-agent:\nallow:\ndisallow:\nsitemap:\nx:\nuser-agent: a\ndisallow:\ndisallow: /\n", paths: []string{"/", "/a"}},
		{name: "rules-before-agents", body: "disallow: /\nallow: /a\nuser-agent: a\ndisallow: /b\n", paths: []string{"/", "/a", "/b"}},
		{name: "records-without-rules", body: "user-agent: a\n\nuser-agent: *\ndisallow: /\nuser-agent: b\ncrawl-delay: 3\n", paths: []string{"/", "/x"}},
		{name: "cr-only", body: strings.Repeat("user-agent: a\rdisallow: /x\r\r#c\rallow: /x/y\r", 20), paths: []string{"/x", "/x/y", "/"}},
		{name: "value-at-max-line-len", body: "user-agent: a\nallow:/" + long + "\ndisallow:/" + long[:len(long)-3] + "\n", paths: []string{"/" + strings.Repeat("%E9", len(long)), "/%E9"}},
		{name: "escaped-long-twice", body: "user-agent: a\nallow:/%e9" + long[:len(long)-3] + "\ndisallow:/" + long + "\n", paths: []string{"/" + strings.Repeat("%E9", len(long)), "/%E9"}},
		{name: "marks", body: marksFile(), paths: []string{"/", "/a", "/a1", "/b70", "/c%E9", "/d/"}},
		// 31 rules and 30 directories: a large set, its directories
		// compiled; 81 rules and 80 directories: filed at layout.
		{name: "index-htm-compiled", body: indexHTMFile(15), paths: []string{"/", "/d3/", "/d3/x", "/d14/", "/d15/"}},
		{name: "index-htm-filed", body: indexHTMFile(40), paths: []string{"/", "/d3/", "/d3/x", "/d39/", "/d40/"}, filed: 80},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkOddFile(t, tt.body, []string{"a", "b", "z"}, tt.paths)
			r := Parse([]byte(tt.body))
			layOutAll(r)
			var g Group
			r.globalGroup(&g)
			filed := g.set.Inspect().Dirs
			if filed != tt.filed {
				t.Errorf("%d directories filed at layout, want %d", filed, tt.filed)
			}
		})
	}
}

// marksFile returns a file of many records and lines of every entry form
// (short, medium, long, escaped, extras, agents kept once), so that the
// line table crosses many marks.
func marksFile() string {
	var b strings.Builder
	for i := range 90 {
		fmt.Fprintf(&b, "user-agent: a\nuser-agent: b%d\n", i%10)
		fmt.Fprintf(&b, "disallow: /a%d\n# gap\n\nallow: /b%d%s\ncrawl-delay: %d\n", i, i, strings.Repeat("x", i%40*8), i)
		fmt.Fprintf(&b, "disallow: /c\xe9%d\nallow: /c%%e9\nallow: /d/index.html\nsitemap: /s%d\ndisallow: x%d\n", i, i, i)
	}
	return b.String()
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

// TestLargeOddFiles checks files of MaxSize bytes: one of patterns of
// bytes outside ASCII written with a lower-case escape, which escaping
// makes four bytes a byte, and which are kept as written, as the offsets
// of srcLine and rule require; and one of CR line breaks whose rules come
// after half a million empty lines.
func TestLargeOddFiles(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: a\n")
	line := "allow:/%aa" + strings.Repeat("\xff", lines.MaxLineLen-len("allow:/%aa")) + "\n"
	last := "disallow:/%aa\xff\xff"
	for b.Len()+len(line)+len(last) <= MaxSize {
		b.WriteString(line)
	}
	b.WriteString(strings.Repeat("#", MaxSize-b.Len()-len(last)))
	b.WriteString("\n" + last)
	near := b.String()[:MaxSize]
	if r := Parse([]byte(near)); r.linesAt() > MaxSize || r.linesAt() < MaxSize-1<<17 {
		t.Fatalf("the kept values are %d bytes, not near MaxSize", r.linesAt())
	}
	many := strings.Repeat("\r", MaxSize-40) + "user-agent: a\rdisallow: /\rallow: /a\r"
	tests := []struct {
		name  string
		body  string
		paths []string
	}{
		{name: "patterns-escaped-4x", body: near, paths: []string{"/", "/%AA", "/%AA%FF", "/%AA%FF%FF", "/%AA%FF%FF%FF"}},
		{name: "half-a-million-lines", body: many, paths: []string{"/", "/a", "/b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkOddFile(t, tt.body, []string{"a", "z"}[:sample(2, 1)], tt.paths)
		})
	}
}

// TestDecideMixedShapes checks Allowed, Decide and Group(agents...) against
// the slow model and bruteDecision on random files that mix what the
// compact form treats apart: rules that never decide, short rules
// repeated, index.htm rules and their directories written out, patterns
// escaped either way, extras, sitemaps and comments between rules, rules
// before any user-agent line, every line break, and records merged, split
// and united.
func TestDecideMixedShapes(t *testing.T) {
	for seed := range uint64(sample(150, 20)) {
		rng := rand.New(rand.NewPCG(seed, 99))
		const alphabet = "ab/*$%e9\xe9\xff"
		word := func(n int) string { return randomWord(rng, alphabet, n) }
		pattern := func() string {
			switch rng.IntN(10) {
			case 0:
				return word(rng.IntN(3))
			case 1:
				return "/" + word(rng.IntN(2)) + "/index.htm" + []string{"", "l", "l$", "l*"}[rng.IntN(4)]
			case 2:
				return "*" + word(1+rng.IntN(3))
			case 3:
				return "/" + word(rng.IntN(2)) + "/$"
			case 4:
				return "/" + word(rng.IntN(2))
			}
			return "/" + word(rng.IntN(6))
		}
		br := []string{"\n", "\r", "\r\n"}[rng.IntN(3)]
		var b strings.Builder
		if rng.IntN(4) == 0 {
			b.WriteString("disallow: /" + br)
		}
		for rec := range 1 + rng.IntN(4) {
			b.WriteString("user-agent: a" + br)
			if rec%2 == 1 || rng.IntN(3) == 0 {
				b.WriteString("user-agent: b" + br)
			}
			if rng.IntN(4) == 0 {
				b.WriteString("user-agent: *" + br)
			}
			for range rng.IntN(90) {
				switch rng.IntN(12) {
				case 0:
					b.WriteString("# c" + br + br)
				case 1:
					fmt.Fprintf(&b, "crawl-delay: %d%s", rng.IntN(9), br)
				case 2:
					b.WriteString("sitemap: /s" + br)
				}
				kind := "disallow"
				if rng.IntN(2) == 0 {
					kind = "allow"
				}
				fmt.Fprintf(&b, "%s: %s%s", kind, pattern(), br)
			}
		}
		var paths []string
		for range 40 {
			p := "/" + strings.ReplaceAll(word(rng.IntN(7)), "*", "b")
			switch rng.IntN(4) {
			case 0:
				p = "/" + strings.ReplaceAll(word(rng.IntN(2)), "*", "a") + "/"
			case 1:
				p += "/index.html"
			}
			p = strings.ReplaceAll(p, "\xe9", "%E9")
			p = strings.ReplaceAll(p, "\xff", "%FF")
			paths = append(paths, p)
		}
		body := b.String()
		checkOddFile(t, body, []string{"a", "b", "z"}, paths)
		r := Parse([]byte(body))
		for _, agents := range [][]string{{"a", "b"}, {"b", "z"}, {"a", "z", "b"}} {
			g := r.Group(agents...)
			for _, p := range paths {
				if got, want := g.Allowed(p), slowAllowed([]byte(body), agents, p); got != want {
					t.Errorf("Group(%q).Allowed(%q) = %t, want %t", agents, p, got, want)
				}
				want, ok := bruteGroupDecision(r, agents, slowPathOf(p))
				if d := g.Decide(p); ok && (d.Reason != ReasonRule || d.Rule != want) || !ok && d.Reason == ReasonRule {
					t.Errorf("Group(%q).Decide(%q) = %v, want the rule of line %d (%v)", agents, p, d, want.Line, want)
				}
			}
		}
		if t.Failed() {
			t.Fatalf("file %d: %q", seed, body)
		}
	}
}
