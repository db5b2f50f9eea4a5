package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

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

// TestLazyLayout checks that a large set answers its first questions from
// its rule lines, then from its compiled rules, then from its layout, with
// the answers and quoted rules of the slow models throughout: that it is
// laid out on question ruleset.LayoutQuestions+1 and not before.
func TestLazyLayout(t *testing.T) {
	tests := []struct {
		name string
		body string
	}{
		{"headed-floating-loose", layoutBody()},
		{"index-htm", indexHTMFile(60)},
		{"repeats", strings.Repeat("user-agent: *\ndisallow: /a\nallow: /a*\ndisallow: /*b\n", 30)},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.body))
			set := largeSet(r, "a")
			if !set.Inspect().Lazy {
				t.Fatalf("the set of a has %d rule lines, want a lazy set of more than %d", setLen(set), ruleset.SmallSet)
			}
			for q := range 3 * ruleset.LayoutQuestions {
				if laid := set.Inspect().Laid; laid != (q > ruleset.LayoutQuestions) {
					t.Fatalf("before question %d: laid out = %t", q+1, laid)
				}
				path := fmt.Sprintf("/p%d/%dx%03dy%c", rng.IntN(20), rng.IntN(20), rng.IntN(500), 'a'+rng.IntN(26))
				switch q % 3 {
				case 1:
					path = fmt.Sprintf("/d%d/", rng.IntN(70))
				case 2:
					path = "/a" + strings.Repeat("b", rng.IntN(3))
				}
				want, ok := bruteDecision(r, "a", path)
				d := r.Decide("a", path)
				if ok && (d.Reason != ReasonRule || d.Rule != want) || !ok && d.Reason == ReasonRule {
					t.Errorf("question %d: Decide(a, %q) = %v, want %v (%t)", q+1, path, d, want, ok)
				}
				if got, want := d.Allowed, slowAllowed([]byte(tt.body), []string{"a"}, path); got != want {
					t.Errorf("question %d: Decide(a, %q).Allowed = %t, slow model says %t", q+1, path, got, want)
				}
			}
		})
	}
}

// TestLongPathLaysOut checks that a scan weighs what it cost (match.work):
// over rules that each read an 8 KB path, one scan is enough to lay the set
// out on the next question; over the same rules anchored, which a glance
// at the path's last byte passes over, 24 scans are (ruleset.LayoutQuestions). The
// answers are the slow model's throughout.
func TestLongPathLaysOut(t *testing.T) {
	path := "/" + strings.Repeat("ab0123456789", 700)[:8190] // no rule's "a" then a digit
	for _, tt := range []struct {
		dollar   string
		layoutAt int
	}{{"", 2}, {"$", ruleset.LayoutQuestions + 1}} {
		var b strings.Builder
		b.WriteString("user-agent: *\n")
		for i := range 40 {
			fmt.Fprintf(&b, "disallow: /*a%db%s\n", i, tt.dollar)
		}
		r := Parse([]byte(b.String()))
		set := largeSet(r, "a")
		want := slowAllowed([]byte(b.String()), []string{"a"}, path)
		for q := 1; q <= tt.layoutAt; q++ {
			if laid := set.Inspect().Laid; laid {
				t.Fatalf("%q rules: laid out before question %d, want on question %d", tt.dollar, q, tt.layoutAt)
			}
			if got := r.Allowed("a", path); got != want {
				t.Errorf("%q rules, question %d: Allowed = %t, slow model says %t", tt.dollar, q, got, want)
			}
		}
		if !set.Inspect().Laid {
			t.Errorf("%q rules: not laid out on question %d", tt.dollar, tt.layoutAt)
		}
	}
}

// TestScansAllocateNothing checks that the questions a large set answers
// from its rule lines, before its layout, allocate nothing, and that the
// layout comes on question ruleset.LayoutQuestions+1.
func TestScansAllocateNothing(t *testing.T) {
	r := Parse([]byte(indexHTMFile(60) + "user-agent: b\n" + strings.Repeat("disallow: /*x\nallow: /p\n", 40)))
	for _, agent := range []string{"a", "b"} {
		set := largeSet(r, agent)
		// AllocsPerRun asks once more than it counts.
		if n := testing.AllocsPerRun(ruleset.LayoutQuestions-1, func() { r.Allowed(agent, "/d3/") }); n != 0 {
			t.Errorf("Allowed(%q) allocates %v times before the layout", agent, n)
		}
		if set.Inspect().Laid {
			t.Errorf("the set of %q is laid out after %d questions", agent, ruleset.LayoutQuestions)
		}
		r.Allowed(agent, "/d3/") // lays out
		if !set.Inspect().Laid {
			t.Errorf("the set of %q is not laid out after %d questions", agent, ruleset.LayoutQuestions+1)
		}
	}
}

