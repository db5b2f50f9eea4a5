package robots

import (
	"strings"
	"testing"
)

// A query is one question to a robots.txt file and the expected answer.
type query struct {
	name  string
	body  string
	agent string
	url   string
	want  bool
	// line, when not zero, is the line of the deciding rule.
	line int
}

// check asks q of both the fast matcher and the slow model.
func (q query) check(t *testing.T) {
	t.Helper()
	r := Parse([]byte(q.body))
	if got := r.Allowed(q.agent, q.url); got != q.want {
		t.Errorf("Allowed(%q, %q) = %t, want %t; decision: %v", q.agent, short(q.url), got, q.want, r.Decide(q.agent, q.url))
	}
	if got := slowAllowed([]byte(q.body), []string{q.agent}, q.url); got != q.want {
		t.Errorf("slowAllowed(%q, %q) = %t, want %t", q.agent, short(q.url), got, q.want)
	}
	if g := r.Group(q.agent); g.Allowed(q.url) != q.want {
		t.Errorf("Group(%q).Allowed(%q) = %t, want %t", q.agent, short(q.url), !q.want, q.want)
	}
	if q.line != 0 {
		d := r.Decide(q.agent, q.url)
		if d.Reason != ReasonRule || d.Rule.Line != q.line {
			t.Errorf("Decide(%q, %q) = %v, want the rule of line %d", q.agent, short(q.url), d, q.line)
		}
	}
}

// short cuts s for error messages.
func short(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-20:]
	}
	return s
}

func runQueries(t *testing.T, qs []query) {
	t.Helper()
	for _, q := range qs {
		t.Run(q.name, q.check)
	}
}

// googleExample is the example file at the top of Google's page.
const googleExample = `# This robots.txt file controls crawling of URLs under https://example.com.
# All crawlers are disallowed to crawl files in the "includes" directory, such
# as .css, .js, but Google needs them for rendering, so Googlebot is allowed
# to crawl them.
User-agent: *
Disallow: /includes/

User-agent: Googlebot
Allow: /includes/

Sitemap: https://example.com/sitemap.xml
`

