package robots

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gorep/robots/internal/corpus"
	"github.com/gorep/robots/internal/lines"
)

// Hostile inputs: files made to hurt a parser and matcher (hostileFiles,
// hostilePaths), the shapes that keep the most per byte (keptShapes) and
// those built against the layout of large sets (adversarialLayouts); and
// the bounds of memory and the answers Parse and Allowed keep on them.

// hostileFiles are inputs made to hurt a robots.txt parser and matcher:
// a map of its own at each call, of strings made once (makeHostileFiles
// takes a tenth of a second, and a dozen tests ask).
func hostileFiles() map[string]string { return maps.Clone(hostileOnce()) }

var hostileOnce = sync.OnceValue(makeHostileFiles)

// makeHostileFiles makes the files of hostileFiles.
func makeHostileFiles() map[string]string {
	var star strings.Builder // 500 KiB of "Disallow: /*a*a*a*...", lines at the length limit
	star.WriteString("user-agent: *\n")
	for star.Len() < MaxSize {
		star.WriteString("disallow: /")
		star.WriteString(strings.Repeat("*a", (lines.MaxLineLen-len("disallow: /"))/2))
		star.WriteString("\n")
	}
	var starRaw strings.Builder // the same, of a byte outside ASCII: raw rules, escaped as they are matched
	starRaw.WriteString("user-agent: *\n")
	for starRaw.Len() < MaxSize {
		starRaw.WriteString("disallow: /")
		starRaw.WriteString(strings.Repeat("*\xe9", (lines.MaxLineLen-len("disallow: /"))/2))
		starRaw.WriteString("\n")
	}
	var starShort strings.Builder // as many short distinct wildcard rules as fit
	starShort.WriteString("user-agent: *\n")
	for i := 0; starShort.Len() < MaxSize; i++ {
		starShort.WriteString("disallow: /*a*" + strconv.Itoa(i) + "*b\n")
	}
	var starRepeated strings.Builder // one 1 KB wildcard line as often as it fits whole: a large set (splitRepeats)
	starRepeated.WriteString("user-agent: *\n")
	for line := "disallow: /" + strings.Repeat("*a", 500) + "zz\n"; starRepeated.Len()+len(line) <= MaxSize; {
		starRepeated.WriteString(line)
	}
	var agents strings.Builder // a * group, then 100,000 user-agent lines, distinct tokens
	agents.WriteString("user-agent: *\ndisallow: /x\n")
	for i := 0; i < 100_000; i++ {
		agents.WriteString("user-agent: bot-" + letters(i) + "\n")
	}
	var rules strings.Builder // 100,000 rules in one group
	rules.WriteString("user-agent: *\n")
	for i := 0; i < 100_000; i++ {
		rules.WriteString(fmt.Sprintf("disallow: /p%06d\n", i))
	}
	var groups strings.Builder // many small groups, each naming its own agent
	for i := 0; groups.Len() < MaxSize; i++ {
		groups.WriteString("user-agent: b" + letters(i) + "\ndisallow: /p" + strconv.Itoa(i) + "\n")
	}
	var oneAgent strings.Builder // one agent named in thousands of groups, beside another
	for i := 0; oneAgent.Len() < MaxSize; i++ {
		oneAgent.WriteString("user-agent: googlebot\nuser-agent: b" + letters(i%50) + "\ndisallow: /p" + strconv.Itoa(i) + "\n")
	}
	var short, same strings.Builder // the shortest rule lines: distinct, and all alike
	short.WriteString("user-agent: *\n")
	same.WriteString("user-agent: *\n")
	for i := 0; short.Len() < MaxSize; i++ {
		short.WriteString("allow:/" + letters(i) + "\n")
		same.WriteString("allow:/\n")
	}
	var utf8 strings.Builder // rules of bytes that are not UTF-8, escaped to three times their size
	utf8.WriteString("user-agent: *\n")
	for i := 0; utf8.Len() < MaxSize; i++ {
		utf8.WriteString("disallow: /\xff\xfe\xfd" + strconv.Itoa(i) + "\xc0\xc1\n")
	}
	// Rules of bytes outside ASCII only, at the line limit, which escaping
	// makes three times their size; with a lower-case "%ff" in each; the
	// same in short lines, a large set; and short lines of lower-case
	// escapes, which escaping upper-cases. All are kept as written. And
	// allow rules of index.htm pages, each of which also allows its
	// directory (a second compiled rule).
	var utf8Long, utf8Lower, utf8Short, lowerShort, indexHTM strings.Builder
	utf8Long.WriteString("user-agent: *\n")
	utf8Lower.WriteString("user-agent: *\n")
	for i := 0; utf8Long.Len() < MaxSize; i++ {
		tag := "allow:/" + letters(i) + "/"
		utf8Long.WriteString(tag + strings.Repeat("\xff", lines.MaxLineLen-len(tag)) + "\n")
		utf8Lower.WriteString(tag + "%ff" + strings.Repeat("\xff", lines.MaxLineLen-len(tag)-3) + "\n")
	}
	utf8Short.WriteString("user-agent: *\n")
	lowerShort.WriteString("user-agent: *\n")
	for i := 0; utf8Short.Len() < MaxSize; i++ {
		utf8Short.WriteString("allow:/" + letters(i) + "/" + strings.Repeat("\xe2\x82\xac\xff", 3) + "\n")
		lowerShort.WriteString("disallow:/" + letters(i) + "/%e2%82%ac%ff\n")
	}
	indexHTM.WriteString("user-agent: *\n")
	for i := 0; indexHTM.Len() < MaxSize; i++ {
		indexHTM.WriteString("allow:/" + letters(i) + "/index.htm\n")
	}
	var sitemaps, agentsShort strings.Builder // the shortest sitemap and user-agent lines, distinct
	for i := 0; sitemaps.Len() < MaxSize; i++ {
		sitemaps.WriteString("sitemap:" + letters(i) + "\n")
	}
	for i := 0; agentsShort.Len() < MaxSize; i++ {
		agentsShort.WriteString("user-agent:" + letters(i) + "\n")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, MaxSize)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	return map[string]string{
		"wildcards-long":  star.String(),
		"wildcards-raw":   starRaw.String(),
		"wildcards-short": starShort.String(),
		"wildcards-rep":   starRepeated.String(),
		"agents-100k":     agents.String(),
		"rules-100k":      rules.String(),
		"one-line":        "user-agent: *\ndisallow: /" + strings.Repeat("a", MaxSize),
		"random":          string(random),
		"newlines":        strings.Repeat("\n", MaxSize),
		"groups-small":    groups.String(),
		"one-agent-many":  oneAgent.String(),
		"invalid-utf8":    utf8.String(),
		"cr-only":         strings.ReplaceAll(rules.String(), "\n", "\r"),
		"rules-short":     short.String(),
		"rules-same":      same.String(),
		"extras-short":    "user-agent: *\n" + strings.Repeat("a:b\n", MaxSize/4),
		"sitemaps-short":  sitemaps.String(),
		"agents-short":    agentsShort.String(),
		"utf8-long":       utf8Long.String(),
		"utf8-lower":      utf8Lower.String(),
		"utf8-short":      utf8Short.String(),
		"lower-short":     lowerShort.String(),
		"index-htm":       indexHTM.String(),
	}
}

