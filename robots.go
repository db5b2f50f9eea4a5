// Package robots parses robots.txt files and answers whether a crawler may
// fetch a URL, exactly as Google's crawlers do.
//
// It implements the Robots Exclusion Protocol (RFC 9309) as Google
// interprets it (https://developers.google.com/crawling/docs/robots-txt/robots-txt-spec),
// and reproduces the behaviour of Google's open-source reference parser
// (github.com/google/robotstxt) where that page is silent: the same answer
// for every file, agent and URL, with two deliberate deviations, listed below.
//
// A file is parsed once; questions are then answered without allocation:
//
//	body := []byte("User-agent: *\nDisallow: /search\nAllow: /search/about\n")
//	r := robots.FromStatus(200, body) // the status and body of the fetch
//	r.Allowed("Googlebot", "https://example.com/search?q=go")  // false
//	r.Allowed("Googlebot", "https://example.com/search/about") // true
//	d := r.Decide("Googlebot", "https://example.com/search?q=go")
//	fmt.Println(d) // disallowed by line 2: Disallow: /search
//
// To turn the HTTP status of the fetch into the right answers (a 404 allows
// everything, a 503 disallows everything), use FromStatus. To check many
// URLs for one crawler, resolve its group once with Robots.Group. To know
// which line decided, use Robots.Decide.
//
// Check reports what in a file is wrong, ignored or surprising, line by
// line, apart from Parse, which it does not slow down. The fields that Google
// ignores and other crawlers honour (crawl-delay, request-rate, visit-time,
// host, clean-param and any other key) are kept without changing any answer:
// see Group.CrawlDelay and Robots.Extras.
//
// # Reading the file
//
// The body is read as bytes, without charset decoding. Only the first
// MaxSize bytes (500 KiB) count. A UTF-8 byte order mark at the start is
// skipped. Lines end at LF, CR or CRLF; at most 16,663 bytes of a line are
// kept; a NUL byte ends a line. "#" starts a comment. Each line is a key, a
// colon and a value; the key is matched case-insensitively by prefix
// ("Disallowed" is a disallow), with the misspellings Google accepts
// ("useragent", "user agent", "dissallow", "dissalow", "disalow", "diasllow",
// "disallaw", "site-map"), and a line with no colon may use whitespace
// instead when it is exactly two words ("Disallow /tmp"). Lines that are not
// valid are skipped: an HTML page served as robots.txt yields the rules it
// happens to contain, and nothing else.
//
// # Groups and user agents
//
// A group is one or more user-agent lines followed by allow and disallow
// rules; a user-agent line after a rule starts a new group. Other lines
// (sitemap, crawl-delay, unknown keys, comments, blank lines) do not end a
// group. A user-agent value is matched by its leading product token, the
// longest prefix made of letters, "-" and "_", compared case-insensitively:
// "Googlebot/2.1" in the file names "googlebot". A value of "*" (or "*"
// followed by whitespace and anything) names every crawler.
//
// The agent given to Allowed is compared as given, as the reference does: it
// must be a product token such as "Googlebot", not a full User-Agent header;
// ProductToken extracts one from a header, and CrawlerToken is the rule
// that the module's front ends (the robotstxt command, its tester page,
// fetch.Cache and fetch.Transport) apply to the agent they are given. All groups naming the agent are
// merged. If none does, the groups naming "*" apply. The two are never
// combined: a group that names the crawler but has no rule that matches
// allows everything, whatever "*" says.
//
// # Matching
//
// A rule's pattern is matched against the path of the URL with its
// parameters and query, without the fragment. It is anchored at the start;
// "*" matches any run of bytes and a final "$" matches the end of the path.
// Non-ASCII bytes in patterns are %-encoded and %xx escapes upper-cased
// before matching; the URL is used as given and must already be %-encoded.
// A URL ends at its first NUL byte, as the reference's C string does:
// "https://example.com/a\x00b" is asked as "https://example.com/a".
// The most specific matching rule (the longest pattern, wildcards counted)
// wins; on a tie, allow wins. An empty pattern ("Disallow:") never decides.
// As Google does, "Allow: /d/index.html" also allows "/d/".
//
// # Deviations from the reference
//
// The path "/robots.txt" (exactly, without a query) is always allowed, as
// RFC 9309 section 2.2.2 requires; Google's reference parser does not
// special-case it.
//
// Only the first MaxSize bytes (500 KiB) of a file are read, as Google's
// crawlers do and RFC 9309 section 2.5 allows; Google's reference parser
// reads whole files. A rule past the cut, or cut in two by it, does not
// count ("Disallow: /private" cut after "/pri" disallows "/pri").
//
// Where RFC 9309 and the reference differ, the reference is followed: a
// %-escape of an unreserved character is not decoded ("Disallow: /%62"
// does not match "/b"), and the agent given to Allowed is not cut to its
// product token. Where all sources are silent: FromStatus treats a 1xx final
// status like a server error, and ProductToken is a documented heuristic.
//
// # Concurrency
//
// A *Robots and a *Group are immutable once made and safe for concurrent
// use. A nil *Robots or *Group allows everything.
//
// # Cost
//
// Parse does not keep the body: it keeps the values of the lines it uses
// (user-agents, rules, sitemaps, other keys and their values) packed into
// one text, followed by a table of those lines in about a byte and a half
// each (their kinds, and their numbers and lengths as differences), plus
// the compiled rules, 8 bytes each (those of a large set once it has been
// asked enough to compile them: see below). A rule that can never decide is not
// compiled: one whose pattern starts with neither "/" nor "*", and one of
// one or two bytes that repeats a rule of its group. Every pattern is kept
// as written, once: one that escaping changes (bytes outside ASCII, which
// become 3 bytes each, or a lower-case "%xx") is escaped as it is matched,
// without an escaped copy. Robots.MemSize tells how much a parsed file
// keeps: 0.95 bytes a byte of input over a corpus of 1,694 real files,
// once asked enough for Googlebot to compile and lay out its large sets;
// beside its value, a rule costs a byte or two of line, 8 compiled and, in
// a set of more than 32 rules, 2 of link, so that a file of the shortest
// distinct rule lines ("allow:/ab") keeps 1.4 times its size, and a file
// of patterns made of bytes outside ASCII about its size. Records, Extras
// and the rule a Decision quotes are rebuilt from what is kept: to quote a
// rule, Decide finds its line by a binary
// search over a mark every 32 lines and the decoding of at most 32 lines
// (on a tie of rank between rules of two sets, of both): about 50 ns more
// a Decide than when lines took 8 bytes each (0.20 -> 0.25 µs on the
// largest file of the corpus, 231 KB; 80 -> 120 ns on one of 670 bytes);
// Allowed never needs a line. To check a file with Check, keep its body
// (fetch.Result.Body holds it).
//
// Parse makes the groups: those that name one crawler are merged into one
// set of compiled rules, so that Allowed costs the same whatever
// the number of groups, up to a budget: once every agent a file names has
// been asked enough, each of its rule lines has been compiled at most
// twice, summed over the file (three times if a group split past the
// budget has records of more than 64 rule lines or of patterns that
// escaping changes, which are compiled nevertheless), and it keeps at
// most 3 bytes a byte of input on every file of 4 KiB or more we test;
// past the budget, in files built to defeat merging, a group asks the set
// of each of its records. A
// record that is a group alone, and among the records of a merged group
// too (one named by "*" and by a token of its own), is not compiled
// twice: the questions of its own group read its rule lines, up to 64 and
// none of bytes that escaping changes, from the line table, a
// few nanoseconds each. A set of more than 32 rule lines is not compiled
// with the groups: its first 4 questions read its rule lines from the line table
// and try each, in time linear in its size; its 5th compiles it (or the
// first to read a line whose pattern escaping changes, as a byte outside
// ASCII or a lower-case "%xx" does: such a set is compiled at once), and
// the questions after it try each of its compiled rules, until a large
// group is indexed, once it has been asked enough to pay for it: on its
// 25th question, when its scans have cost about as much as its layout. So
// a file asked once after each fetch is never laid out, nor compiled but
// for its sets with such patterns, and one asked many times costs at most
// about twice the least it could; no question waits for another's
// compiling or layout (concurrent ones may each make it, and the first
// made is kept). The
// layout sorts its rules, in a slice of its own, by literal head, each head
// linked to the longest other head that is a prefix of it (2 bytes a rule,
// or none when every link fits in its rule), but the directories that its index.htm
// allow rules also allow, which are filed apart (3 bytes each; a
// directory with a "*" is tried with its index.htm rule, not compiled),
// and, when it has 32 or more, its wildcard rules, which are filed instead
// by a run of one to three literal bytes after the head, the rarest among
// them (nothing beside the rule, but 2 bytes a bucket, one bucket for
// every one to four rules, up to 8,192); this costs about as much as parsing the rules did.
// No question allocates but those that compile a set and lay it out. A
// question then costs a binary search, the rules of the heads that start
// the path, and a look-up for each byte of the path that finds the
// wildcard rules whose run of bytes stands there. A wildcard rule whose
// pattern after the head is one literal run ("/*?sid=", "*/print/") is
// checked where that run stands, at each position that holds it, in time
// linear in the run; one anchored at the end ("/*.php$") at the end;
// another ("/*/print/*.pdf") is matched once a question in time linear in
// the path's length, as are the wildcard rules of smaller sets. So a
// question costs time linear in the path, but for that last term, which
// grows with the rules of several runs whose runs the path holds: on a
// file of many such rules, up to their number times the path's length.
// Measured (BenchmarkWorstCase in bench/, CPU time of one warm question):
// against 1,000 generated wildcard rules, a path of 1, 2, 4 and 8 KB costs
// 16, 33, 81 and 174 µs; against 10,000, 11, 20, 43 and 105 µs. Group(agent) returns a new Group (Allowed
// and Decide need none); with several agents it is linear in the records of
// the file.
package robots