func TestGoogleExamples(t *testing.T) {
	runQueries(t, []query{
		{name: "google/example/googlebot-includes", body: googleExample, agent: "Googlebot", url: "https://example.com/includes/a.js", want: true, line: 9},
		{name: "google/example/other-includes", body: googleExample, agent: "OtherBot", url: "https://example.com/includes/a.js", want: false, line: 6},
		{name: "google/example/other-root", body: googleExample, agent: "OtherBot", url: "https://example.com/", want: true},

		// Situations 1–6 of "Order of precedence for rules".
		{name: "google/situation-1", body: "user-agent: *\nallow: /p\ndisallow: /", agent: "Googlebot", url: "https://example.com/page", want: true, line: 2},
		{name: "google/situation-2", body: "user-agent: *\nallow: /folder\ndisallow: /folder", agent: "Googlebot", url: "https://example.com/folder/page", want: true, line: 2},
		{name: "google/situation-3", body: "user-agent: *\nallow: /page\ndisallow: /*.htm", agent: "Googlebot", url: "https://example.com/page.htm", want: false, line: 3},
		{name: "google/situation-4", body: "user-agent: *\nallow: /page\ndisallow: /*.ph", agent: "Googlebot", url: "https://example.com/page.php5", want: true, line: 2},
		{name: "google/situation-5", body: "user-agent: *\nallow: /$\ndisallow: /", agent: "Googlebot", url: "https://example.com/", want: true, line: 2},
		{name: "google/situation-6", body: "user-agent: *\nallow: /$\ndisallow: /", agent: "Googlebot", url: "https://example.com/page.htm", want: false, line: 3},

		// "Grouping of lines and rules".
		{name: "google/grouping/a", body: googleGrouping, agent: "a", url: "/c", want: false, line: 2},
		{name: "google/grouping/a-other", body: googleGrouping, agent: "a", url: "/d", want: true},
		{name: "google/grouping/b", body: googleGrouping, agent: "b", url: "/d", want: false, line: 5},
		{name: "google/grouping/e", body: googleGrouping, agent: "e", url: "/g", want: false, line: 9},
		{name: "google/grouping/f", body: googleGrouping, agent: "f", url: "/g", want: false, line: 9},
		{name: "google/grouping/h-empty", body: googleGrouping, agent: "h", url: "/c", want: true},

		// "Matching of user-agent fields".
		{name: "google/ua-precedence/googlebot-news", body: googleUAPrecedence, agent: "googlebot-news", url: "/g1", want: false, line: 2},
		{name: "google/ua-precedence/googlebot-news-not-3", body: googleUAPrecedence, agent: "googlebot-news", url: "/g3", want: true},
		{name: "google/ua-precedence/googlebot", body: googleUAPrecedence, agent: "googlebot", url: "/g3", want: false, line: 8},
		{name: "google/ua-precedence/googlebot-not-2", body: googleUAPrecedence, agent: "googlebot", url: "/g2", want: true},
		{name: "google/ua-precedence/storebot", body: googleUAPrecedence, agent: "Storebot-Google", url: "/g2", want: false, line: 5},
		{name: "google/ua-precedence/otherbot", body: googleUAPrecedence, agent: "Otherbot", url: "/g2", want: false, line: 5},
		{name: "google/ua-precedence/otherbot-not-1", body: googleUAPrecedence, agent: "Otherbot", url: "/g1", want: true},
		{name: "google/ua-precedence/case-insensitive", body: googleUAPrecedence, agent: "GoogleBot", url: "/g3", want: false, line: 8},

		// "Grouping of rules": groups for one agent merge; * stays apart.
		{name: "google/merge/fish", body: googleMerge, agent: "googlebot-news", url: "/fish", want: false, line: 2},
		{name: "google/merge/shrimp", body: googleMerge, agent: "googlebot-news", url: "/shrimp", want: false, line: 8},
		{name: "google/merge/carrots-not-combined", body: googleMerge, agent: "googlebot-news", url: "/carrots", want: true},
		{name: "google/merge/star-carrots", body: googleMerge, agent: "otherbot", url: "/carrots", want: false, line: 5},

		// A sitemap line does not end a group.
		{name: "google/sitemap-in-group/a", body: "user-agent: a\nsitemap: https://example.com/sitemap.xml\n\nuser-agent: b\ndisallow: /\n", agent: "a", url: "/x", want: false, line: 5},
		{name: "google/sitemap-in-group/b", body: "user-agent: a\nsitemap: https://example.com/sitemap.xml\n\nuser-agent: b\ndisallow: /\n", agent: "b", url: "/x", want: false, line: 5},

		// "Order of precedence for user agents": non-matching text is ignored.
		{name: "google/ua-version-ignored", body: "user-agent: googlebot/1.2\ndisallow: /x", agent: "googlebot", url: "/x", want: false},
		{name: "google/ua-star-suffix-ignored", body: "user-agent: googlebot*\ndisallow: /x", agent: "googlebot", url: "/x", want: false},

		// "Syntax": rules without a path are ignored; values are case-sensitive.
		{name: "google/empty-disallow", body: "user-agent: *\ndisallow:\n", agent: "a", url: "/x", want: true},
		{name: "google/empty-allow", body: "user-agent: *\nallow:\ndisallow: /", agent: "a", url: "/x", want: false},
		{name: "google/value-case-sensitive", body: "user-agent: *\ndisallow: /Fish", agent: "a", url: "/fish", want: true},
		{name: "google/key-case-insensitive", body: "USER-AGENT: *\nDISALLOW: /fish", agent: "a", url: "/fish", want: false},
		{name: "google/ua-value-case-insensitive", body: "user-agent: GOOGLEBOT\ndisallow: /fish", agent: "googlebot", url: "/fish", want: false},
	})
}

const googleGrouping = `user-agent: a
disallow: /c

user-agent: b
disallow: /d

user-agent: e
user-agent: f
disallow: /g

user-agent: h
`

const googleUAPrecedence = `user-agent: googlebot-news
disallow: /g1

user-agent: *
disallow: /g2

user-agent: googlebot
disallow: /g3
`

