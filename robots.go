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
// Parse keeps the values of the lines it uses, once, as written, in one
// text, then a table of those lines (about 1.5 bytes a line) and the
// compiled rules (8 bytes each). A rule that starts with neither "/" nor
// "*", or of 1-2 bytes repeating one of its group, is not compiled. A raw
// pattern, which escaping changes (non-ASCII, a lower-case "%xx"), is
// escaped as matched, not copied. Robots.MemSize tells what a file keeps:
// 0.95 bytes a byte over 1,694 real files once asked enough for Googlebot;
// 1.4 times the size for the shortest distinct rules ("allow:/ab"), about
// the size for non-ASCII patterns. Records, Extras and a Decision's rule
// are rebuilt from the table: Decide searches a mark every 32 lines and
// decodes at most 32, about 50 ns more (0.20 -> 0.25 µs on the corpus's
// largest file); Allowed never reads lines. Check needs the body
// (fetch.Result.Body).
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
// A set of over 32 rules is compiled by its questions: the first 4 read its
// lines from the table, in time linear in its size; the 5th compiles it (a
// set with a raw pattern is compiled at once); the 25th lays it out. So a
// file asked once after each fetch is never laid out, and one asked often
// costs at most about twice the least. No question waits for another
// (concurrent ones may each build; the first built is kept), and none
// allocates but those that build. The layout sorts the rules by literal
// head, each linked to the longest other head that prefixes it (2 bytes a
// rule, or none); files apart the directories its index.htm rules allow (3
// bytes each); and, with 32 or more wildcard rules, files them by the rarest
// run of 1-3 literal bytes after the head (2 bytes a bucket of 1-4 rules, up
// to 8,192).
//
// A warm question costs a binary search, the rules of the heads that start
// the path, and a look-up at each byte of the path for the wildcard rules
// whose run stands there: one whose rest is one literal run ("/*?sid=") is
// checked there, one anchored at the end ("/*.php$") at the end, any other
// ("/*/print/*.pdf"), as in smaller sets, in time linear in the path. So a
// question is linear in the path but for that term, up to such rules times
// the path's length. BenchmarkWorstCase (bench/, one warm question): against
// 1,000 generated wildcard rules, a path of 1, 2, 4 and 8 KB costs 16, 33,
// 81 and 174 µs; against 10,000, 11, 20, 43 and 105 µs. Group returns a new
// Group; with several agents it is linear in the file's records.
package robots

import (
	"strconv"
	"sync/atomic"
)

// Robots is a parsed robots.txt file, ready to answer questions.
// The zero value, like a nil *Robots, is an empty file: it allows
// everything.
type Robots struct {
	// text holds the kept values, then from linesAt the line table and
	// from indexAt its index (lines.go).
	text             string
	linesAt, indexAt uint32

	policy policy // set for AllowAll and DisallowAll
	// mayMatch reports that some rule may match a path (mayDecide).
	mayMatch bool
	// global is the group of "*": none if 0, record global-1 alone if
	// positive, else more.multi[^global].
	global int32
	// named holds the group of each product token, sorted by token.
	named []namedGroup
	// sets holds each record's own set, compiled the rules of every set.
	sets     []recSet
	compiled []rule
	more     *moreGroups // nil in most files

	// size is what Parse kept (memsize.go), lazySize what questions built.
	size     int
	lazySize atomic.Int64
}

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

// allowed answers Allowed for a file that may have rules; Allowed is
// inlined, so that a file without rules costs no call.
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

// A Decision is the answer to a question, with its reason.
type Decision struct {
	Allowed bool   // whether the URL may be fetched
	Reason  Reason // what decided
	// Rule is the deciding rule when Reason is ReasonRule: of an allow and
	// a disallow of equal priority, the allow; of equal rules, the earliest.
	Rule Rule
	// Global reports that the rules are those naming "*", as no group
	// named the crawler.
	Global bool
}

// A Reason says what decided a Decision.
type Reason uint8

const (
	reasonNone Reason = iota // no decision has it: an unset Decision is not a rule's
	// ReasonRule: a rule matched, Decision.Rule is the deciding one.
	ReasonRule
	// ReasonNoMatch: the crawler's group has rules, none matched: allowed.
	ReasonNoMatch
	// ReasonEmptyGroup: the crawler's group has no rule: everything is
	// allowed, whatever the "*" group says.
	ReasonEmptyGroup
	// ReasonNoGroup: no group names the crawler and none names "*":
	// everything is allowed.
	ReasonNoGroup
	ReasonRobotsTxt   // the URL is /robots.txt, always allowed
	ReasonAllowAll    // the file is AllowAll, as after a 404
	ReasonDisallowAll // the file is DisallowAll, as after a 503
)

var reasonNames = [...]string{
	reasonNone:        "no decision",
	ReasonRule:        "rule",
	ReasonNoMatch:     "no matching rule",
	ReasonEmptyGroup:  "empty group",
	ReasonNoGroup:     "no group",
	ReasonRobotsTxt:   "robots.txt is always allowed",
	ReasonAllowAll:    "allow all",
	ReasonDisallowAll: "disallow all",
}

// String returns a short description of the reason.
func (r Reason) String() string { return enumName(reasonNames[:], r, "reason") }

// String describes the decision in one line, such as
// "disallowed by line 3: Disallow: /private".
func (d Decision) String() string {
	verdict := "allowed"
	if !d.Allowed {
		verdict = "disallowed"
	}
	if d.Reason != ReasonRule {
		return verdict + " (" + d.Reason.String() + ")"
	}
	return verdict + " by line " + strconv.Itoa(d.Rule.Line) + ": " + d.Rule.String()
}
