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
// FromStatus turns the HTTP status into answers; Robots.Group resolves a
// crawler once for many URLs; Robots.Decide says which line decided;
// package lint's Check reports what is wrong, ignored or surprising, apart
// from Parse, which it does not slow. Keys that Google ignores and others honour (crawl-delay,
// request-rate, visit-time, host, clean-param, any other) are kept without
// changing any answer (Group.CrawlDelay, Robots.Extras).
//
// # Reading the file
//
// The body is bytes, not decoded. Only its first MaxSize bytes (500 KiB)
// count, as Google's crawlers read (RFC 9309, 2.5): a rule past the cut, or
// cut by it, does not count ("Disallow: /private" cut after "/pri"
// disallows "/pri"). A leading UTF-8 byte order mark is skipped. Lines end
// at LF, CR or CRLF; at most 16,663 bytes of a line are kept; NUL ends a
// line, "#" starts a comment. A line is key, colon, value; the key is
// matched case-insensitively by prefix ("Disallowed" is a disallow), with
// Google's misspellings ("useragent", "user agent", "dissallow",
// "dissalow", "disalow", "diasllow", "disallaw", "site-map"); a line of
// exactly two words may omit the colon ("Disallow /tmp"). Other lines are
// skipped: an HTML page yields the rules it happens to contain.
//
// # Groups and user agents
//
// A group is user-agent lines followed by allow and disallow rules; a
// user-agent line after a rule starts the next, and no other line ends one.
// A user-agent value names the longest prefix of letters, "-" and "_",
// case-insensitively ("Googlebot/2.1" names "googlebot"); "*", alone or
// before whitespace, names every crawler. The agent given to Allowed is
// compared as given, as the reference does (RFC 9309 would cut it to its
// token): a product token, not a User-Agent header (ProductToken extracts
// one; CrawlerToken is the rule the module's front ends apply). The groups
// naming the agent are merged; if none does, those naming "*" apply; the
// two never combine: a group naming the crawler with no matching rule
// allows everything.
//
// # Matching
//
// A pattern is matched, anchored at the start, against the URL's path,
// parameters and query; "*" matches any bytes and a final "$" the end.
// Patterns' non-ASCII bytes are %-encoded and their %xx escapes
// upper-cased ("Disallow: /%62" does not match "/b", as in the reference);
// the URL is used as given (already %-encoded), and the path found in it
// ends at its first NUL byte, as the reference's C string of it does. The longest matching pattern
// (wildcards counted) wins, allow on a tie; an empty pattern never
// decides; "Allow: /d/index.html" also allows "/d/", as Google does.
//
// # Deviations from the reference
//
// "/robots.txt" (exactly, without a query) is always allowed (RFC 9309,
// 2.2.2), and only MaxSize bytes are read (above). Where all are silent, a
// 1xx final status is a server error, and ProductToken is a heuristic.
//
// # Concurrency
//
// A *Robots and a *Group are immutable and safe for concurrent use. A nil
// *Robots or *Group allows everything.
//
// # Cost
//
// Robots.MemSize tells what a file keeps: 0.95 bytes a byte over 1,694 real
// files once asked enough for Googlebot; from 4 KiB on, at most 1.5 on
// hostile shapes, and 3 once every agent is asked. The records naming a
// crawler are merged into one set, so that a question costs the same
// however many groups name it, within a budget (each rule line compiled at
// most twice over the file, three times in a split group's record of over
// 64 rule lines or a raw pattern); past it, a group asks its records' sets
// one by one. Records, Extras and a Decision's rule are rebuilt from the
// kept lines: Decide costs a little more than Allowed (BenchmarkDecide;
// bench/RESULTS.md). lint.Check needs the body (fetch.Result.Body).
//
// A set of over 32 rules is compiled by its questions: the first read its
// lines, a wildcard one in up to the path's length; the first to find their
// weight at 12 (a scan weighs 1, and 1 more for each 128 bytes of path a
// line read on average) lays it out, as the first question does a set
// Parse compiled (index.htm rules taking it over 32). So a file asked once
// after each fetch is never laid out, and one asked often costs at most
// about twice the least. No question waits: one builds a set's layout
// aside and publishes it whole, others answer as before; only it allocates.
//
// A warm question is linear in the path but for wildcard rules of several
// pieces whose rarest run it holds, or of one whose run recurs in it
// ("/*/print/*.pdf"; not "/*?sid=" or "/*.php$"): up to such rules times
// the path's length (bench/ BenchmarkWorstCase, BenchmarkAdversarialWildcards).
package robots

