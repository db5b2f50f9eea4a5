package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// The engine (internal/ruleset) asked through Parse: the brute-force
// precedence that its tests compare Decide with, the rule Decide quotes,
// odd files, and the helpers that reach a file's sets (largeSets, warm...).

// bruteDecision is the deciding rule of Google's precedence, found by
// trying every rule of the crawler's records: the longest matching escaped
// pattern (an allow of ".../index.htm" also matching ".../" at the end,
// with the priority of ".../$"), allow on a tie, and among equal rules the
// earliest line. It reads the records of r as Records gives them, and
// shares no matching code with the package. ok is false when no rule
// decides.
func bruteDecision(r *Robots, agent, path string) (best Rule, ok bool) {
	return bruteGroupDecision(r, []string{agent}, path)
}

// bruteGroupDecision is bruteDecision for the group of several agents
// (Robots.Group): the records that name any of them, else those that name
// "*".
func bruteGroupDecision(r *Robots, agents []string, path string) (best Rule, ok bool) {
	var named, global []Record
	for _, rec := range r.Records() {
		for _, a := range rec.Agents {
			if a.Token == "*" {
				global = append(global, rec)
				break
			}
		}
		names := func(a Agent) bool {
			return a.Token != "*" && slices.ContainsFunc(agents, func(s string) bool { return strings.EqualFold(a.Token, s) })
		}
		if slices.ContainsFunc(rec.Agents, names) {
			named = append(named, rec)
		}
	}
	if len(named) == 0 {
		named = global
	}
	bestPrio := -1
	for _, rec := range named {
		for _, w := range rec.Rules {
			p := slowEscape(w.Pattern)
			prio := -1
			switch {
			case p == "":
			case slowMatch(path, p):
				prio = len(p)
			case w.Allow:
				if i := strings.LastIndexByte(p, '/'); i >= 0 && strings.HasPrefix(p[i:], "/index.htm") && slowMatch(path, p[:i+1]+"$") {
					prio = i + 2
				}
			}
			if prio < 0 {
				continue
			}
			if prio > bestPrio || prio == bestPrio && (w.Allow && !best.Allow || w.Allow == best.Allow && w.Line < best.Line) {
				best, bestPrio, ok = w, prio, true
			}
		}
	}
	return best, ok
}

// checkDecisions compares Decide, for agent and each path, with
// bruteDecision: the verdict and the line quoted; of the file as parsed,
// whose large sets answer their first questions by scanning, and of the
// file with every large set laid out.
func checkDecisions(t *testing.T, body string, agent string, paths []string) {
	t.Helper()
	for how, r := range scannedAndLaidOut(body) {
		for _, path := range paths {
			want, ok := bruteDecision(r, agent, slowPathOf(path))
			d := r.Decide(agent, path)
			switch {
			case !ok && d.Reason == ReasonRule:
				t.Errorf("%s: Decide(%q, %q) = %v, want no deciding rule", how, agent, short(path), d)
			case ok && (d.Reason != ReasonRule || d.Rule != want):
				t.Errorf("%s: Decide(%q, %q) = %v, want the rule of line %d (%v)", how, agent, short(path), d, want.Line, want)
			}
			if ok && r.Allowed(agent, path) != want.Allow {
				t.Errorf("%s: Allowed(%q, %q) = %t, want %t", how, agent, short(path), !want.Allow, want.Allow)
			}
		}
	}
}

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

// TestDecideLineAtSharedOffsets checks the line Decide quotes when the
// compiled offset of a rule is shared: an empty rule's value starts where
// the next rule's does, and an escaped pattern follows its value as written
// (keepRule), right before the next rule's value.
func TestDecideLineAtSharedOffsets(t *testing.T) {
	runQueries(t, []query{
		{name: "empty-then-escaped", body: "user-agent: a\ndisallow:\ndisallow: /\xe9\n", agent: "a", url: "/%E9", want: false, line: 3},
		{name: "escaped-then-empty", body: "user-agent: a\ndisallow: /\xe9\nallow:\nallow: /%e9\n", agent: "a", url: "/%E9", want: true, line: 4},
		{name: "escaped-then-empty-then-plain", body: "user-agent: a\nallow: /\xe9\ndisallow:\ndisallow: /x\n", agent: "a", url: "/x", want: false, line: 4},
		{name: "escaped-twice-same-rank", body: "user-agent: a\ndisallow: /%e9\ndisallow: /\xe9\n", agent: "a", url: "/%E9", want: false, line: 2},
		{name: "escaped-index-htm", body: "user-agent: a\nallow: /\xe9/index.html\ndisallow: /\n", agent: "a", url: "/%E9/", want: true, line: 2},
		{name: "escaped-dollar", body: "user-agent: a\ndisallow: /\xe9$\nallow: /%E9\n", agent: "a", url: "/%E9", want: false, line: 2}, // "/%E9$" is longer
		{name: "empty-escaped-empty", body: "user-agent: a\nallow:\ndisallow: /a%2f\nallow:\n", agent: "a", url: "/a%2F", want: false, line: 3},
	})
}

// randomWord returns n bytes drawn from alphabet.
func randomWord(rng *rand.Rand, alphabet string, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(b)
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
