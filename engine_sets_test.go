package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

// The engine's large sets asked through Parse: lazy sets (answered from
// their rule lines, then from compiled rules, then from a layout), layouts
// (repeated rules), the anchor table and the largest sets.

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
// at the path's last byte passes over, ruleset.LayoutQuestions scans are. The
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

// layoutBody returns a file of six records of 80 rules that name a (and,
// but the first, b; every other one, "*"), a fifth of them floating
// wildcard rules with longer anchors, a fifth with anchors of one byte.
func layoutBody() string {
	rng := rand.New(rand.NewPCG(8, 9))
	var b strings.Builder
	for rec := range 6 {
		b.WriteString("user-agent: a\n")
		if rec > 0 {
			b.WriteString("user-agent: b\n") // b's records differ from a's: past the merge budget
		}
		if rec%2 == 0 {
			b.WriteString("user-agent: *\n")
		}
		for i := range 80 {
			kind := []string{"allow", "disallow"}[rng.IntN(2)]
			switch i % 4 {
			case 0:
				fmt.Fprintf(&b, "%s: /*x%03d*y\n", kind, rng.IntN(500)) // floating, with anchors
			case 1:
				fmt.Fprintf(&b, "%s: /*%c\n", kind, 'a'+rng.IntN(26)) // floating, an anchor of one byte
			default:
				fmt.Fprintf(&b, "%s: /p%d/%d\n", kind, rng.IntN(20), rng.IntN(20))
			}
		}
	}
	return b.String()
}

// TestLayoutRepeats checks that a large set's layout asks each distinct
// rule once (splitRepeats): a file of the same long wildcard rule, written
// many times among others, answers as the slow model does, quotes the
// earliest line, and its layout holds the rule once among its live rules.
func TestLayoutRepeats(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	long := "/*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*zz"
	for i := range 100 {
		b.WriteString("disallow: " + long + "\n")      // lines 2, 4, ...
		b.WriteString("allow: /p" + letters(i) + "\n") // lines 3, 5, ...
	}
	body := b.String()
	r := Parse([]byte(body))
	for _, tt := range []struct {
		path string
		line int
	}{
		{"/" + strings.Repeat("a", 40) + "zz", 2},
		{"/pb", 5},
		{"/" + strings.Repeat("a", 40), 0},
	} {
		d := r.Decide("googlebot", tt.path)
		if d.Rule.Line != tt.line {
			t.Errorf("Decide(%q) = %v, want the rule of line %d", tt.path, d, tt.line)
		}
		if got, want := r.Allowed("googlebot", tt.path), slowAllowed([]byte(body), []string{"googlebot"}, tt.path); got != want {
			t.Errorf("Allowed(%q) = %t, the slow model says %t", tt.path, got, want)
		}
	}
	layOutAll(r)
	var g Group
	r.globalGroup(&g)
	if x := g.set.Inspect(); !x.Laid || x.Live != 101 || setLen(&g.set) != 200 {
		t.Errorf("layout of %d rules: %d live (laid out %t), want 101 live", setLen(&g.set), x.Live, x.Laid)
	}
}

// TestLargeSets checks the index of large rule sets (heads, and anchors of
// wildcard patterns with short heads) against the slow model, on random
// files over a small alphabet so that patterns and paths share much.
func TestLargeSets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const alphabet = "ab/*$?c."
	word := func(n int) string {
		b := make([]byte, rng.IntN(n)+1)
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	tables := 0
	for file := 0; file < 40; file++ {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		rules := 33 + rng.IntN(150)
		for i := 0; i < rules; i++ {
			kind := "disallow"
			if rng.IntN(2) == 0 {
				kind = "allow"
			}
			prefix := "/"
			switch rng.IntN(4) {
			case 0:
				prefix = "*"
			case 1:
				prefix = "/" + word(3)
			}
			body.WriteString(kind + ": " + prefix + word(6) + "\n")
		}
		data := []byte(body.String())
		r := Parse(data)
		for q := 0; q < 200; q++ {
			path := "/" + strings.ReplaceAll(word(12), "*", "x")
			if got, want := r.Allowed("a", path), slowAllowed(data, []string{"a"}, path); got != want {
				t.Fatalf("file %d: Allowed(%q) = %t, slow model says %t; file:\n%s", file, path, got, want, data)
			}
		}
		var g Group
		if r.globalGroup(&g); g.set.Inspect().Float > 0 {
			tables++
		}
	}
	if tables < 10 {
		t.Errorf("only %d files of 40 have an anchor table", tables)
	}
}