const googleMerge = `user-agent: googlebot-news
disallow: /fish

user-agent: *
disallow: /carrots

user-agent: googlebot-news
disallow: /shrimp
`

// TestGooglePathTable checks each row of the table "Example path matches".
func TestGooglePathTable(t *testing.T) {
	fishMatches := []string{"/fish", "/fish.html", "/fish/salmon.html", "/fishheads", "/fishheads/yummy.html", "/fish.php?id=anything"}
	fishNot := []string{"/Fish.asp", "/catfish", "/?id=fish", "/desert/fish"}
	table := []struct {
		pattern      string
		matches, not []string
	}{
		{"/", []string{"/", "/a", "/a/b?c"}, nil},
		{"/*", []string{"/", "/a", "/a/b?c"}, nil},
		{"/$", []string{"/"}, []string{"/a", "/?q"}},
		{"/fish", fishMatches, fishNot},
		{"/fish*", fishMatches, fishNot},
		{"/fish/", []string{"/fish/", "/fish/?id=anything", "/fish/salmon.htm"}, []string{"/fish", "/fish.html", "/animals/fish/", "/Fish/Salmon.asp"}},
		{"/*.php", []string{"/index.php", "/filename.php", "/folder/filename.php", "/folder/filename.php?parameters", "/folder/any.php.file.html", "/filename.php/"}, []string{"/", "/windows.PHP"}},
		{"/*.php$", []string{"/filename.php", "/folder/filename.php"}, []string{"/filename.php?parameters", "/filename.php/", "/filename.php5", "/windows.PHP"}},
		{"/fish*.php", []string{"/fish.php", "/fishheads/catfish.php?parameters"}, []string{"/Fish.PHP"}},
	}
	var qs []query
	for _, row := range table {
		body := "user-agent: *\ndisallow: " + row.pattern + "\n"
		for _, p := range row.matches {
			qs = append(qs, query{name: "google/path/" + row.pattern + "/matches" + p, body: body, agent: "a", url: "https://example.com" + p, want: false, line: 2})
		}
		for _, p := range row.not {
			qs = append(qs, query{name: "google/path/" + row.pattern + "/not" + p, body: body, agent: "a", url: "https://example.com" + p, want: true})
		}
	}
	runQueries(t, qs)
}

// rfcExample is the example of RFC 9309, section 5.1.
const rfcExample = `User-Agent: *
Disallow: *.gif$
Disallow: /example/
Allow: /publications/

User-Agent: foobot
Disallow:/
Allow:/example/page.html
Allow:/example/allowed.gif

User-Agent: barbot
User-Agent: bazbot
Disallow: /example/page.html

User-Agent: quxbot

EOF
`

