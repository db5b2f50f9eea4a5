package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

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
