package robots

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A seedFile is a file of testdata/realworld or testdata/golden.
type seedFile struct {
	name string // the file's path
	body []byte
}

// seedFiles returns the files of testdata/realworld and testdata/golden
// (the .txt ones) of up to maxBytes.
func seedFiles(tb testing.TB, maxBytes int) []seedFile {
	tb.Helper()
	files, _ := filepath.Glob("testdata/realworld/*")
	golden, _ := filepath.Glob("testdata/golden/*.txt")
	var seeds []seedFile
	for _, file := range append(files, golden...) {
		body, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		if len(body) <= maxBytes {
			seeds = append(seeds, seedFile{file, body})
		}
	}
	return seeds
}

// addSeeds adds the files of seedFiles of up to maxBytes to the seed
// corpus, each with the given extra arguments. Larger files are left out:
// the fuzzer spends its time minimising what it makes of them.
func addSeeds(f *testing.F, maxBytes int, extra ...any) {
	for _, seed := range seedFiles(f, maxBytes) {
		f.Add(append([]any{seed.body}, extra...)...)
	}
}

// probes returns url, a few fixed URLs, and URLs made from the file's own
// patterns, so that they match often: three per rule, until there are more
// than n.
func probes(r *Robots, url string, n int) []string {
	urls := []string{url, "/", "/robots.txt", "https://example.com?q"}
	fill := strings.NewReplacer("*", "x", "$", "")
	for _, rec := range r.Records() {
		for _, rule := range rec.Rules {
			p := fill.Replace(rule.Pattern)
			urls = append(urls, p, p+"/index.html", "https://example.com"+p+"?a=b#c")
			if len(urls) > n {
				return urls
			}
		}
	}
	return urls
}

// equalRecords reports whether a and b hold the same records.
func equalRecords(a, b []Record) bool {
	return slices.EqualFunc(a, b, func(x, y Record) bool {
		return slices.Equal(x.Agents, y.Agents) && slices.Equal(x.Rules, y.Rules)
	})
}

// rawSeed is a seed file of raw rules (escape.go): bytes outside ASCII,
// valid UTF-8 or not, lower-case escapes, escapes cut short, in prefix,
// exact, wildcard and index.htm rules.
const rawSeed = "user-agent: a\ndisallow: /\nallow: /\xe9/index.html\ndisallow: /*\xe2*%ff/\nallow: /caf\xc3\xa9\n" +
	"disallow: /%e2%82\nallow: /\xff%a\ndisallow: bcd\nallow: /*A\xff$\ndisallow: /a%E\n"

// FuzzParse checks that parsing any input terminates without panic, is
// deterministic, and ignores what follows the first MaxSize bytes.
func FuzzParse(f *testing.F) {
	addSeeds(f, 32<<10)
	f.Add([]byte(rawSeed))
	f.Fuzz(func(t *testing.T, body []byte) {
		r1, r2 := Parse(body), Parse(body)
		// cmp.Diff only to explain a difference: it is slow on large files.
		if a, b := r1.Records(), r2.Records(); !equalRecords(a, b) {
			t.Fatalf("Parse is not deterministic (-first +second):\n%s", cmp.Diff(a, b))
		}
		if len(body) > MaxSize {
			if a, b := r1.Records(), Parse(body[:MaxSize]).Records(); !equalRecords(a, b) {
				t.Fatalf("bytes after MaxSize changed the records (-all +capped):\n%s", cmp.Diff(a, b))
			}
		}
		// The values are kept as written, once: never more than the
		// input, so that their offsets fit a rule beside its raw bit.
		if n := int(r1.linesAt); n > min(len(body), MaxSize) || n >= 1<<ruleRawBit {
			t.Fatalf("the kept values are %d bytes, of %d input bytes", n, len(body))
		}
		// The value of each line as written, which Records must give back.
		values := map[int]string{}
		for _, l := range scanLinesSlow(string(body[:min(len(body), MaxSize)])) {
			values[l.N] = l.Value
		}
		for _, rec := range r1.Records() {
			for _, a := range rec.Agents {
				if a.Line < 1 || a.Token != "*" && strings.IndexFunc(a.Token, func(c rune) bool { return !isTokenChar(byte(c)) || c > 0x7f }) >= 0 {
					t.Fatalf("bad agent %+v", a)
				}
			}
			for _, w := range rec.Rules {
				if w.Pattern != values[w.Line] {
					t.Fatalf("rule of line %d has pattern %q, the line's value is %q", w.Line, w.Pattern, values[w.Line])
				}
			}
		}
	})
}

// FuzzAllowed checks the fast matcher against the slow model of Google's
// reference parser on a few questions per input (see checkAllowed and
// askFew), so that it runs thousands of inputs a second.
// TestAllowedMatchesSlowModel asks every question of askAll, and checks the
// 500 KiB cap, on the seeds and on generated files.
func FuzzAllowed(f *testing.F) {
	addSeeds(f, 4<<10, "Googlebot", "https://example.com/a/b?c=d")
	f.Add([]byte("user-agent: *\ndisallow: /*a*b$\nallow: /a/index.html"), "x", "/a/")
	f.Add([]byte(rawSeed), "a", "/%E9/")
	f.Add([]byte(rawSeed), "a", "/a%E2b%FF/")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		checkAllowed(t, body, agent, url, askFew)
	})
}

// FuzzDecide checks the rule Decide quotes, and its verdict, against
// bruteDecision on a few questions per input: URLs made from the file's
// own patterns, for the fuzzer's agent, Googlebot and the file's first.
func FuzzDecide(f *testing.F) {
	addSeeds(f, 4<<10, "Googlebot", "https://example.com/a/b?c=d")
	f.Add([]byte("user-agent: a\nallow: /d/index.html\ndisallow: /d/\nallow: /d/$\n"), "a", "/d/")
	f.Add([]byte(rawSeed), "a", "/caf%C3%A9")
	f.Add([]byte(rawSeed+strings.Repeat("disallow: /*x\xe2%e2y\n", 40)), "a", "/x%E2%E2y")
	// a's record is among those of "*", merged: its own set is read from
	// the line table (scanRecord).
	f.Add([]byte("user-agent: *\nuser-agent: a\nallow: /x/index.htm\ndisallow: /x*\n\nuser-agent: *\ndisallow: /\n"), "a", "/x/")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		if len(body) > 4<<10 {
			// bruteDecision reads the records for every path: on larger
			// bodies the fuzzer's minimisation of a new input stalls
			// (0 execs/s for tens of seconds). 4 KiB holds large sets.
			return
		}
		r := Parse(body)
		agents := []string{agent, "Googlebot"}
		if recs := r.Records(); len(recs) > 0 && len(recs[0].Agents) > 0 {
			agents = append(agents, recs[0].Agents[0].Token)
		}
		// "/robots.txt" is always allowed (robotsTxtPath), which
		// bruteDecision does not know.
		paths := slices.DeleteFunc(probes(r, url, 12), func(u string) bool { return slowPathOf(u) == robotsTxtPath })
		for _, a := range agents {
			checkDecisions(t, string(body), a, paths)
		}
	})
}