func TestRFC9309(t *testing.T) {
	runQueries(t, []query{
		{name: "rfc9309/example/star-gif", body: rfcExample, agent: "x", url: "/a.gif", want: false, line: 2},
		{name: "rfc9309/example/star-gif-query", body: rfcExample, agent: "x", url: "/a.gif?x", want: true},
		{name: "rfc9309/example/star-example", body: rfcExample, agent: "x", url: "/example/a", want: false, line: 3},
		{name: "rfc9309/example/star-publications", body: rfcExample, agent: "x", url: "/publications/a", want: true, line: 4},
		{name: "rfc9309/example/foobot-root", body: rfcExample, agent: "foobot", url: "/", want: false, line: 7},
		{name: "rfc9309/example/foobot-page", body: rfcExample, agent: "foobot", url: "/example/page.html", want: true, line: 8},
		{name: "rfc9309/example/foobot-gif", body: rfcExample, agent: "foobot", url: "/example/allowed.gif", want: true, line: 9},
		{name: "rfc9309/example/barbot", body: rfcExample, agent: "barbot", url: "/example/page.html", want: false, line: 13},
		{name: "rfc9309/example/bazbot", body: rfcExample, agent: "bazbot", url: "/example/page.html", want: false, line: 13},
		{name: "rfc9309/example/bazbot-other", body: rfcExample, agent: "bazbot", url: "/example/", want: true},
		{name: "rfc9309/example/quxbot-empty", body: rfcExample, agent: "quxbot", url: "/example/a", want: true},
		{name: "rfc9309/longest-match", body: "user-agent: *\nallow: /example/page/\ndisallow: /example/page/disallowed.gif", agent: "a", url: "/example/page/disallowed.gif", want: false, line: 3},
		{name: "rfc9309/longest-match-allow", body: "user-agent: *\nallow: /example/page/\ndisallow: /example/page/disallowed.gif", agent: "a", url: "/example/page/x.gif", want: true, line: 2},
		{name: "rfc9309/equal-allow-wins", body: "user-agent: *\ndisallow: /a\nallow: /a", agent: "a", url: "/a", want: true, line: 3},
		{name: "rfc9309/encoded-query", body: "user-agent: *\ndisallow: /foo/bar?baz=https%3A%2F%2Ffoo.bar", agent: "a", url: "/foo/bar?baz=https%3A%2F%2Ffoo.bar", want: false},
		{name: "rfc9309/utf8-pattern", body: "user-agent: *\ndisallow: /foo/bar/\u30c4", agent: "a", url: "/foo/bar/%E3%83%84", want: false},
		{name: "rfc9309/escaped-pattern", body: "user-agent: *\ndisallow: /foo/bar/%E3%83%84", agent: "a", url: "/foo/bar/%E3%83%84", want: false},
		{name: "rfc9309/robots-txt-always-allowed", body: "user-agent: *\ndisallow: /", agent: "a", url: "https://example.com/robots.txt", want: true},
		{name: "rfc9309/robots-txt-query-not-special", body: "user-agent: *\ndisallow: /", agent: "a", url: "https://example.com/robots.txt?x", want: false},
		{name: "rfc9309/no-group", body: "user-agent: a\ndisallow: /", agent: "b", url: "/x", want: true},
	})
}

// TestNotes checks the behaviour items of the project's notes on the
// reference parser (shared/spec/NOTES.md), by item number.
func TestNotes(t *testing.T) {
	long := strings.Repeat("a", maxLineLen)
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
		{name: "notes/05-long-line-kept", body: "user-agent: *\ndisallow: /" + long, agent: "a", url: "/" + long[:maxLineLen-len("disallow: /")], want: false},
		{name: "notes/05-long-line-cut", body: "user-agent: *\ndisallow: /" + long + "$", agent: "a", url: "/" + long, want: false},
		{name: "notes/05-long-line-cut-anchor-lost", body: "user-agent: *\ndisallow: /" + long[:maxLineLen-len("disallow: /")] + "$", agent: "a", url: "/" + long, want: false},
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

func TestMultipleAgents(t *testing.T) {
	body := "user-agent: googlebot-news\ndisallow: /n\nallow: /g/x\nuser-agent: googlebot\ndisallow: /g\nuser-agent: *\ndisallow: /s"
	r := Parse([]byte(body))
	tests := []struct {
		name   string
		agents []string
		url    string
		want   bool
	}{
		{"notes/25-union-first", []string{"googlebot-news", "googlebot"}, "/n", false},
		{"notes/25-union-second", []string{"googlebot-news", "googlebot"}, "/g", false},
		{"notes/25-union-longest-across", []string{"googlebot-news", "googlebot"}, "/g/x", true},
		{"notes/25-union-not-star", []string{"googlebot-news", "googlebot"}, "/s", true},
		{"notes/25-none-named", []string{"a", "b"}, "/s", false},
		{"notes/25-one-named", []string{"a", "GOOGLEBOT"}, "/g", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Group(tt.agents...).Allowed(tt.url); got != tt.want {
				t.Errorf("Group(%q).Allowed(%q) = %t, want %t", tt.agents, tt.url, got, tt.want)
			}
			if got := slowAllowed([]byte(body), tt.agents, tt.url); got != tt.want {
				t.Errorf("slowAllowed(%q, %q) = %t, want %t", tt.agents, tt.url, got, tt.want)
			}
		})
	}
}

// pathOf returns the part of url that rules are matched against, as one
// string.
func pathOf(url string) string {
	path, slash := splitPath(url)
	if slash {
		return "/" + path
	}
	return path
}