import (
	"slices"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// A namedGroup is the group of a product token: low first, the token's
// offset in the kept text (srcOffBits) and length (srcLenBits), and the ref
// of its group: record ref alone if ref >= 0, else more.multi[^ref].
type namedGroup uint64

const namedRefShift = lines.LenShift + lines.LenBits

// A moreGroups holds a file's groups of several records, their lists of
// records (which their lazy sets read too), and the records' own sets of
// more than SmallSet rules.
type moreGroups struct {
	multi []multiGroup
	recs  []int32
	bigs  []bigOf
}

// A multiGroup is a Group of several records in 40 bytes, not 56 (no file,
// no policy): one-agent-many keeps 1.36 bytes a byte at 4 KiB, 1.49 with
// Groups (bound 1.5, TestKeptPerByteSmallFiles).
type multiGroup struct {
	lo, n                      int32
	big                        *ruleset.Lazy
	recLo, recN, restLo, restN int32
	named, ruled, split        bool
}

// A bigOf is the own set of a record of more than ruleset.SmallSet rules.
type bigOf struct {
	lo, n int32
	big   *ruleset.Lazy
}

// A policy says whether a Robots holds parsed rules or a blanket answer.
type policy uint8

const (
	policyRules policy = iota
	policyAllowAll
	policyDisallowAll // but /robots.txt
)

// Robots is a parsed robots.txt file, ready to answer questions.
// The zero value, like a nil *Robots, is an empty file: it allows
// everything.
type Robots struct {
	// src holds what the engine reads: the kept text (the values, the
	// line table and its index: package lines), every set's rules, and
	// what questions laid out.
	src      ruleset.Source
	policy   policy
	mayMatch bool // some rule may match a path (MayDecide)
	// global is the group of "*": none if 0, record global-1 alone if
	// positive, else more.multi[^global].
	global int32
	named  []namedGroup // sorted by token
	sets   []ownSet     // each record's own set
	more   *moreGroups  // nil in most files
	// size is what Parse kept (src.LazySize what questions built).
	size int
}

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
// the groups naming "*" apply; the cost is linear in the file's records.
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

// union returns the group of several agents: the records that name any of
// them, or if none does, those that name "*". Its cost is linear in the
// agents and in the records and rules of their groups; a group that is not
// one agent's own compiles its rules.
func (r *Robots) union(agents []string) *Group {
	var recs []int32
	var largest Group // of most records: a named group has one at least
	for _, a := range agents {
		if ref, ok := r.lookupRef(a); ok {
			var g Group
			r.refOrGlobal(ref, true, &g)
			var one [1]int32
			recs = append(recs, g.records(&one)...)
			if g.recN > largest.recN {
				largest = g
			}
		}
	}
	if largest.recN == 0 {
		g := new(Group)
		r.globalGroup(g)
		return g
	}
	slices.Sort(recs)
	recs = slices.Compact(recs)
	if len(recs) == int(largest.recN) {
		return &largest // the others' records are among its own
	}
	// The group's records and rules hang on a Robots of their own, which
	// shares r's lines.
	f := &Robots{more: &moreGroups{recs: recs}}
	f.src.ShareText(&r.src)
	g := &Group{file: f, recN: int32(len(recs)), named: true}
	var rules []lines.Line
	for _, rec := range recs {
		_, rules = r.table().RecordLines(int(rec), nil, rules)
	}
	if len(rules) > 0 {
		var sc ruleset.Scratch
		ruleset.Compile(&g.set, &f.src, rules, &sc)
		g.ruled = true
	}
	return g
}

// Sitemaps returns the values of the file's sitemap lines, as written, in
// file order: they belong to the file, not to a group.
func (r *Robots) Sitemaps() []string {
	if r == nil {
		return nil
	}
	var out []string
	r.table().EachLine(func(e *lines.Entry, _ int) {
		if e.Kind == lines.KindSitemap {
			out = append(out, e.L.Value(r.src.Text()))
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
	return r.size + r.src.LazySize()
}

// Records returns the groups of the file as written, in file order, with
// their user-agent lines and rules. Rules before the first user-agent line
// belong to no group and are not included. The result is a copy.
func (r *Robots) Records() []Record {
	if r == nil || r.table().RecordCount() == 0 {
		return nil
	}
	recs := make([]Record, r.table().RecordCount())
	r.table().EachLine(func(e *lines.Entry, rec int) {
		switch e.Kind {
		case lines.KindUserAgent:
			recs[rec].Agents = append(recs[rec].Agents, agentOf(e.L, r.src.Text()))
		case lines.KindAllow, lines.KindDisallow:
			recs[rec].Rules = append(recs[rec].Rules, ruleOf(e.L, r.src.Text()))
		}
	})
	return recs
}

// table returns the line table of r.
func (r *Robots) table() lines.Table { return r.src.Table() }
