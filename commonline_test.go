package robots

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots/internal/lines"
)

// A scanResult is what the parser's pass over the lines makes of a body:
// the kept text with its line table and index, and what it collected for
// resolve.
type scanResult struct {
	Text   string
	Rules  []lines.Line
	First  []int32
	Names  []naming
	Global []int32
	// MayMatch is Robots.mayMatch.
	MayMatch bool
}

// scanBody runs the parser's pass over body: Parse's loop, which reads
// most lines in one pass (lines.Scanner.Common), if fast, else the slow
// loop, which hands every line to handle; the records, rules and
// tokens are those the parser collects to make the groups (the tokens
// sorted, as resolve leaves them).
func scanBody(body string, fast bool) scanResult {
	p := parser{src: body, r: &Robots{}}
	if fast {
		p.parse()
	} else {
		p.scan(true)
		p.finish()
	}
	rs := p.rs
	return scanResult{p.r.text(), rs.rules, rs.first, rs.names, rs.global, p.r.mayMatch}
}

// equal reports whether r and o are the same: cheaper than cmp.Diff,
// which explains a difference.
func (r scanResult) equal(o scanResult) bool {
	return r.Text == o.Text && slices.Equal(r.Rules, o.Rules) &&
		slices.Equal(r.First, o.First) && slices.Equal(r.Names, o.Names) && slices.Equal(r.Global, o.Global) && r.MayMatch == o.MayMatch
}

// scanCommonCases are bodies at the edges of scanCommon: values that end
// at and around word boundaries, at the end of the body, at each byte
// that ends a line or its content, with whitespace around them, rules
// before any user-agent line, and lines at maxLineLen.
func scanCommonCases() map[string]string {
	cases := map[string]string{
		"no-agent":        "Disallow: /a\nAllow: /b\nUser-agent: *\nDisallow: /c\n",
		"blanks":          "User-agent: *\nDisallow:\t\v /a \f\t\nAllow:/b\nDisallow:   \nAllow:\v\n",
		"stops":           "User-agent: *\nDisallow: /a\x00b\nAllow: /c#d\nDisallow: /e\rAllow: /f\r\nDisallow: /g\x00#\n",
		"tabs-in-value":   "User-agent: *\nDisallow: /a\tb\t\tc\x0b\x0cd\x0ee\n",
		"keys-cased":      "User-agent: *\nDISALLOW: /a\nallow: /b\nDisAllow:/c\nALLOW:\n",
		"not-common":      "User-agent: *\n Disallow: /a\nDisallow : /b\nDisallowed: /c\nAllow /d\nAllowed: /e\n",
		"high-bytes":      "User-agent: *\nDisallow: /\xff\xfe\x80#\x80\nAllow: /é\n",
		"long-exact":      "User-agent: *\nDisallow: /" + strings.Repeat("a", lines.MaxLineLen-11) + "\nAllow: /b",
		"long-over":       "User-agent: *\nDisallow: /" + strings.Repeat("a", lines.MaxLineLen-10) + "\nAllow: /b",
		"long-comment":    "User-agent: *\nAllow: /" + strings.Repeat("a", lines.MaxLineLen) + "#x\nAllow: /b",
		"long-blanks":     "User-agent: *\nAllow:" + strings.Repeat(" ", lines.MaxLineLen) + "/a\nAllow: /b",
		"short-at-end":    "User-agent: *\nAllow:",
		"long-at-end":     "User-agent: *\nAllow: /" + strings.Repeat("a", lines.MaxLineLen-8),
		"long-over-end":   "User-agent: *\nAllow: /" + strings.Repeat("a", lines.MaxLineLen-7),
		"long-blanks-end": "User-agent: *\nAllow:" + strings.Repeat(" ", lines.MaxLineLen),
		"long-cr-comment": "User-agent: *\r#" + strings.Repeat("a", 3*lines.MaxLineLen) + "\rAllow: /b\r#c\rAllow: /d",
		"agent-then-rule": "User-agent: a\nDisallow: /x\nUser-agent: b\nUser-agent: a\nAllow: /y\n",
		"agents-reused":   "User-agent: a\nUser-agent: a \nUser-agent:a#x\nDisallow: /\nuser-agent: A\nUSER-AGENT: a\n",
		"agents-many":     strings.Repeat("User-agent: a\nUser-agent: b\nUser-agent: c\nUser-agent: d\nUser-agent: e\nUser-agent: f\nUser-agent: g\nUser-agent: h\nUser-agent: i\nDisallow: /x\n", 3),
		"agents-odd":      "User-agent:\nUser-agent: *\nUser-agent: * \nUser-agent: Googlebot/2.1 (+http://x)\nUser-agent:\tbot\x00y\nAllow: /\n",
		"agents-no-rules": "User-agent: a\nUser-agent: b",
		"sitemaps":        "Sitemap: https://x/s.xml\nSitemap:\nSitemap:   \nsitemap:https://y#z\nSITEMAP: /s\r\nUser-agent: *\nSitemap: /t\nDisallow: /\n",
	}
	for n := range 20 {
		v := "/" + strings.Repeat("v", n)
		name := "value-" + strconv.Itoa(n)
		cases[name+"-end"] = "User-agent: *\nDisallow: " + v
		cases[name+"-lf"] = "User-agent: *\nDisallow: " + v + "\nAllow: " + v + " \n"
		cases[name+"-crlf"] = "User-agent: *\r\nAllow:" + v + "\r\nDisallow: " + v + "\t#c\r\n"
		cases[name+"-agent"] = "User-agent: " + v[1:] + "\nSitemap: " + v + "\nUser-agent: " + v[1:]
	}
	return cases
}

// TestKeepLineMatchesHandle checks that Parse's loop makes of every body
// what handle alone makes of it.
func TestKeepLineMatchesHandle(t *testing.T) {
	bodies := scanCommonCases()
	for _, c := range scanCases {
		bodies["scan/"+c.name] = c.body
	}
	for name, body := range hostileFiles() {
		bodies["hostile/"+name] = body
	}
	for i, body := range realWorldBodies(t) {
		bodies["realworld/"+strconv.Itoa(i)] = string(body)
	}
	for name, body := range bodies {
		if want, got := scanBody(body, false), scanBody(body, true); !want.equal(got) {
			diff := cmp.Diff(want, got, cmp.AllowUnexported(naming{}))
			t.Errorf("%s: Parse's loop disagrees with handle (-want +got):\n%s", name, diff)
		}
	}
}

// FuzzKeepLine checks Parse's loop against handle alone on any input: a
// body of up to maxShortInput bytes with one of its bytes repeated up to maxRepeat
// times (longInput), so that lines over the longest line Google reads are
// made of short inputs.
func FuzzKeepLine(f *testing.F) {
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
		body := longInput(short, at, n)
		if want, got := scanBody(body, false), scanBody(body, true); !want.equal(got) {
			diff := cmp.Diff(want, got, cmp.AllowUnexported(naming{}))
			t.Fatalf("Parse's loop disagrees with handle (-want +got):\n%s", diff)
		}
	})
}
