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
// (index.htm directories, repeated rules) and the anchor table.

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

// adversarialLayouts returns files built against the layout of large sets
// and the merging of groups, each with a path that passes the byte-set
// filters of its rules but matches none of them.
func adversarialLayouts() map[string][2]string {
	// Tails of bytes that no path below holds: two bytes, so that a
	// floating rule has no anchor but the one it shares, or three.
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!'(),-.:;@[]^_"
	pairs := func(f func(tail string)) {
		for _, c := range alphabet {
			for _, d := range alphabet {
				f(string(c) + string(d))
			}
		}
	}
	triples := func(f func(tail string)) {
		pairs(func(p string) {
			for _, e := range alphabet[:10] {
				f(p + string(e))
			}
		})
	}
	// Every byte residue modulo 16 but in lower case, so that the
	// byte-set filters (modulo 8 and 16) let every rule through.
	const residues = "pqrstuvwxyz{|}~o"
	var split strings.Builder // googlebot's records are those of "*", which merging spent its budget on
	for i := 0; split.Len() < MaxSize; i++ {
		fmt.Fprintf(&split, "user-agent: *\nuser-agent: googlebot\ndisallow: /p%d\n", i)
	}
	var large strings.Builder // the same, and googlebot's own record besides: each record a large set, asked one by one
	large.WriteString("user-agent: googlebot\ndisallow: /x\n")
	for large.Len() < MaxSize-1000 {
		large.WriteString("user-agent: *\nuser-agent: googlebot\n")
		for j := range 33 {
			fmt.Fprintf(&large, "disallow: /*x%02d\n", j)
		}
	}
	var run strings.Builder // one head, many wildcard tails
	run.WriteString("user-agent: googlebot\n")
	triples(func(p string) { fmt.Fprintf(&run, "disallow: /a*%s\n", p) })
	var bucket strings.Builder // floating rules that share their only anchor
	bucket.WriteString("user-agent: googlebot\n")
	pairs(func(p string) { fmt.Fprintf(&bucket, "disallow: *abc*%s\n", p) })
	var chain strings.Builder // heads that are prefixes of each other and of the path
	chain.WriteString("user-agent: googlebot\n")
	for k := 1; chain.Len() < MaxSize-2000; k++ {
		fmt.Fprintf(&chain, "disallow: /%s*ZY\n", strings.Repeat("a", k))
	}
	// Single-segment wildcard rules whose only gram rarer than "aaa" is
	// made common by decoys, so that they are filed by "aaa": each is
	// tried at every position of a path of "a"s, comparing its segment
	// up to the "b" it ends with.
	var retried strings.Builder
	retried.WriteString("user-agent: googlebot\n")
	for i := range 12000 {
		fmt.Fprintf(&retried, "disallow: *aab*%s\n", letters(i))
	}
	for k := range 64 {
		fmt.Fprintf(&retried, "disallow: /*%sb\n", strings.Repeat("a", 100+k))
	}
	return map[string][2]string{
		"anchor-retried-2k": {retried.String(), "/" + strings.Repeat("a", 2000)},
		"split-by-star":     {split.String(), "/q"},
		"split-large":       {large.String(), "/qx0x1"},
		"head-run":          {run.String(), "/a" + residues},
		"anchor-bucket":     {bucket.String(), "/abc" + residues},
		"anchor-bucket-8k":  {bucket.String(), "/abc" + strings.Repeat(residues, 512)},
		"head-chain":        {chain.String(), "/" + strings.Repeat("a", 1000) + residues},
	}
}

// TestDecideNoAllocs checks that Decide, like Allowed, allocates nothing
// once the sets it asks are laid out: merged, split and global groups of
// large sets, and to quote a rule whose pattern escaping changes, which is
// kept as written.
func TestDecideNoAllocs(t *testing.T) {
	r := Parse([]byte(layoutBody() + "user-agent: c\nallow: /caf\xc3\xa9\n"))
	paths := []string{"/p3/4x123yb", "/p1/1", "/x", "/caf%C3%A9/x", "https://example.com?q"}
	for _, agent := range []string{"a", "b", "c", "z"} {
		for _, p := range paths {
			for range ruleset.LayoutQuestions + 1 {
				r.Decide(agent, p) // lays the sets out
			}
			if n := testing.AllocsPerRun(50, func() { r.Decide(agent, p) }); n != 0 {
				t.Errorf("Decide(%q, %q) allocates %v times", agent, p, n)
			}
		}
	}
	if d := r.Decide("c", "/caf%C3%A9/x"); d.Rule.Pattern != "/caf\xc3\xa9" || !d.Allowed {
		t.Errorf("Decide(c, /caf%%C3%%A9/x) = %v, want allowed by Allow: /caf\\xc3\\xa9", d)
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
