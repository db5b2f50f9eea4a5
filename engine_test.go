package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// The engine (internal/ruleset) asked through Parse: the rule Decide quotes
// among rules of equal rank and on files that mix every shape the compact
// form treats apart, odd files, and the helpers that reach a file's sets
// (largeSets, warm...). The models the answers are held to (slowAllowed,
// bruteDecision) are in model_test.go.

// TestDecideQuotesEarliestLine checks the rule Decide quotes against
// bruteDecision on random files made so that rules of equal rank abound:
// patterns of a few lengths over a small alphabet, written several times,
// in large sets (a head run, a float run of wildcard rules with short
// heads, some anchored by one byte), in several records that name one agent, and
// past the merge budget, where a group's sets are asked one by one.
func TestDecideQuotesEarliestLine(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 11))
	const alphabet = "ab/*$c%\xe9"
	word := func(n int) string { return randomWord(rng, alphabet, n) }
	pattern := func() string {
		switch rng.IntN(7) {
		case 0:
			return "*" + word(1+rng.IntN(2)) + "ab" + word(rng.IntN(2)) // floating, shares anchors
		case 1:
			return "/*" + word(3)
		case 2:
			return "/" + word(rng.IntN(2)) + "/index.html"
		case 3:
			return "/a" + strings.Repeat("\xe9", rng.IntN(2)) + word(rng.IntN(3))
		case 4:
			return ""
		default:
			return "/" + word(rng.IntN(4))
		}
	}
	// How many groups of a, b and c were laid out with each run, or split:
	// the test means something only if each shape comes up.
	stats := map[string]int{}
	files := sample(60, 15)
	for file := range files {
		var b strings.Builder
		var pool []string
		for range 48 {
			pool = append(pool, pattern())
		}
		records := 1 + rng.IntN(4)
		for rec := range records {
			// Records name a, or a and b or c, so that the lists of
			// records of b and c differ from a's and one may fall past
			// the merge budget.
			b.WriteString("user-agent: a\n")
			if rec > 0 || rng.IntN(2) == 0 {
				b.WriteString("user-agent: b\n")
			}
			if rec+1 < records || rng.IntN(2) == 0 {
				b.WriteString("user-agent: c\n")
			}
			if rng.IntN(3) == 0 {
				b.WriteString("user-agent: *\n")
			}
			for range 20 + rng.IntN(120) {
				kind := "disallow"
				if rng.IntN(2) == 0 {
					kind = "allow"
				}
				p := pool[rng.IntN(len(pool))]
				if rng.IntN(2) == 0 {
					p = pattern()
				}
				fmt.Fprintf(&b, "%s: %s\n", kind, p)
			}
		}
		var paths []string
		for range 60 {
			p := "/" + strings.ReplaceAll(word(rng.IntN(9)), "*", "b")
			if rng.IntN(4) == 0 {
				p = "/" + strings.ReplaceAll(word(rng.IntN(2)), "*", "a") + "/"
			}
			paths = append(paths, strings.ReplaceAll(p, "\xe9", "%E9"))
		}
		t.Run(fmt.Sprintf("file-%d", file), func(t *testing.T) {
			for _, agent := range []string{"a", "b", "c", "z"} {
				checkDecisions(t, b.String(), agent, paths)
			}
			if t.Failed() {
				t.Logf("file:\n%s", b.String())
			}
			r := Parse([]byte(b.String()))
			layOutAll(r)
			var ga, gb, gc Group
			r.group("a", &ga)
			r.group("b", &gb)
			r.group("c", &gc)
			for _, g := range []Group{ga, gb, gc} {
				if g.split {
					stats["split"]++
				}
				if st := g.set.Inspect(); st.Laid {
					stats["big"]++
					if st.Float > 0 {
						stats["float"]++
					}
					if st.ShortAnchor {
						stats["short-anchor"]++ // rules filed by one or two bytes
					}
				}
			}
		})
	}
	for _, shape := range []string{"big", "float", "short-anchor", "split"} {
		if stats[shape] < files/6 {
			t.Errorf("only %d groups are %s: %v", stats[shape], shape, stats)
		}
	}
	t.Logf("%v", stats)
}

// randomWord returns n bytes drawn from alphabet.
func randomWord(rng *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
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

// Odd inputs for the compact parsed form (internal/lines/table.go, the rules compile
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

// largeSets returns the sets of r of more than ruleset.SmallSet rules (or rule
// lines, for a lazy set), each once.
func largeSets(r *Robots) []ruleset.Set {
	if r == nil {
		return nil
	}
	if r.more == nil {
		return nil
	}
	var sets []ruleset.Set
	seen := map[*ruleset.Lazy]bool{}
	add := func(lo, n int32, big *ruleset.Lazy) {
		if big != nil && !seen[big] {
			seen[big] = true
			sets = append(sets, ruleset.NewSet(&r.src, lo, n, big))
		}
	}
	for _, b := range r.more.bigs {
		add(b.lo, b.n, b.big)
	}
	for _, mg := range r.more.multi {
		add(mg.lo, mg.n, mg.big)
	}
	return sets
}

// layOutAll compiles and lays out every set of r of more than ruleset.SmallSet
// rules or rule lines, as enough questions would.
func layOutAll(r *Robots) {
	for _, s := range largeSets(r) {
		s.LayOut()
	}
}

// compiledRules returns the number of compiled rules of r, those of its
// lazy sets included, which it compiles.
func compiledRules(r *Robots) int {

	n := len(r.src.Compiled())
	for _, s := range largeSets(r) {
		if s.Inspect().Lazy {
			n += len(s.CompileAside())
		}
	}
	return n
}

// warm asks r about url for agent as many times as it takes to lay out
// the sets that answer it: the state of a file that a crawler has asked
// enough.
func warm(r *Robots, agent, url string) {
	for range ruleset.LayoutQuestions + 1 {
		r.Allowed(agent, url)
	}
}

// scannedAndLaidOut returns two parses of body: one as parsed, whose large
// sets answer their first questions by scanning, and one whose large sets
// are all laid out.
func scannedAndLaidOut(body string) map[string]*Robots {
	laid := Parse([]byte(body))
	layOutAll(laid)
	return map[string]*Robots{"scanned": Parse([]byte(body)), "laid-out": laid}
}

// largeSet returns the set that answers agent in r.
func largeSet(r *Robots, agent string) *ruleset.Set {
	var g Group
	r.group(agent, &g)
	return &g.set
}

// text returns the kept text of r: values, line table and index.
func (r *Robots) text() string { return r.src.Text() }

// linesAt returns the bytes of the kept values of r, before its table.
func (r *Robots) linesAt() uint32 { return uint32(len(r.table().Values())) }

// setLen returns the rules of s, or rule lines of a lazy set.
func setLen(s *ruleset.Set) int32 { _, n, _ := s.Parts(); return n }

// setLo returns where the rules of s start, ^rec for record rec read from
// the line table.
func setLo(s *ruleset.Set) int32 { lo, _, _ := s.Parts(); return lo }
