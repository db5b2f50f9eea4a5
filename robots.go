// Package robots parses robots.txt files and answers whether a crawler may
// fetch a URL, exactly as Google's crawlers do.
//
// It implements RFC 9309 as Google interprets it
// (https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec),
// and Google's reference parser (github.com/google/robotstxt) where that
// page is silent: the same answer for every file, agent and URL, but for two
// deviations (below). A file is parsed once; questions allocate nothing:
//
//	body := []byte("User-agent: *\nDisallow: /search\nAllow: /search/about\n")
//	r := robots.FromStatus(200, body) // the status and body of the fetch
//	r.Allowed("Googlebot", "https://example.com/search?q=go")  // false
//	r.Allowed("Googlebot", "https://example.com/search/about") // true
//	fmt.Println(r.Decide("Googlebot", "https://example.com/search?q=go"))
//	// disallowed by line 2: Disallow: /search
//
// FromStatus turns the HTTP status into answers (a 404 allows everything, a
// 503 disallows everything); Robots.Group resolves a crawler once for many
// URLs; Robots.Decide says which line decided; Check reports what is wrong,
// ignored or surprising, apart from Parse, which it does not slow. Keys that
// Google ignores and others honour (crawl-delay, request-rate, visit-time,
// host, clean-param, any other) are kept without changing any answer
// (Group.CrawlDelay, Robots.Extras).
//
// # Reading the file
//
// The body is bytes, not decoded; only its first MaxSize bytes (500 KiB)
// count. A leading UTF-8 byte order mark is skipped. Lines end at LF, CR or
// CRLF; at most 16,663 bytes of a line are kept; NUL ends a line, "#" starts
// a comment. A line is key, colon, value; the key is matched
// case-insensitively by prefix ("Disallowed" is a disallow), with Google's
// misspellings ("useragent", "user agent", "dissallow", "dissalow",
// "disalow", "diasllow", "disallaw", "site-map"); a line of exactly two
// words may omit the colon ("Disallow /tmp"). Other lines are skipped: an
// HTML page yields the rules it happens to contain.
//
// # Groups and user agents
//
// A group is user-agent lines followed by allow and disallow rules; a
// user-agent line after a rule starts the next, and no other line ends one.
// A user-agent value names the longest prefix of letters, "-" and "_",
// case-insensitively ("Googlebot/2.1" names "googlebot"); "*", alone or
// before whitespace, names every crawler. The agent given to Allowed is
// compared as given, as the reference does: a product token, not a
// User-Agent header (ProductToken extracts one; CrawlerToken is the rule
// the module's front ends apply). The groups naming the agent are merged;
// if none does, those naming "*" apply; the two never combine: a group
// naming the crawler with no matching rule allows everything.
//
// # Matching
//
// A pattern is matched, anchored at the start, against the URL's path,
// parameters and query; "*" matches any bytes and a final "$" the end.
// Patterns' non-ASCII bytes are %-encoded and their %xx escapes
// upper-cased; the URL is used as given (already %-encoded), up to its
// first NUL byte, as the reference's C string ends. The longest matching
// pattern (wildcards counted) wins, allow on a tie; an empty pattern never
// decides; "Allow: /d/index.html" also allows "/d/", as Google does.
//
// # Deviations from the reference
//
// "/robots.txt" (exactly, without a query) is always allowed (RFC 9309,
// 2.2.2). Only MaxSize bytes are read, as Google's crawlers do (RFC 9309,
// 2.5): a rule past the cut, or cut by it, does not count ("Disallow:
// /private" cut after "/pri" disallows "/pri"). Where the RFC and the
// reference differ, the reference wins: "Disallow: /%62" does not match
// "/b", and the agent is not cut to its token. Where all are silent, a 1xx
// final status is a server error, and ProductToken is a heuristic.
//
// # Concurrency
//
// A *Robots and a *Group are immutable and safe for concurrent use. A nil
// *Robots or *Group allows everything.
//
// # Cost
//
// Parse keeps the values of the lines it uses once, as written, in one
// text, a table of those lines (about 1.5 bytes a line) and the compiled
// rules (8 bytes each). A rule that starts with neither "/" nor "*", or of
// 1-2 bytes repeating one of its group, is not compiled; a raw pattern
// (non-ASCII, a lower-case "%xx") is escaped as matched, not copied.
// Robots.MemSize tells what a file keeps: 0.95 bytes a byte over 1,694 real
// files once asked enough for Googlebot; 1.4 times the size for the
// shortest distinct rules ("allow:/ab"), about the size for non-ASCII
// patterns. Records, Extras and a Decision's rule are rebuilt from the
// table: Decide decodes at most 32 lines from a mark, about 50 ns more
// (0.20 -> 0.25 µs on the corpus's largest file); Allowed never looks a
// rule's line up. Check needs the body (fetch.Result.Body).
//
// The records naming a crawler are merged into one set, so that a question
// costs the same however many groups name it, within a budget: once every
// agent has been asked enough, each rule line has been compiled at most
// twice over the file (three times for split groups' records of over 64
// rule lines or raw patterns), and a file of 4 KiB or more keeps at most 3
// bytes a byte; past the budget, a group asks its records' sets one by one.
// A record that is a group alone and in a merged group is not compiled
// twice: its own questions read its rule lines (at most 64, none raw) from
// the table, a few nanoseconds each.
//
// A set of over 32 rules is compiled by its questions: the first 24 read
// its lines from the table, in time linear in its size; the 25th compiles
// and lays it out (the first, for a set of up to 32 rule lines that
// index.htm rules take over 32 rules): rules by literal head,
// linked (2 bytes a rule, or none when the link fits in the rule), the
// directories its index.htm rules allow (3 bytes each), and wildcard rules
// by their rarest run of 1-3 literal bytes (2 bytes a bucket of 1-4 rules).
// So a file asked once after each fetch is never laid out, and one asked
// often costs at most about twice the least. No question waits for another
// (concurrent ones may each build; the first built is kept), and only those
// that build allocate.
//
// A warm question costs a binary search, the rules of the heads that start
// the path, and a look-up at each byte of the path for the wildcard rules
// whose run stands there: "/*?sid=" is checked there, "/*.php$" at the end,
// any other ("/*/print/*.pdf") in time linear in the path. So a question is
// linear in the path but for that term, up to such rules times the path's
// length. BenchmarkWorstCase (bench/, one warm question): against 1,000
// generated wildcard rules, a path of 1, 2, 4 and 8 KB costs 16, 33, 81 and
// 174 µs; against 10,000, 11, 20, 43 and 105 µs. Group returns a new Group;
// with several agents it is linear in the file's records.
package robots