// TestFloatTableMatchesBruteForce checks the decisions of large sets whose
// wildcard rules are filed in an anchor table against brute force, on long
// paths over few bytes, where the anchors of rules occur many times, share
// buckets and fingerprints, and a segment stands at several places of the
// path, some before the end of the rule's head.
func TestFloatTableMatchesBruteForce(t *testing.T) {
	tests := []struct {
		name     string
		alphabet string
		segment  int // the longest segment of a pattern
		segments int // the most segments after the head
		head     int // the longest head after "/"
		dollar   bool
		pathLen  int
	}{
		{name: "single-segment/short", alphabet: "ab/c", segment: 4, segments: 1, head: 2, pathLen: 12},
		{name: "single-segment/long", alphabet: "ab/c", segment: 5, segments: 1, head: 3, pathLen: 400},
		{name: "single-byte", alphabet: "abcdefgh", segment: 1, segments: 1, head: 1, pathLen: 60},
		{name: "multi-segment", alphabet: "ab/c", segment: 3, segments: 3, head: 2, pathLen: 100},
		{name: "anchored", alphabet: "abc", segment: 3, segments: 2, head: 2, dollar: true, pathLen: 50},
		{name: "wide", alphabet: "abcdefghijklmnopqrstuvwxyz/.-ABC0123", segment: 6, segments: 2, head: 4, pathLen: 300},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(i)))
			word := func(n int) string {
				b := make([]byte, n)
				for i := range b {
					b[i] = tt.alphabet[rng.IntN(len(tt.alphabet))]
				}
				return string(b)
			}
			tables := 0
			for file := range sample(8, 3) {
				var body strings.Builder
				body.WriteString("user-agent: a\n")
				for range ruleset.MinFloating + rng.IntN(200) {
					p := "/" + word(rng.IntN(tt.head+1))
					for range 1 + rng.IntN(tt.segments) {
						p += "*" + word(1+rng.IntN(tt.segment))
					}
					if tt.dollar && rng.IntN(2) == 0 {
						p += "$"
					}
					fmt.Fprintf(&body, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], p)
				}
				var paths []string
				for range 40 {
					paths = append(paths, "/"+word(rng.IntN(tt.pathLen)))
				}
				checkDecisions(t, body.String(), "a", paths)
				if t.Failed() {
					t.Fatalf("file %d:\n%s", file, body.String())
				}
				r := Parse([]byte(body.String()))
				layOutAll(r)
				var g Group
				if r.group("a", &g); g.set.Inspect().Float > 0 {
					tables++
				}
			}
			if tables == 0 {
				t.Errorf("no file has an anchor table")
			}
		})
	}
}

// TestMaxLaid checks that the largest sets of files of MaxSize bytes, of
// the shortest rule lines that each compile to a rule, or to two, are
// laid out: fewer than ruleset.MaxLaid rules, whose links and bucket starts fit
// in 2 bytes.
func TestMaxLaid(t *testing.T) {
	for name, line := range map[string]func(b *strings.Builder, i int){
		"shortest":      func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:/%s\n", letters(i)) },
		"index-htm":     func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:/%s/index.htm\n", letters(i)) },
		"wildcard":      func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:*%s\n", letters(i)) },
		"index-htm-dir": func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:*%s/index.htm\n", letters(i)) },
	} {
		r := Parse([]byte(fillMaxSize("user-agent: *\n", line)))
		layOutAll(r)
		largest := 0
		for _, s := range largeSets(r) {
			n := len(s.CompileAside())
			largest = max(largest, n)
			if laid := s.Inspect().Laid; n >= ruleset.MaxLaid || !laid {
				t.Errorf("%s: a set of %d rules (%d lines), laid out %t, want fewer than %d", name, n, setLen(&s), laid, ruleset.MaxLaid)
			}
		}
		if largest < 20000 {
			t.Errorf("%s: the largest set has %d rules, want a file of MaxSize to make 20,000 or more", name, largest)
		}
	}
}
