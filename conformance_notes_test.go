package robots

import (
	"strings"
	"testing"

	"github.com/gorep/robots/internal/lines"
)

// Conformance with the project's notes on Google's reference parser
// (shared/spec/NOTES.md), item by item, each question asked of the
// package and of the slow model (conformance_test.go: query).

// TestNotes checks the behaviour items of the project's notes on the
// reference parser (shared/spec/NOTES.md), by item number.
func TestNotes(t *testing.T) {
	long := strings.Repeat("a", lines.MaxLineLen)
	runQueries(t, []query{
		// 1. The first 500 KiB only.
		{name: "notes/01-cap-kept", body: "user-agent: *\n" + strings.Repeat("#", MaxSize-len("user-agent: *\n")-len("disallow: /a\n")) + "\ndisallow: /a\n", agent: "a", url: "/a", want: false},
		{name: "notes/01-cap-cut", body: "user-agent: *\n" + strings.Repeat("#", MaxSize) + "\ndisallow: /a\n", agent: "a", url: "/a", want: true},
		{name: "notes/01-cap-mid-line", body: "user-agent: *\n" + strings.Repeat("#", MaxSize-len("user-agent: *\n")-len("disallow: /ab")) + "\ndisallow: /abc\n", agent: "a", url: "/ab", want: false},
		// 2. Byte order marks.
		{name: "notes/02-bom", body: "\xEF\xBB\xBFuser-agent: *\ndisallow: /a", agent: "a", url: "/a", want: false},
		{name: "notes/02-bom-partial-ef", body: "\xEFuser-agent: *\ndisallow: /a", agent: "a", url: "/a", want: false},
		{name: "notes/02-bom-partial-efbb", body: "\xEF\xBBuser-agent: *\ndisallow: /a", agent: "a", url: "/a", want: false},
		{name: "notes/02-bom-broken", body: "\xEF\x11\xBFuser-agent: *\ndisallow: /a", agent: "a", url: "/a", want: true},
		{name: "notes/02-bom-later-is-data", body: "user-agent: *\n\xEF\xBB\xBFdisallow: /a", agent: "a", url: "/a", want: true},
		{name: "notes/02-bom-twice", body: "\xEF\xBB\xBF\xEF\xBB\xBFuser-agent: *\ndisallow: /a", agent: "a", url: "/a", want: true},
		// 3. Line breaks.
		{name: "notes/03-cr", body: "user-agent: *\rdisallow: /a", agent: "a", url: "/a", want: false, line: 2},
		{name: "notes/03-crlf", body: "user-agent: *\r\ndisallow: /a", agent: "a", url: "/a", want: false, line: 2},
		{name: "notes/03-crcrlf-two-breaks", body: "user-agent: *\r\r\ndisallow: /a", agent: "a", url: "/a", want: false, line: 3},
		{name: "notes/03-lfcr-two-breaks", body: "user-agent: *\n\rdisallow: /a", agent: "a", url: "/a", want: false, line: 3},
		{name: "notes/03-vt-not-a-break", body: "user-agent: *\vdisallow: /a", agent: "a", url: "/a", want: true},
		{name: "notes/03-mixed", body: "user-agent: *\r\n\rdisallow: /a\ndisallow: /b", agent: "a", url: "/b", want: false, line: 4},
		// 5. Long lines are cut, and still used.
		{name: "notes/05-long-line-kept", body: "user-agent: *\ndisallow: /" + long, agent: "a", url: "/" + long[:lines.MaxLineLen-len("disallow: /")], want: false},
		{name: "notes/05-long-line-cut", body: "user-agent: *\ndisallow: /" + long + "$", agent: "a", url: "/" + long, want: false},
		{name: "notes/05-long-line-cut-anchor-lost", body: "user-agent: *\ndisallow: /" + long[:lines.MaxLineLen-len("disallow: /")] + "$", agent: "a", url: "/" + long, want: false},
		// 6. NUL ends a line.
		{name: "notes/06-nul", body: "user-agent: *\ndisallow: /a\x00bc", agent: "a", url: "/ax", want: false},
		{name: "notes/06-nul-key", body: "user-agent: *\ndisal\x00low: /a", agent: "a", url: "/a", want: true},
		// 7. Comments.
		{name: "notes/07-comment-in-value", body: "user-agent: *\ndisallow: /a#b", agent: "a", url: "/ax", want: false},
		{name: "notes/07-comment-line", body: "user-agent: *\n# disallow: /a", agent: "a", url: "/a", want: true},
		{name: "notes/07-comment-in-agent", body: "user-agent: foo#bar\ndisallow: /a", agent: "foo", url: "/a", want: false},
		// 8. ASCII whitespace only.
		{name: "notes/08-nbsp-is-data", body: "user-agent: *\ndisallow: /a\u00a0", agent: "a", url: "/a", want: true},
		{name: "notes/08-nbsp-escaped", body: "user-agent: *\ndisallow: /a\u00a0", agent: "a", url: "/a%C2%A0", want: false},
		{name: "notes/08-tabs-vt-ff", body: "\t user-agent \v:\f *\t\ndisallow\t:\t/a\t", agent: "a", url: "/a", want: false},
		// 9. Missing colon.
		{name: "lenient/missing-colon", body: "user-agent *\ndisallow /a", agent: "a", url: "/a", want: false},
		{name: "lenient/missing-colon-tab", body: "user-agent\t*\ndisallow\t\t/a", agent: "a", url: "/a", want: false},
		{name: "lenient/missing-colon-three-tokens", body: "user-agent: *\ndisallow /a /b", agent: "a", url: "/a", want: true},
		{name: "lenient/missing-colon-one-token", body: "user-agent: *\ndisallow/a", agent: "a", url: "/a", want: true},
		{name: "lenient/missing-colon-agent", body: "user-agent foo\ndisallow: /a", agent: "foo", url: "/a", want: false},
		// 10. Keys and values.
		{name: "notes/10-empty-key", body: "user-agent: *\n: /a", agent: "a", url: "/a", want: true},
		{name: "notes/10-colon-in-value", body: "user-agent: *\ndisallow: /a:b", agent: "a", url: "/a:bc", want: false},
		{name: "notes/10-colon-in-value-not-prefix", body: "user-agent: *\ndisallow: /a:b", agent: "a", url: "/a:", want: true},
		{name: "notes/10-inner-space", body: "user-agent: *\ndisallow: /a b", agent: "a", url: "/a b", want: false},
		// 11. Keys by prefix, with typos.
		{name: "lenient/typo-useragent", body: "useragent: *\ndisallow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-user-space-agent", body: "user agent: *\ndisallow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-dissallow", body: "user-agent: *\ndissallow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-dissalow", body: "user-agent: *\ndissalow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-disalow", body: "user-agent: *\ndisalow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-diasllow", body: "user-agent: *\ndiasllow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-disallaw", body: "user-agent: *\ndisallaw: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/typo-diaslow-not-accepted", body: "user-agent: *\ndiaslow: /a", agent: "a", url: "/a", want: true},
		{name: "lenient/prefix-disallowed", body: "user-agent: *\nDisallowed: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/prefix-allowed", body: "user-agent: *\ndisallow: /\nallowed: /a", agent: "a", url: "/a", want: true},
		{name: "lenient/prefix-user-agents", body: "user-agents: *\ndisallow: /a", agent: "a", url: "/a", want: false},
		{name: "lenient/no-allow-typo", body: "user-agent: *\ndisallow: /\nalow: /a", agent: "a", url: "/a", want: false},
		// 12–14. Escaping of patterns.
		{name: "notes/12-lower-hex-upper-cased", body: "user-agent: *\ndisallow: /a%2fb", agent: "a", url: "/a%2Fb", want: false},
		{name: "notes/12-url-hex-not-normalised", body: "user-agent: *\ndisallow: /a%2Fb", agent: "a", url: "/a%2fb", want: true},
		{name: "notes/12-bad-escape-literal", body: "user-agent: *\ndisallow: /a%zz", agent: "a", url: "/a%zz", want: false},
		{name: "notes/12-short-escape", body: "user-agent: *\ndisallow: /a%2", agent: "a", url: "/a%2", want: false},
		{name: "notes/13-utf8-escaped", body: "user-agent: *\ndisallow: /caf\u00e9", agent: "a", url: "/caf%C3%A9", want: false},
		{name: "notes/13-raw-url-not-escaped", body: "user-agent: *\ndisallow: /caf\u00e9", agent: "a", url: "/caf\u00e9", want: true},
		{name: "notes/13-invalid-utf8-escaped", body: "user-agent: *\ndisallow: /a\xff", agent: "a", url: "/a%FF", want: false},
		{name: "notes/14-no-decoding", body: "user-agent: *\ndisallow: /%62", agent: "a", url: "/b", want: true},
		{name: "notes/14-no-decoding-url", body: "user-agent: *\ndisallow: /b", agent: "a", url: "/%62", want: true},
		{name: "notes/14-space-literal", body: "user-agent: *\ndisallow: /a\"b<c", agent: "a", url: "/a\"b<c", want: false},
		// 15. User-agent values are not escaped.
		{name: "notes/15-agent-not-escaped", body: "user-agent: b\u00e9bot\ndisallow: /a", agent: "b", url: "/a", want: false},
		// 16–18. From URL to path.
		{name: "notes/16-double-slash-kept", body: "user-agent: *\ndisallow: /a/b", agent: "a", url: "https://x.com//a/b", want: true},
		{name: "notes/16-dot-segments-kept", body: "user-agent: *\ndisallow: /a", agent: "a", url: "https://x.com/b/../a", want: true},
		{name: "notes/17-no-scheme", body: "user-agent: *\ndisallow: /a", agent: "a", url: "example.com/a", want: false},
		{name: "notes/17-scheme-relative", body: "user-agent: *\ndisallow: /a", agent: "a", url: "//example.com/a", want: false},
		{name: "notes/18-fragment-dropped", body: "user-agent: *\ndisallow: /a$", agent: "a", url: "https://x.com/a#frag", want: false},
		{name: "notes/18-query-kept", body: "user-agent: *\ndisallow: /a$", agent: "a", url: "https://x.com/a?q", want: true},
		{name: "notes/18-query-only", body: "user-agent: *\ndisallow: /?", agent: "a", url: "https://x.com?q", want: false},
		{name: "notes/18-params", body: "user-agent: *\ndisallow: /;", agent: "a", url: "https://x.com;p", want: false},
		// 19. What ends a group.
		{name: "notes/19-blank-line-keeps-group", body: "user-agent: a\n\nuser-agent: b\ndisallow: /x", agent: "a", url: "/x", want: false},
		{name: "notes/19-comment-keeps-group", body: "user-agent: a\n# hi\nuser-agent: b\ndisallow: /x", agent: "a", url: "/x", want: false},
		{name: "notes/19-crawl-delay-keeps-group", body: "user-agent: a\ncrawl-delay: 5\nuser-agent: b\ndisallow: /x", agent: "a", url: "/x", want: false},
		{name: "notes/19-rule-ends-group", body: "user-agent: a\ndisallow: /y\nuser-agent: b\ndisallow: /x", agent: "a", url: "/x", want: true},
		{name: "notes/19-empty-rule-ends-group", body: "user-agent: a\ndisallow:\nuser-agent: b\ndisallow: /x", agent: "a", url: "/x", want: true},
		// 20. The global agent.
		{name: "notes/20-star-space", body: "user-agent: * foo\ndisallow: /x", agent: "a", url: "/x", want: false},
		{name: "notes/20-star-tab", body: "user-agent: *\tfoo\ndisallow: /x", agent: "a", url: "/x", want: false},
		{name: "notes/20-star-word-not-global", body: "user-agent: *foo\ndisallow: /x", agent: "a", url: "/x", want: true},
		// 21. Product tokens in the file.
		{name: "notes/21-mj12bot", body: "user-agent: MJ12bot\ndisallow: /x", agent: "MJ12bot", url: "/x", want: true},
		{name: "notes/21-mj12bot-is-mj", body: "user-agent: MJ12bot\ndisallow: /x", agent: "MJ", url: "/x", want: false},
		{name: "notes/21-two-words", body: "user-agent: Foo Bar\ndisallow: /x", agent: "Foo", url: "/x", want: false},
		{name: "notes/21-underscore", body: "user-agent: foo_bar-baz\ndisallow: /x", agent: "Foo_Bar-Baz", url: "/x", want: false},
		// 22. The caller's agent is compared as given.
		{name: "notes/22-caller-version", body: "user-agent: googlebot\ndisallow: /x\nuser-agent: *\ndisallow: /y", agent: "Googlebot/2.1", url: "/y", want: false, line: 4},
		{name: "notes/22-caller-version-not-specific", body: "user-agent: googlebot\ndisallow: /x\nuser-agent: *\ndisallow: /y", agent: "Googlebot/2.1", url: "/x", want: true},
		{name: "notes/22-caller-prefix-no-match", body: "user-agent: googlebot\ndisallow: /x", agent: "googlebot-news", url: "/x", want: true},
		// 23. Rules outside a group that concerns the caller.
		{name: "notes/23-rule-before-agent", body: "disallow: /x\nuser-agent: *\ndisallow: /y", agent: "a", url: "/x", want: true},
		{name: "notes/23-other-group", body: "user-agent: b\ndisallow: /x", agent: "a", url: "/x", want: true},
		// 24. Merging.
		{name: "notes/24-star-and-agent-is-specific", body: "user-agent: *\nuser-agent: a\ndisallow: /x\nuser-agent: *\ndisallow: /y", agent: "a", url: "/y", want: true},
		{name: "notes/24-star-and-agent-for-others", body: "user-agent: *\nuser-agent: a\ndisallow: /x\nuser-agent: *\ndisallow: /y", agent: "b", url: "/x", want: false},
		{name: "notes/24-star-groups-merge", body: "user-agent: *\ndisallow: /x\nuser-agent: b\ndisallow: /z\nuser-agent: *\ndisallow: /y", agent: "a", url: "/y", want: false},
		// 26. Matching.
		{name: "notes/26-dollar-in-middle-literal", body: "user-agent: *\ndisallow: /a$b", agent: "a", url: "/a$b", want: false},
		{name: "notes/26-dollar-in-middle-not-end", body: "user-agent: *\ndisallow: /a$b", agent: "a", url: "/a", want: true},
		{name: "notes/26-star-matches-slash-query", body: "user-agent: *\ndisallow: /a*z", agent: "a", url: "/a/b?c=z", want: false},
		{name: "notes/26-star-then-dollar", body: "user-agent: *\ndisallow: /a*$", agent: "a", url: "/abc", want: false},
		{name: "notes/26-no-leading-slash", body: "user-agent: *\ndisallow: a", agent: "a", url: "/a", want: true},
		{name: "notes/26-leading-star", body: "user-agent: *\ndisallow: *a", agent: "a", url: "/xa", want: false},
		{name: "notes/26-double-dollar", body: "user-agent: *\ndisallow: /a$$", agent: "a", url: "/a$", want: false},
		{name: "notes/26-dollar-only", body: "user-agent: *\ndisallow: $", agent: "a", url: "/", want: true},
		// 27. Priority is the escaped pattern's length, wildcards counted.
		{name: "notes/27-star-counts", body: "user-agent: *\nallow: /\ndisallow: /*", agent: "a", url: "/x", want: false, line: 3},
		{name: "notes/27-escaped-length", body: "user-agent: *\nallow: /\u00e9\ndisallow: /%C3%A9", agent: "a", url: "/%C3%A9", want: true, line: 2},
		{name: "notes/27-escaped-length-loses", body: "user-agent: *\nallow: /\u00e9\ndisallow: /%C3%A9*", agent: "a", url: "/%C3%A9", want: false, line: 3},
		{name: "notes/27-wildcard-longer-wins", body: "user-agent: *\nallow: /page\ndisallow: /*.htm", agent: "a", url: "/page.htm", want: false, line: 3},
		// 28. Empty pattern.
		{name: "notes/28-empty-never-decides", body: "user-agent: *\ndisallow:\nallow:", agent: "a", url: "/", want: true},
		// 29. Decision.
		{name: "notes/29-empty-specific-group", body: "user-agent: *\ndisallow: /\n\nuser-agent: a\n", agent: "a", url: "/x", want: true},
		{name: "notes/29-specific-no-match", body: "user-agent: a\ndisallow: /y\nuser-agent: *\ndisallow: /", agent: "a", url: "/x", want: true},
		{name: "notes/29-specific-only-empty-rules", body: "user-agent: a\ndisallow:\nuser-agent: *\ndisallow: /", agent: "a", url: "/x", want: true},
		{name: "notes/29-empty-file", body: "", agent: "a", url: "/x", want: true},
		// 30. Deciding line.
		{name: "notes/30-tie-reports-allow", body: "user-agent: *\ndisallow: /a\nallow: /a", agent: "a", url: "/a", want: true, line: 3},
		{name: "notes/30-earliest-line", body: "user-agent: *\ndisallow: /b\ndisallow: /a\ndisallow: /a", agent: "a", url: "/a", want: false, line: 3},
		{name: "notes/30-earliest-line-merged", body: "user-agent: a\ndisallow: /x*\nuser-agent: b\nuser-agent: a\ndisallow: /x*", agent: "a", url: "/x", want: false, line: 2},
		// 31. index.htm.
		{name: "notes/31-index-html", body: "user-agent: *\ndisallow: /\nallow: /d/index.html", agent: "a", url: "/d/", want: true, line: 3},
		{name: "notes/31-index-htm", body: "user-agent: *\ndisallow: /\nallow: /d/index.htm", agent: "a", url: "/d/", want: true, line: 3},
		{name: "notes/31-index-exact-only", body: "user-agent: *\ndisallow: /\nallow: /d/index.html", agent: "a", url: "/d/x", want: false},
		{name: "notes/31-index-priority", body: "user-agent: *\ndisallow: /d/\nallow: /d/index.html", agent: "a", url: "/d/", want: true, line: 3},
		{name: "notes/31-index-loses-to-longer", body: "user-agent: *\ndisallow: /d/$$\nallow: /d/index.html", agent: "a", url: "/d/", want: true, line: 3},
		{name: "notes/31-index-disallow-no-quirk", body: "user-agent: *\ndisallow: /d/index.html", agent: "a", url: "/d/", want: true},
		{name: "notes/31-root-index", body: "user-agent: *\ndisallow: /\nallow: /index.html", agent: "a", url: "/", want: true, line: 3},
		// Found by fuzzing: a pattern that grows when escaped, longer than
		// the rest of the file, was taken for a substring of it.
		{name: "fuzz/escaped-longer-than-body", body: "UserAgent 0\nDisAlow \xfb\xa4\xff\xcd\xd0\xd3\u0164\u034b\x8a", agent: "0", url: "/%FB%A4", want: true},
		{name: "fuzz/escaped-longer-than-body-match", body: "UserAgent a\nDisAlow \xfb\xa4\xff\xcd\xd0\xd3\u0164\u034b\x8a", agent: "a", url: "/%FB%A4%FF%CD%D0%D3%C5%A4%CD%8B%8A", want: true},
		// Several agents at once: the union of their groups.
		{name: "notes/25-not-union-single", body: "user-agent: googlebot-news\ndisallow: /n\nuser-agent: googlebot\ndisallow: /g", agent: "googlebot-news", url: "/g", want: true},
	})
}
