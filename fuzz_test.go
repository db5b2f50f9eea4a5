package robots

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/internal/corpus"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// The root package's fuzz targets and their seeds.

// seedFiles returns the files of testdata/realworld and testdata/golden
// (the .txt ones) of up to maxBytes.
func seedFiles(tb testing.TB, maxBytes int) []corpus.SeedFile {
	tb.Helper()
	return corpus.SeedFiles(tb, ".", maxBytes)
}

// addSeeds adds the files of seedFiles of up to maxBytes to the seed
// corpus, each with the given extra arguments. Larger files are left out:
// the fuzzer spends its time minimising what it makes of them.
func addSeeds(f *testing.F, maxBytes int, extra ...any) {
	for _, seed := range seedFiles(f, maxBytes) {
		f.Add(append([]any{seed.Body}, extra...)...)
	}
}

// fuzzMaxBytes bounds the inputs of this package's fuzz targets: each
// returns at once on a larger one. Go's fuzzer minimises every input that
// reaches new code before it goes on (for -fuzzminimizetime, a minute by
// default), and the candidates it tries grow as the square of the input
// (internal/fuzz's minimizeBytes removes every run of bytes): each new
// input of a few KiB kept both workers minimising for the rest of the
// minute, about 40 executions a minute under plain go test -fuzz. A larger
// input reaches only the early return, no new code, so it is never
// minimised; the larger files are checked by the tests that ask them
// everything (TestAllowedMatchesSlowModel, TestParsedMatchesSlowModel, and
// lint's TestCheckFindingsRealWorld). 512 bytes hold 40 rules, more than ruleset.SmallSet and the
// other thresholds of the matcher.
const fuzzMaxBytes = 512

// tooLargeToFuzz reports whether the fuzz targets skip an input whose
// arguments are body and strs: over fuzzMaxBytes in all.
func tooLargeToFuzz(body []byte, strs ...string) bool {
	return fuzzSize(body, strs...) > fuzzMaxBytes
}

// fuzzSize returns the bytes of body and strs in all.
func fuzzSize(body []byte, strs ...string) int {
	n := len(body)
	for _, s := range strs {
		n += len(s)
	}
	return n
}

// maxShortInput bounds the short body of a longInput (FuzzScan,
// FuzzLongLines), and maxRepeat its repeated byte: a line a little over the
// longest that Google reads (maxLineLen). Each of their executions reads
// the long body, so that the short one is kept shorter than fuzzMaxBytes
// for minimising to stay brief.
const (
	maxShortInput = 128
	maxRepeat     = lines.MaxLineLen + 1024
)

// A longInput is a fuzz input for the targets that must see long lines
// (FuzzScan, FuzzLongLines) while the fuzzer minimises only short inputs:
// the body with its byte at at repeated n more times (n modulo maxRepeat+1,
// so that one execution stays cheap). at is taken modulo
// the length of the body; an empty body stays empty.
func longInput(body []byte, at, n uint16) string {
	if len(body) == 0 {
		return ""
	}
	i := int(at) % len(body)
	return string(body[:i+1]) + strings.Repeat(string(body[i:i+1]), int(n)%(maxRepeat+1)) + string(body[i+1:])
}