func TestPathOf(t *testing.T) {
	tests := []struct{ url, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"//a/b/c", "/b/c"},
		{"http://x.com?q", "/?q"},
		{"http://x.com;p", "/;p"},
		{"http://x.com#f/a", "/"},
		{"http://x.com/#f", "/"},
		{"http://user:pass@x.com:8080/a", "/a"},
		{"a?b://c/d", "/?b://c/d"},
		{"mailto:a@b.c", "/"},
		{"http://x.com/a%2Fb", "/a%2Fb"},
	}
	for _, tt := range tests {
		if got := pathOf(tt.url); got != tt.want {
			t.Errorf("pathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
		if got := slowPathOf(tt.url); got != tt.want {
			t.Errorf("slowPathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

func TestStatus(t *testing.T) {
	body := []byte("user-agent: *\ndisallow: /private")
	tests := []struct {
		name            string
		code            int
		private, public bool
		reason          Reason
	}{
		{"google/status/200", 200, false, true, ReasonRule},
		{"google/status/299", 299, false, true, ReasonNoMatch},
		{"google/status/301-gave-up", 301, true, true, ReasonAllowAll},
		{"google/status/404", 404, true, true, ReasonAllowAll},
		{"google/status/401", 401, true, true, ReasonAllowAll},
		{"google/status/403", 403, true, true, ReasonAllowAll},
		{"google/status/429", 429, false, false, ReasonDisallowAll},
		{"google/status/500", 500, false, false, ReasonDisallowAll},
		{"google/status/503", 503, false, false, ReasonDisallowAll},
		{"status/1xx", 100, false, false, ReasonDisallowAll},
		{"status/zero", 0, false, false, ReasonDisallowAll},
		{"status/600", 600, false, false, ReasonDisallowAll},
		{"status/negative", -1, false, false, ReasonDisallowAll},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := FromStatus(tt.code, body)
			if got := r.Allowed("a", "/private"); got != tt.private {
				t.Errorf("Allowed(/private) = %t, want %t", got, tt.private)
			}
			if got := r.Allowed("a", "/public"); got != tt.public {
				t.Errorf("Allowed(/public) = %t, want %t", got, tt.public)
			}
			if got := r.Decide("a", "/public").Reason; tt.code != 200 && got != tt.reason {
				t.Errorf("Decide(/public).Reason = %v, want %v", got, tt.reason)
			}
			if !r.Allowed("a", "/robots.txt") {
				t.Errorf("Allowed(/robots.txt) = false, want true")
			}
		})
	}
}

func TestNilAndZero(t *testing.T) {
	var nilRobots *Robots
	if !nilRobots.Allowed("a", "/x") {
		t.Error("nil Robots disallows")
	}
	if !(&Robots{}).Allowed("a", "/x") {
		t.Error("zero Robots disallows")
	}
	if !nilRobots.Group("a").Allowed("/x") || !(&Robots{}).Group("a", "b").Allowed("/x") {
		t.Error("group of nil or zero Robots disallows")
	}
	var g *Group
	if !g.Allowed("/x") {
		t.Error("nil Group disallows")
	}
	if nilRobots.Sitemaps() != nil || nilRobots.Records() != nil {
		t.Error("nil Robots has sitemaps or records")
	}
	if AllowAll() != allowAll || DisallowAll().Allowed("a", "/") {
		t.Error("AllowAll or DisallowAll misbehave")
	}
}

func TestDecideReasons(t *testing.T) {
	body := "user-agent: some\n\ndisallow: /x\n\nuser-agent: blank\ndisallow:\nuser-agent: empty\n"
	r := Parse([]byte(body))
	tests := []struct {
		name   string
		r      *Robots
		agent  string
		url    string
		want   Decision
		string string
	}{
		{"rule", r, "some", "/x", Decision{Allowed: false, Reason: ReasonRule, Rule: Rule{Pattern: "/x", Line: 3}}, "disallowed by line 3: Disallow: /x"},
		{"no-match", r, "some", "/y", Decision{Allowed: true, Reason: ReasonNoMatch}, "allowed (no matching rule)"},
		{"empty-group", r, "empty", "/y", Decision{Allowed: true, Reason: ReasonEmptyGroup}, "allowed (empty group)"},
		{"empty-pattern", r, "blank", "/y", Decision{Allowed: true, Reason: ReasonNoMatch}, "allowed (no matching rule)"},
		{"no-group", r, "other", "/y", Decision{Allowed: true, Reason: ReasonNoGroup}, "allowed (no group)"},
		{"robots-txt", DisallowAll(), "a", "/robots.txt", Decision{Allowed: true, Reason: ReasonRobotsTxt}, "allowed (robots.txt is always allowed)"},
		{"global", Parse([]byte("user-agent: *\nallow: /y")), "a", "/y", Decision{Allowed: true, Reason: ReasonRule, Rule: Rule{Allow: true, Pattern: "/y", Line: 2}, Global: true}, "allowed by line 2: Allow: /y"},
		{"written-pattern", Parse([]byte("user-agent: *\ndisallow: /caf\u00e9 # x")), "a", "/caf%C3%A9", Decision{Reason: ReasonRule, Rule: Rule{Pattern: "/caf\u00e9", Line: 2}, Global: true}, "disallowed by line 2: Disallow: /caf\u00e9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.r.Decide(tt.agent, tt.url)
			if got != tt.want {
				t.Errorf("Decide(%q, %q) = %#v, want %#v", tt.agent, tt.url, got, tt.want)
			}
			if got.String() != tt.string {
				t.Errorf("Decide(%q, %q).String() = %q, want %q", tt.agent, tt.url, got.String(), tt.string)
			}
		})
	}
}

func TestProductToken(t *testing.T) {
	tests := []struct{ ua, want string }{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36", "Googlebot"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"},
		{"FooBot/1.0", "FooBot"},
		{"FooBot", "FooBot"},
		{"curl/8.0.1", "curl"},
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)", "AdsBot-Google-Mobile"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", ""},
		{"", ""},
		{"Mozilla/5.0", ""},
	}
	for _, tt := range tests {
		if got := ProductToken(tt.ua); got != tt.want {
			t.Errorf("ProductToken(%q) = %q, want %q", tt.ua, got, tt.want)
		}
	}
}