import ()

// The shared answers for files that could not be fetched.
var (
	allowAll    = &Robots{policy: policyAllowAll}
	disallowAll = &Robots{policy: policyDisallowAll}
)

// AllowAll returns a shared Robots that allows every URL, as when a site
// has no robots.txt.
func AllowAll() *Robots { return allowAll }

// DisallowAll returns a shared Robots that disallows every URL but
// /robots.txt, as after a server error.
func DisallowAll() *Robots { return disallowAll }

// Allowed reports whether the crawler agent may fetch url.
//
// agent is a product token such as "Googlebot" (see ProductToken),
// compared case-insensitively. url is an absolute URL
// ("https://example.com/a?b") or a path starting with "/", already
// %-encoded; only its path, parameters and query are used.
//
// Allowed does not allocate, but for a URL whose path starts with "?" or
// ";" ("https://example.com?q") and is over 2 KiB, and on the questions
// that build a large set (see Cost).
func (r *Robots) Allowed(agent, url string) bool {
	if r != nil && !r.mayMatch && r.policy == policyRules {
		return true // no rule that could match: an empty file, an HTML page
	}
	return r.allowed(agent, url)
}

// allowed is Allowed for a file that may have rules, apart so that Allowed
// inlines: a warm question 3.7% (realworld-verdicts, paired, 6 rounds).
func (r *Robots) allowed(agent, url string) bool {
	var g Group
	r.group(agent, &g)
	return g.Allowed(url)
}