// letters is corpus.Letters.
func letters(i int) string { return corpus.Letters(i) }

// hostilePaths are long paths that make naive wildcard matchers backtrack.
var hostilePaths = map[string]string{
	"short":  "/aab",
	"a-1k":   "/" + strings.Repeat("a", 1000),
	"ab-10k": "/" + strings.Repeat("ab", 5000),
	"a-100k": "/" + strings.Repeat("a", 100_000) + "b",
	"b-100k": "/" + strings.Repeat("b", 100_000),
}

// keptShapes are files of MaxSize bytes, beside hostileFiles, whose kept
// bytes per input byte issue 11 bounds by 1.5 once warm: shapes that
// compile a rule line more than once, or that keep more per line than a
// plain rule. Each call returns a map of its own, of strings made once.
func keptShapes() map[string]string { return maps.Clone(keptShapesOnce()) }

var keptShapesOnce = sync.OnceValue(makeKeptShapes)

// makeKeptShapes makes the files of keptShapes.
func makeKeptShapes() map[string]string {
	return map[string]string{
		// Each record's rules are compiled in the merged set of "*";
		// its own set, asked for its own token, reads its rule lines
		// from the line table up to scannedMax of them, else is
		// compiled and laid out on its own (once asked).
		"records-own-and-global":   recordsOf(32, ownAndGlobal),
		"records-own33-and-global": recordsOf(33, ownAndGlobal),
		"records-own65-and-global": recordsOf(scannedMax+1, ownAndGlobal),
		// googlebot's group and zz's, all its records but the first,
		// each compile every rule: the merge budget allows both.
		"records-split-lazy": recordsOf(33, func(i int) string {
			if i == 0 {
				return "user-agent:googlebot\n"
			}
			return "user-agent:googlebot\nuser-agent:zz\n"
		}),
		// An allow of an index.htm page under a wildcard directory
		// implies two rules a line (the page, and its directory with
		// "$"), both wildcard rules: a large set compiles one, which
		// stands for both (dirs.go, tryFolded).
		"index-htm-wildcard-dir": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:*%s/index.htm\n", letters(i))
		}),
		"raw-short": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:/\xe9%s\n", letters(i))
		}),
		"raw-wildcard-short": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:*\xe9%s\n", letters(i))
		}),
		"raw-index-htm": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:/%s\xe9/index.htm\n", letters(i))
		}),
	}
}

// fillMaxSize returns head followed by the lines that line writes for i =
// 0, 1, ..., cut at MaxSize bytes.
func fillMaxSize(head string, line func(b *strings.Builder, i int)) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < MaxSize; i++ {
		line(&b, i)
	}
	return b.String()[:MaxSize]
}