func TestSitemaps(t *testing.T) {
	body := "sitemap: https://example.com/sitemap.xml\nuser-agent: otherbot\ndisallow: /kale\n\nSitemap: https://cdn.example.org/other-sitemap.xml\nsite-map: https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml\nsitemaps: /relative # comment\nsitemap:\n"
	want := []string{
		"https://example.com/sitemap.xml",
		"https://cdn.example.org/other-sitemap.xml",
		"https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml",
		"/relative",
	}
	got := Parse([]byte(body)).Sitemaps()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Sitemaps() = %q, want %q", got, want)
	}
	// The sitemap line does not disturb the group.
	if Parse([]byte(body)).Allowed("otherbot", "/kale") {
		t.Error("otherbot allowed /kale")
	}
}

func TestAllowedNoAllocs(t *testing.T) {
	r := Parse([]byte(googleExample + "user-agent: *\ndisallow: /*.php$\nallow: /d/index.html\n" + strings.Repeat("disallow: /many/x\n", 40)))
	g := r.Group("Googlebot")
	urls := []string{
		"https://example.com/includes/a.js",
		"https://example.com/a/b.php",
		"https://example.com/d/",
		"https://example.com/many/x",
		"https://example.com?q=1",
		"/robots.txt",
	}
	for _, agent := range []string{"Googlebot", "googlebot", "OtherBot", strings.Repeat("x", 100), "Googlebot/2.1"} {
		for _, u := range urls {
			if n := testing.AllocsPerRun(100, func() { r.Allowed(agent, u) }); n != 0 {
				t.Errorf("Allowed(%q, %q) allocates %v times", agent, u, n)
			}
			if n := testing.AllocsPerRun(100, func() { g.Allowed(u) }); n != 0 {
				t.Errorf("Group.Allowed(%q) allocates %v times", u, n)
			}
		}
	}
}