import (
	"strconv"
	"sync/atomic"
)

// Robots is a parsed robots.txt file, ready to answer questions.
//
// The zero value, like a nil *Robots, is an empty file: it allows
// everything.
type Robots struct {
	// text holds the values of the kept lines, and nothing else of the
	// body (source.go), then, from linesAt, the line table of the
	// user-agent, rule, sitemap and extra lines, in file order, and, from
	// indexAt, its index (lines.go).
	text             string
	linesAt, indexAt uint32

	// policy is set for AllowAll and DisallowAll.
	policy policy
	// mayMatch reports that the file has a rule that may match a path
	// (mayDecide): once its groups are made, a compiled rule, or a set
	// left to its questions to compile.
	mayMatch bool
	// global is the group of the records that name "*": none if 0, record
	// global-1 alone if positive, else more.multi[^global].
	global int32
	// named holds the group of each product token named in the file,
	// lower-cased, sorted by token.
	named []namedGroup
	// sets holds the compiled rules of each record alone, where a group
	// needs them, and compiled the rules of every set of the file.
	sets     []recSet
	compiled []rule
	// more holds what only some files need: groups of several records and
	// sets of more than smallSet rules (resolve.go); nil in most files.
	more *moreGroups

	// size is the bytes Parse made r keep (memsize.go), and lazySize those
	// of the sets compiled and the indexes built since, which its
	// questions make.
	size     int
	lazySize atomic.Int64
}

