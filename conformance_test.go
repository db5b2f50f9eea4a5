package robots

import (
	"testing"

	"github.com/gorep/robots/internal/corpus"
)

// Conformance with the written rules: the examples of Google's robots.txt
// specification (precedence, grouping, the path table, the table of
// robots.txt URLs) and RFC 9309's example, each question asked of the
// package and of the slow model (model_test.go). Our notes on the
// reference parser are in conformance_notes_test.go, the real files in
// conformance_realworld_test.go.

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
func short(s string) string { return corpus.Short(s) }

func runQueries(t *testing.T, qs []query) {
	t.Helper()
	for _, q := range qs {
		t.Run(q.name, q.check)
	}
}

// googleExample is the example file at the top of Google's page.
const googleExample = corpus.GoogleExample

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

// googleLocationTests holds the rows of the table "Examples of valid
// robots.txt URLs" in Google's robots.txt specification, section "File
// location and range of validity": a robots.txt URL, the page URLs it is
// valid for and those it is not valid for.
var googleLocationTests = []struct {
	name      string
	robotsURL string
	valid     []string
	invalid   []string
}{
	{
		name:      "google/general-case",
		robotsURL: "https://example.com/robots.txt",
		valid:     []string{"https://example.com/", "https://example.com/folder/file"},
		invalid:   []string{"https://other.example.com/", "http://example.com/", "https://example.com:8181/"},
	},
	{
		name:      "google/subdomain",
		robotsURL: "https://www.example.com/robots.txt",
		valid:     []string{"https://www.example.com/"},
		invalid:   []string{"https://example.com/", "https://shop.www.example.com/", "https://www.shop.example.com/"},
	},
	{
		// "Not a valid robots.txt file. Crawlers don't check for robots.txt
		// files in subdirectories."
		name:      "google/subdirectory",
		robotsURL: "https://example.com/folder/robots.txt",
		invalid:   []string{"https://example.com/", "https://example.com/folder/", "https://example.com/folder/file"},
	},
	{
		// The page lists https://xn--exmple-cua.com/ as valid, without the
		// "www." of the robots.txt host: a slip, since the punycode form of
		// www.exämple.com is www.xn--exmple-cua.com, and a robots.txt on a
		// subdomain "is only valid for that subdomain" (row google/subdomain).
		// The intended URL is valid; the URL as printed is not.
		name:      "google/idn-punycode",
		robotsURL: "https://www.exämple.com/robots.txt",
		valid:     []string{"https://www.exämple.com/", "https://www.xn--exmple-cua.com/"},
		invalid:   []string{"https://www.example.com/", "https://xn--exmple-cua.com/"},
	},
	{
		name:      "google/ftp",
		robotsURL: "ftp://example.com/robots.txt",
		valid:     []string{"ftp://example.com/"},
		invalid:   []string{"https://example.com/"},
	},
	{
		name:      "google/ip-address",
		robotsURL: "https://212.96.82.21/robots.txt",
		valid:     []string{"https://212.96.82.21/"},
		invalid:   []string{"https://example.com/"},
	},
	{
		name:      "google/standard-port",
		robotsURL: "https://example.com:443/robots.txt",
		valid:     []string{"https://example.com:443/", "https://example.com/"},
		invalid:   []string{"https://example.com:444/"},
	},
	{
		name:      "google/non-standard-port",
		robotsURL: "https://example.com:8181/robots.txt",
		valid:     []string{"https://example.com:8181/"},
		invalid:   []string{"https://example.com/"},
	},
}

func TestGovernsGoogle(t *testing.T) {
	for _, tt := range googleLocationTests {
		t.Run(tt.name, func(t *testing.T) {
			for _, page := range tt.valid {
				if got := Governs(tt.robotsURL, page); !got {
					t.Errorf("Governs(%q, %q) = %t, want %t", tt.robotsURL, page, got, true)
				}
				// The robots.txt URL computed from a page is one that
				// governs it, and it names the same file as the row's.
				u, err := URL(page)
				if err != nil {
					t.Errorf("URL(%q): %v", page, err)
					continue
				}
				if !Governs(u, page) || !Governs(u, tt.robotsURL) {
					t.Errorf("URL(%q) = %q, which does not govern %q and %q", page, u, page, tt.robotsURL)
				}
			}
			for _, page := range tt.invalid {
				if got := Governs(tt.robotsURL, page); got {
					t.Errorf("Governs(%q, %q) = %t, want %t", tt.robotsURL, page, got, false)
				}
			}
		})
	}
}