// Decide reports whether the crawler agent may fetch url, and why: the
// deciding rule and its line, or the reason no rule decided. It reads agent
// and url as Allowed does, and allocates no more.
func (r *Robots) Decide(agent, url string) Decision {
	var g Group
	r.group(agent, &g)
	return g.Decide(url)
}

// Group returns the rules that apply to a crawler, to check many URLs
// without looking it up each time: a new Group (one small allocation).
//
// With several agents, it holds the rules of every group naming any of
// them, as the reference does for a crawler that obeys several tokens
// ("googlebot-news" and "googlebot"). If none is named, or no agent given,
// the groups naming "*" apply.
func (r *Robots) Group(agents ...string) *Group {
	if len(agents) == 1 || r == nil || r.policy != policyRules {
		var agent string
		if len(agents) > 0 {
			agent = agents[0]
		}
		g := new(Group)
		r.group(agent, g)
		return g
	}
	return r.union(agents)
}

// Sitemaps returns the values of the file's sitemap lines, as written, in
// file order: they belong to the file, not to a group.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	var out []string
	r.eachLine(func(e *entry, _ int) {
		if e.kind == kindSitemap {
			out = append(out, e.l.value(r.text))
		}
	})
	return out
}

// MemSize returns the bytes of memory r keeps reachable (its parsed form,
// its groups and what its questions have built since), as a cache's byte
// bound counts them, in O(1). AllowAll, DisallowAll and nil keep 0.
func (r *Robots) MemSize() int {
	if r == nil || r.policy != policyRules {
		return 0
	}
	return r.size + int(r.lazySize.Load())
}

func (l srcLine) agent(text string) Agent {
	v := l.value(text)
	return Agent{Value: v, Token: agentToken(v), Line: l.line()}
}

// Records returns the groups of the file as written, in file order, with
// their user-agent lines and rules. Rules before the first user-agent line
// belong to no group and are not included. The result is a copy.
func (r *Robots) Records() []Record {
	if r == nil || r.recordCount() == 0 {
		return nil
	}
	recs := make([]Record, r.recordCount())
	r.eachLine(func(e *entry, rec int) {
		switch e.kind {
		case kindUserAgent:
			recs[rec].Agents = append(recs[rec].Agents, e.l.agent(r.text))
		case kindAllow, kindDisallow:
			recs[rec].Rules = append(recs[rec].Rules, e.l.rule(r.text))
		}
	})
	return recs
}

// FromStatus returns the Robots to use after fetching a robots.txt file
// that answered with HTTP status code and body, as Google does (and RFC
// 9309, section 2.3):
//
//   - 2xx: the body is parsed (it is ignored otherwise).
//   - 3xx: the caller follows redirects (at least five hops) and passes
//     the final response; a 3xx here means it gave up: allow all.
//   - 4xx but 429: as if there were no robots.txt: allow all.
//   - 429, 5xx and any other code (1xx included): a server error:
//     disallow all.
//
// Network errors (DNS failures, timeouts, resets, truncated bodies) are
// server errors too: use DisallowAll. Google then keeps the last good copy
// up to 30 days, and treats a site whose robots.txt stays unreachable
// longer, but which is otherwise reachable, as having none; package fetch
// implements that policy.
func FromStatus(code int, body []byte) *Robots {
	switch {
	case 200 <= code && code <= 299:
		return Parse(body)
	case 300 <= code && code <= 399:
		return AllowAll()
	case code == 429:
		return DisallowAll()
	case 400 <= code && code <= 499:
		return AllowAll()
	}
	return DisallowAll()
}