// The shared answers for files that could not be fetched.
var (
	allowAll    = &Robots{policy: policyAllowAll}
	disallowAll = &Robots{policy: policyDisallowAll}
)

// AllowAll returns a Robots that allows every URL, as when a site has no
// robots.txt. The value is shared and immutable.
func AllowAll() *Robots { return allowAll }

// DisallowAll returns a Robots that disallows every URL except /robots.txt
// itself, as when the robots.txt could not be fetched because of a server
// error. The value is shared and immutable.
func DisallowAll() *Robots { return disallowAll }

// Allowed reports whether the crawler agent may fetch url.
//
// agent is a product token such as "Googlebot", compared with the
// user-agent lines of the file case-insensitively; see ProductToken for
// full User-Agent headers. url is an absolute URL ("https://example.com/a?b")
// or a path starting with "/", already %-encoded as RFC 3986 requires; only
// its path, parameters and query are used.
//
// Allowed does not allocate, except for a URL whose path starts with "?" or
// ";" ("https://example.com?q") and is longer than 2 KiB, and on the
// questions that compile and lay out a group of more than 32 rules, once
// it has been asked enough (see Cost).
func (r *Robots) Allowed(agent, url string) bool {
	if r != nil && !r.mayMatch && r.policy == policyRules {
		return true // no rule that could match: an empty file, an HTML page
	}
	return r.allowed(agent, url)
}