// recordsOf returns a file of MaxSize bytes of records of n short rules
// each, the ith named by the user-agent lines agents(i) returns.
func recordsOf(n int, agents func(i int) string) string {
	return fillMaxSize("", func(b *strings.Builder, i int) {
		b.WriteString(agents(i))
		for j := range n {
			fmt.Fprintf(b, "allow:/%s%s\n", letters(j), letters(i))
		}
	})
}

// ownAndGlobal names record i by "*" and by a token of its own.
func ownAndGlobal(i int) string { return "user-agent:*\nuser-agent:b" + letters(i) + "\n" }

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

// Bounds the hostile inputs must stay within, as multiples of the input
// size plus a constant for small inputs: the bytes Parse allocates in all,
// and the bytes the parsed file keeps.
const (
	maxParseAllocPerByte  = 12
	maxParseRetainPerByte = 3
	maxParseBytesConstant = 64 << 10
)

// TestHostileInputs checks that hostile inputs are parsed with bounded
// memory and answered without allocation, and that the answers agree with
// the slow model where it can run.
func TestHostileInputs(t *testing.T) {
	for name, body := range hostileFiles() {
		t.Run("hostile/"+name, func(t *testing.T) {
			data := []byte(body)
			var before, after, kept runtime.MemStats
			collect()
			runtime.ReadMemStats(&before)
			r := Parse(data)
			runtime.ReadMemStats(&after)
			collect()
			runtime.ReadMemStats(&kept)
			n := min(len(data), MaxSize)
			allocs := maxParseAllocPerByte
			if raceEnabled {
				// A race build allocates up to half as much again
				// (race_test.go); .ci/run also runs this test without
				// the race detector, to the bound.
				allocs += allocs / 2
			}
			if got, limit := after.TotalAlloc-before.TotalAlloc, uint64(allocs*n+maxParseBytesConstant); got > limit {
				t.Errorf("Parse allocated %d bytes for %d input bytes, limit %d", got, n, limit)
			}
			if got, limit := int64(kept.HeapAlloc)-int64(before.HeapAlloc), int64(maxParseRetainPerByte*n+maxParseBytesConstant); got > limit {
				t.Errorf("Parse kept %d bytes for %d input bytes, limit %d", got, n, limit)
			}
			for pname, path := range hostilePaths {
				for _, agent := range []string{"Googlebot", "bot-" + letters(99_999)} {
					var got bool
					warm(r, agent, path)
					if allocs := testing.AllocsPerRun(2, func() { got = r.Allowed(agent, path) }); allocs != 0 {
						t.Errorf("Allowed(%q, %s) allocates %v times", agent, pname, allocs)
					}
					// The slow model costs len(path) allocations per rule.
					if pname == "short" {
						if want := slowAllowed(data, []string{agent}, path); got != want {
							t.Errorf("Allowed(%q, %s) = %t, slow model says %t", agent, pname, got, want)
						}
					}
				}
			}
		})
	}
}

// TestHostileAnswers pins the answers for the hostile files, which the slow
// model is too slow to give for the largest.
func TestHostileAnswers(t *testing.T) {
	files := hostileFiles()
	tests := []struct {
		file, agent, path string
		want              bool
	}{
		{"wildcards-long", "a", hostilePaths["a-100k"], false}, // 8,326 "a"s fit in the path
		{"wildcards-long", "a", hostilePaths["a-1k"], true},    // too few "a"s
		{"wildcards-long", "a", hostilePaths["b-100k"], true},
		{"wildcards-short", "a", "/xa12b", false},
		{"wildcards-short", "a", "/xb", true},
		{"wildcards-rep", "a", "/" + strings.Repeat("a", 500) + "zz", false},
		{"wildcards-rep", "a", hostilePaths["a-1k"], true},
		{"wildcards-rep", "a", hostilePaths["b-100k"], true},
		{"agents-100k", "bot-" + letters(1000), "/x", true},    // named: an empty group
		{"agents-100k", "bot", "/x", false},                    // not named: the * group
		{"agents-100k", "bot-" + letters(99_999), "/x", false}, // named only past 500 KiB
		{"rules-100k", "a", "/p020000", false},                 // within the first 500 KiB
		{"rules-100k", "a", "/q057000", true},                  // past it
		{"rules-100k", "a", "/p057000", false},                 // the line cut at 500 KiB reads "disallow: /p"
		{"one-line", "a", "/" + strings.Repeat("a", lines.MaxLineLen), false},
		{"one-line", "a", "/" + strings.Repeat("a", 100), true},
	}
	for _, tt := range tests {
		r := Parse([]byte(files[tt.file]))
		if got := r.Allowed(tt.agent, tt.path); got != tt.want {
			t.Errorf("%s: Allowed(%q, %s) = %t, want %t", tt.file, tt.agent, short(tt.path), got, tt.want)
		}
	}
}
