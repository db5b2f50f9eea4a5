package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

// TestFirstQueriesRace asks a file of large sets (merged, split, global,
// with float and headed runs) from many goroutines at once, from
// their very first question, while others quote rules, copy groups and
// read MemSize: each answer must be the one a file asked by one goroutine
// gives, and (under -race) no reader may see a set's rules while its first
// question lays them out in place.
func TestFirstQueriesRace(t *testing.T) {
	body := []byte(layoutBody())
	rng := rand.New(rand.NewPCG(8, 10))
	var paths []string
	for range 200 {
		paths = append(paths, fmt.Sprintf("/p%d/%dx%03dy%c", rng.IntN(20), rng.IntN(20), rng.IntN(500), 'a'+rng.IntN(26)))
	}
	agents := []string{"a", "b", "z"}
	want := map[string]Decision{}
	ref := Parse(body)
	for _, a := range agents {
		for _, p := range paths {
			want[a+" "+p] = ref.Decide(a, p)
		}
	}
	for round := range 5 {
		r := Parse(body)
		var start, wg sync.WaitGroup
		start.Add(1)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				for i := range paths {
					p, a := paths[(i*7+g*31)%len(paths)], agents[(i+g)%len(agents)]
					if got := r.Decide(a, p); got != want[a+" "+p] {
						t.Errorf("round %d: Decide(%q, %q) = %v, want %v", round, a, p, got, want[a+" "+p])
						return
					}
					if g%2 == 0 {
						if got := r.Group(a).Allowed(p); got != want[a+" "+p].Allowed {
							t.Errorf("round %d: Group(%q).Allowed(%q) = %t", round, a, p, got)
						}
					}
					_ = r.MemSize()
				}
			}()
		}
		start.Done()
		wg.Wait()
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

// BenchmarkAdversarialLayouts measures a warm question, a parse, and a
// parse with its first question (which lays out the large sets it asks),
// on adversarialLayouts.
func BenchmarkAdversarialLayouts(b *testing.B) {
	for name, f := range adversarialLayouts() {
		body, path := []byte(f[0]), f[1]
		b.Run(name+"/query", func(b *testing.B) {
			r := Parse(body)
			if !r.Allowed("Googlebot", path) {
				b.Fatalf("Allowed(%q) = false: the path must match no rule", short(path))
			}
			b.ReportAllocs()
			for b.Loop() {
				r.Allowed("Googlebot", path)
			}
		})
		b.Run(name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(body)
			}
		})
		b.Run(name+"/parse+query", func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				Parse(body).Allowed("Googlebot", path)
			}
		})
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