// TestLazyLayoutRace asks a large set from many goroutines at once across
// its layout: every answer must be the one the laid-out set gives, and
// the set must be laid out once.
func TestLazyLayoutRace(t *testing.T) {
	body := layoutBody()
	paths := []string{"/p3/4x123yb", "/p1/1", "/x", "/p7/", "/p3/4", "/p0/0"}
	ref := Parse([]byte(body))
	layOutAll(ref)
	for round := range 4 {
		r := Parse([]byte(body))
		var wg sync.WaitGroup
		for g := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 3 * ruleset.LayoutQuestions {
					p, a := paths[(i+g)%len(paths)], []string{"a", "b", "z"}[(i+round)%3]
					if got, want := r.Decide(a, p), ref.Decide(a, p); got != want {
						t.Errorf("round %d: Decide(%q, %q) = %v, want %v", round, a, p, got, want)
						return
					}
				}
			}()
		}
		wg.Wait()
		if got, want := r.MemSize(), ref.MemSize(); got != want {
			t.Errorf("round %d: MemSize() = %d, want %d, that of the file laid out once", round, got, want)
		}
	}
}

// TestRuleReader checks that a ruleReader gives the rule lines of any
// records, in file order, as recordLines does, whether it reads each from
// where the one before ended or from a mark.
func TestRuleReader(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for file := range 20 {
		var b strings.Builder
		for rec := range 1 + rng.IntN(80) {
			fmt.Fprintf(&b, "user-agent: a%d\n", rec)
			for range rng.IntN(4) {
				fmt.Fprintf(&b, "disallow: /%d\n# comment\nsitemap: /s\n", rng.IntN(100))
			}
			for range rng.IntN(40) * rng.IntN(2) {
				fmt.Fprintf(&b, "allow: /x%d\n", rng.IntN(100))
			}
		}
		r := Parse([]byte(b.String()))
		var recs []int32
		for rec := range r.table().RecordCount() {
			if rng.IntN(3) > 0 {
				recs = append(recs, int32(rec))
			}
		}
		var want, got []lines.Line
		for _, rec := range recs {
			_, want = r.table().RecordLines(int(rec), nil, want)
		}
		rr := lines.NewRuleReader(r.table())
		for _, rec := range recs {
			rr.Start(rec)
			for l, ok := rr.Next(); ok; l, ok = rr.Next() {
				got = append(got, l)
			}
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("file %d, records %v: rule lines differ (-want +got):\n%s", file, recs, diff)
		}
	}
}

// TestLazyRawScanned checks that a large set with patterns that escaping
// changes answers its first questions from its rule lines, as its layout
// answers, without being laid out, and without allocating when each
// pattern escapes to 128 bytes or fewer (tryLine's stack buffer).
func TestLazyRawScanned(t *testing.T) {
	plain := strings.Repeat("disallow: /p\nallow: /q*\n", 20)
	tests := []struct {
		name, rules, path string
		short             bool
	}{
		{"raw-first", "disallow: /\xe9\n" + plain, "/%E9x", true},
		{"raw-last", plain + "allow: /q%e9\n", "/q%E9", true},
		{"lower-escape", plain + "allow: /a%2fb\n", "/a%2Fb", true},
		{"raw-passed-over", plain + "allow: /a%2fb\n", "/x", true},
		{"raw-wildcard", plain + "allow: /*\xe9$\n", "/x/%E9", true},
		{"raw-index-htm", plain + "disallow: /\nallow: /\xe9/index.html\n", "/%E9/", true},
		{"raw-long", plain + "allow: /q" + strings.Repeat("\xe9", 50) + "\n", "/q" + strings.Repeat("%E9", 50), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := []byte("user-agent: a\n" + tt.rules)
			r, laid := Parse(body), Parse(body)
			layOutAll(laid)
			set := largeSet(r, "a")
			if !set.Inspect().Lazy {
				t.Fatalf("the set of a has %d rule lines, want a lazy set", setLen(set))
			}
			if got, want := r.Decide("a", tt.path), laid.Decide("a", tt.path); got != want {
				t.Errorf("Decide(a, %q) = %v from the rule lines, %v laid out", tt.path, got, want)
			}
			if n := testing.AllocsPerRun(5, func() { r.Allowed("a", tt.path) }); tt.short && n != 0 {
				t.Errorf("Allowed(a, %q) allocates %v times before the layout", tt.path, n)
			}
			if set.Inspect().Laid {
				t.Errorf("laid out after 7 questions")
			}
		})
	}
}