// shortInput returns the arguments of longInput that make s, its longest
// run of one byte cut to one byte, for seeds: s itself if no run is longer
// than 64 bytes or maxRepeat more.
func shortInput(s string) (body []byte, at, n uint16) {
	best, bestLen := 0, 0
	for i := 0; i < len(s); {
		j := i + 1
		for j < len(s) && s[j] == s[i] {
			j++
		}
		if j-i > bestLen {
			best, bestLen = i, j-i
		}
		i = j
	}
	if bestLen <= 64 || bestLen-1 > maxRepeat {
		return []byte(s), 0, 0
	}
	return []byte(s[:best+1] + s[best+bestLen:]), uint16(best), uint16(bestLen - 1)
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
	addSeeds(f, fuzzMaxBytes/2)
	f.Add([]byte(rawSeed))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > fuzzMaxBytes/2 {
			return // see fuzzMaxBytes: at 512 bytes, a minimisation held both workers for 3 s under load (issue 33)
		}
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
		if n := int(r1.linesAt()); n > min(len(body), MaxSize) || n >= ruleset.MaxText {
			t.Fatalf("the kept values are %d bytes, of %d input bytes", n, len(body))
		}
		// The value of each line as written, which Records must give back.
		values := map[int]string{}
		for _, l := range scanLinesSlow(string(body[:min(len(body), MaxSize)])) {
			values[l.N] = l.Value
		}
		for _, rec := range r1.Records() {
			for _, a := range rec.Agents {
				if a.Line < 1 || a.Token != "*" && strings.IndexFunc(a.Token, func(c rune) bool { return !lines.IsTokenChar(byte(c)) || c > 0x7f }) >= 0 {
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
	addSeeds(f, fuzzMaxBytes-64, "Googlebot", "https://example.com/a/b?c=d")
	f.Add([]byte("user-agent: *\ndisallow: /*a*b$\nallow: /a/index.html"), "x", "/a/")
	f.Add([]byte(rawSeed), "a", "/%E9/")
	f.Add([]byte(rawSeed), "a", "/a%E2b%FF/")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		if tooLargeToFuzz(body, agent, url) {
			return
		}
		checkAllowed(t, body, agent, url, askFew)
	})
}

// FuzzDecide checks the rule Decide quotes, and its verdict, against
// bruteDecision on a few questions per input: URLs made from the file's
// own patterns, for the fuzzer's agent, Googlebot and the file's first.
func FuzzDecide(f *testing.F) {
	addSeeds(f, fuzzMaxBytes/4-40, "Googlebot", "https://example.com/a/b?c=d")
	f.Add([]byte("user-agent: a\nallow: /d/index.html\ndisallow: /d/\nallow: /d/$\n"), "a", "/d/")
	f.Add([]byte(rawSeed), "a", "/caf%C3%A9")
	f.Add([]byte(rawSeed+strings.Repeat("disallow:*x\xe2%e2y\n", 5)), "a", "/x%E2%E2y")
	// a's record is among those of "*", merged: its own set is read from
	// the line table (scanRecord).
	f.Add([]byte("user-agent: *\nuser-agent: a\nallow: /x/index.htm\ndisallow: /x*\n\nuser-agent: *\ndisallow: /\n"), "a", "/x/")
	f.Fuzz(func(t *testing.T, body []byte, agent, url string) {
		if fuzzSize(body, agent, url) > fuzzMaxBytes/4 {
			// See fuzzMaxBytes; bruteDecision reads the records for every
			// path: at 256 bytes, a minimisation held both workers near 0
			// executions a second for 3 s under load (issue 33).
			return
		}
		r := Parse(body)
		agents := []string{agent, "Googlebot"}
		if recs := r.Records(); len(recs) > 0 && len(recs[0].Agents) > 0 {
			agents = append(agents, recs[0].Agents[0].Token)
		}
		// "/robots.txt" is always allowed (robotsTxtPath), which
		// bruteDecision does not know.
		paths := slices.DeleteFunc(probes(r, url, 8), func(u string) bool { return slowPathOf(u) == robotsTxtPath })
		for _, a := range agents {
			checkDecisions(t, string(body), a, paths)
		}
	})
}

// FuzzPreferences checks that Preferences never panics and never changes
// what Allowed answers.
func FuzzPreferences(f *testing.F) {
	f.Add([]byte(attachExample), "/ai-ok/x")
	f.Add([]byte(contentSignalsExample), "/")
	f.Add([]byte("user-agent: *\ncontent-usage: /a* a=(b;c=\"d\\\"\");e\ncontent-signal: ,=,\n"), "/a")
	f.Fuzz(func(t *testing.T, body []byte, url string) {
		if tooLargeToFuzz(body, url) {
			return // see fuzzMaxBytes
		}
		r := Parse(body)
		p := r.Preferences("a", url)
		if p.Allowed != r.Allowed("a", url) {
			t.Fatalf("Preferences(%q).Allowed = %t, Allowed = %t", url, p.Allowed, !p.Allowed)
		}
	})
}

// FuzzURL checks that the robots.txt URL of any page is a fixed point of URL
// and governs that page.
func FuzzURL(f *testing.F) {
	for _, tt := range googleLocationTests {
		f.Add(tt.robotsURL)
		for _, page := range append(tt.valid, tt.invalid...) {
			f.Add(page)
		}
	}
	f.Add("http://[fe80::1%25en0]:0080/a?b#c")
	f.Fuzz(func(t *testing.T, page string) {
		if len(page) > 512 {
			return // as fuzzMaxBytes of the package's other targets: minimising long inputs stalls the fuzzer
		}
		u, err := URL(page)
		if err != nil {
			return
		}
		again, err := URL(u)
		if err != nil || again != u {
			t.Errorf("URL(%q) = %q, but URL(%q) = %q, %v", page, u, u, again, err)
		}
		if !Governs(u, page) {
			t.Errorf("URL(%q) = %q, but Governs(%q, %q) = false", page, u, u, page)
		}
	})
}

// FuzzScan checks the scanner against scanLinesSlow on any input: a body
// of up to maxShortInput bytes with one of its bytes repeated up to maxRepeat times
// (longInput), as FuzzLongLines.
func FuzzScan(f *testing.F) {
	for _, c := range scanCases {
		short, at, n := shortInput(c.body)
		if longInput(short, at, n) != c.body {
			f.Fatalf("shortInput(%.40q...) does not give it back", c.body)
		}
		f.Add(short, at, n)
	}
	f.Fuzz(func(t *testing.T, short []byte, at, n uint16) {
		if len(short) > maxShortInput {
			return // see fuzzMaxBytes
		}
		body := longInput(short, at, n)
		if want, got := scanLinesSlow(body), scanLines(body); !slices.Equal(want, got) {
			diff := cmp.Diff(want, got)
			t.Fatalf("scanner disagrees with the reference (-want +got):\n%s", diff)
		}
	})
}

// FuzzLongLines checks Parse against the slow model (checkAllowed) on any
// input with a long line: a body of up to maxShortInput bytes with one of
// its bytes repeated up to maxRepeat times (longInput), so that lines over
// the longest line Google reads are made of short inputs. Its seeds are
// scanCommonCases, the edges of the lines Parse reads as it scans them
// (lines.Scanner.Common). It replaces FuzzKeepLine, which held Parse's
// loop to the parser's line-by-line path, both ours.
func FuzzLongLines(f *testing.F) {
	for _, body := range scanCommonCases() {
		short, at, n := shortInput(body)
		if longInput(short, at, n) != body {
			f.Fatalf("shortInput(%.40q...) does not give it back", body)
		}
		f.Add(short, at, n)
	}
	f.Fuzz(func(t *testing.T, short []byte, at, n uint16) {
		if len(short) > maxShortInput {
			return // see fuzzMaxBytes
		}
		checkAllowed(t, []byte(longInput(short, at, n)), "a", "/v", askLong)
	})
}