// allowed answers Allowed for a file that may have rules. Allowed itself
// is small enough to be inlined, so that a file without rules costs no
// call.
func (r *Robots) allowed(agent, url string) bool {
	if r != nil && r.policy == policyRules {
		ref, named := r.lookupRef(agent)
		if rec, ok := r.smallRecord(ref, named); ok {
			return r.recordAllowed(rec, url)
		}
		var g Group
		r.refOrGlobal(ref, named, &g)
		return g.Allowed(url)
	}
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

// Group returns the rules that apply to a crawler, to check many URLs for it
// without looking it up each time.
//
// With several agents, the group holds the rules of every group of the file
// that names any of them, as Google's reference does for a crawler that
// obeys more than one token (for example "googlebot-news" and "googlebot").
// If no group names any of them, the groups naming "*" apply; with no agent
// at all, Group returns the groups naming "*". Each call returns a new
// Group (one small allocation): keep it to check many URLs.
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

// Sitemaps returns the values of the sitemap lines of the file, as written,
// in file order. Sitemaps belong to the file, not to a group.
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
	// Allowed reports whether the URL may be fetched.
	Allowed bool
	// Reason says what decided.
	Reason Reason
	// Rule is the deciding rule when Reason is ReasonRule. When an allow and
	// a disallow rule of equal priority match, it is the allow rule; among
	// equal rules, the earliest line.
	Rule Rule
	// Global reports whether the rules came from the groups naming "*",
	// because no group named the crawler.
	Global bool
}

// A Reason says what decided a Decision.
type Reason uint8

const (
	// reasonNone is the zero value, which no decision has: a Decision
	// left unset does not read as decided by a rule.
	reasonNone Reason = iota
	// ReasonRule: a rule matched, Decision.Rule is the deciding one.
	ReasonRule
	// ReasonNoMatch: the crawler's group has rules, but none matched the
	// URL, so it is allowed.
	ReasonNoMatch
	// ReasonEmptyGroup: the crawler's group has no allow or disallow rule,
	// so everything is allowed. A group that names the crawler allows
	// everything even if the "*" group disallows it.
	ReasonEmptyGroup
	// ReasonNoGroup: no group names the crawler and there is no "*" group
	// (an empty file, for instance), so everything is allowed.
	ReasonNoGroup
	// ReasonRobotsTxt: the URL is /robots.txt, which is always allowed.
	ReasonRobotsTxt
	// ReasonAllowAll: the file is AllowAll, as after a 404.
	ReasonAllowAll
	// ReasonDisallowAll: the file is DisallowAll, as after a 503.
	ReasonDisallowAll
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
