package robots

import (
	"unsafe"
)

// A Record is one group of lines as written in a robots.txt file: one or
// more user-agent lines and the allow and disallow rules that follow them.
// Records that name the same agent are merged when a question is answered.
type Record struct {
	Agents []Agent // the user-agent lines, in file order
	Rules  []Rule  // the allow and disallow lines, in file order
}

// An Agent is one user-agent line.
type Agent struct {
	// Value is the value as written, without comment or surrounding space.
	Value string
	// Token is what the line is matched with: "*" for the global group,
	// otherwise the longest prefix of Value made of letters, "-" and "_"
	// ("Googlebot/2.1" gives "Googlebot", "MJ12bot" gives "MJ").
	Token string
	// Line is the 1-based line number.
	Line int
}

// A Rule is one allow or disallow line.
type Rule struct {
	Allow   bool   // an allow rule; false for disallow
	Pattern string // the value as written, without comment or surrounding space
	Line    int    // the 1-based line number
}

// String returns the rule as it would be written, such as "Disallow: /a".
func (r Rule) String() string { return r.key() + ": " + r.Pattern }

// key returns the key of the rule's line, "Allow" or "Disallow".
func (r Rule) key() string {
	if r.Allow {
		return "Allow"
	}
	return "Disallow"
}

// A Group is the set of rules that applies to one crawler, or to several
// crawlers asking together, resolved once so that many URLs can be checked
// cheaply. Get one from Robots.Group. A Group is immutable and safe for
// concurrent use. A nil *Group allows everything.
type Group struct {
	// set is the compiled rules of the records that apply, merged into one
	// set, or none (set.n is 0) when the records have no rule. In files
	// built to defeat merging (see resolve), a group is split: set holds
	// the rules of some of its records, or none, and the own sets
	// (file.sets) of the rest are asked one by one.
	set ruleSet
	// file is the Robots the group belongs to; its records are recN
	// indexes of records there, in file order, from recLo in
	// file.more.recs, or, if it has one, record recLo. The rest of a split
	// group are restN from restLo in file.more.recs.
	file          *Robots
	recLo, recN   int32
	restLo, restN int32
	// named reports whether some user-agent line named one of the agents.
	// Otherwise the records are those that name "*", if any.
	named bool
	// ruled reports whether some record of the group has a rule line.
	ruled bool
	// split reports that the group is split: past the merge budget, the
	// records of the rest are asked one by one, beside set.
	split bool
	// policy overrides the rules for files that were not fetched.
	policy policy
}

// A policy says whether a Robots holds parsed rules or a blanket answer
// decided by the HTTP status of the fetch.
type policy uint8

const (
	policyRules       policy = iota // answer from the rules
	policyAllowAll                  // everything is allowed
	policyDisallowAll               // everything but /robots.txt is disallowed
)

// Allowed reports whether url may be fetched by the group's crawler. url is a
// full URL ("https://example.com/a?b") or a path that starts with "/"; see
// Robots.Allowed for how it is read.
func (g *Group) Allowed(url string) bool {
	path, slash := splitPath(url)
	if slash {
		return g.allowedSlashed(path)
	}
	return g.allowed(path)
}

// allowed answers for an extracted path as decide does, without building
// the Decision.
func (g *Group) allowed(path string) bool {
	switch {
	case path == robotsTxtPath || g == nil:
		return true
	case g.policy != policyRules:
		return g.policy == policyAllowAll
	}
	r, _ := g.best(path, false)
	return r == 0 || r.allow()
}

// best returns the deciding rule for path and the file that holds it, or
// a zero rule and a nil file if no rule matches. With quote, of rules of
// equal rank it returns the one of the earliest line (see match.quote).
func (g *Group) best(path string, quote bool) (rule, *Robots) {
	m := match{quote: quote}
	switch s := &g.set; {
	case s.n > 0 && s.n <= smallSet && s.lo >= 0:
		s.try(s.rules(), path, &m)
	case s.n > 0:
		s.match(path, &m)
	}
	if g.split {
		var s ruleSet
		for _, rec := range g.file.more.recs[g.restLo : g.restLo+g.restN] {
			if g.file.recSet(rec, &s); s.n > 0 {
				s.match(path, &m)
			}
		}
	}
	return m.rule, m.file
}

// Decide reports whether url may be fetched by the group's crawler, and why.
func (g *Group) Decide(url string) Decision {
	path, slash := splitPath(url)
	if slash {
		return g.decideSlashed(path)
	}
	return g.decide(path)
}

// The path of a URL such as "https://example.com?q" is "/?q", which the URL
// does not hold as one string. decideSlashed and allowedSlashed build it in
// a buffer on the stack rather than allocate; neither the decision nor the
// answer keeps it. They are not inlined, so that the buffer does not weigh
// on the frame of the common case.

// slashBuf is the size of the buffer; longer paths are allocated.
const slashBuf = 2048

// decideSlashed answers for "/" + path as decide does.
//
//go:noinline
func (g *Group) decideSlashed(path string) Decision {
	if len(path) >= slashBuf {
		return g.decide("/" + path)
	}
	var buf [slashBuf]byte
	return g.decide(withSlash(&buf, path))
}

// allowedSlashed answers for "/" + path as allowed does.
//
//go:noinline
func (g *Group) allowedSlashed(path string) bool {
	if len(path) >= slashBuf {
		return g.allowed("/" + path)
	}
	var buf [slashBuf]byte
	return g.allowed(withSlash(&buf, path))
}

// withSlash returns "/" + path, held in buf, which must be longer than path.
// By unsafe.String, so that a question on such a URL allocates nothing
// (TestAllowedNoAllocs); a copy would cost an allocation a question.
func withSlash(buf *[slashBuf]byte, path string) string {
	buf[0] = '/'
	n := copy(buf[1:], path)
	return unsafe.String(&buf[0], n+1)
}

// decide answers for an extracted path. It is the precedence of Google's
// robots.txt specification:
//
//	"crawlers use the most specific rule based on the length of the rule
//	path. In case of conflicting rules, including those with wildcards,
//	Google uses the least restrictive rule."
//
// and of its reference parser where the page is silent: a group that names
// the crawler but has no matching rule allows everything, and the global
// group is not consulted.
func (g *Group) decide(path string) Decision {
	if path == robotsTxtPath {
		return Decision{Allowed: true, Reason: ReasonRobotsTxt}
	}
	if g == nil {
		return Decision{Allowed: true, Reason: ReasonNoGroup}
	}
	switch g.policy {
	case policyAllowAll:
		return Decision{Allowed: true, Reason: ReasonAllowAll}
	case policyDisallowAll:
		return Decision{Allowed: false, Reason: ReasonDisallowAll}
	}
	best, file := g.best(path, true)
	d := Decision{Allowed: true, Global: !g.named && g.recN > 0}
	switch {
	case file != nil:
		d.Allowed = best.allow()
		d.Reason = ReasonRule
		d.Rule = public(file, best)
	case g.recN == 0:
		d.Reason = ReasonNoGroup
	case !g.ruled:
		d.Reason = ReasonEmptyGroup
	default:
		d.Reason = ReasonNoMatch
	}
	return d
}

// records returns the indexes of the records of g, in file order. The
// record of a group of one is recLo itself, which records returns in one.
func (g *Group) records(one *[1]int32) []int32 {
	switch {
	case g.file == nil || g.recN == 0:
		return nil
	case g.recN == 1:
		one[0] = g.recLo
		return one[:]
	}
	return g.file.more.recs[g.recLo : g.recLo+g.recN]
}

// robotsTxtPath is the only path of a robots.txt file (case-sensitive:
// /Robots.txt is not one), and always allowed (RFC 9309, section 2.2.2).
const robotsTxtPath = "/robots.txt"

// group sets *g, a zero Group, to the group for one agent: a value, which
// the questions of Robots ask without allocating.
func (r *Robots) group(agent string, g *Group) {
	switch {
	case r == nil:
		return
	case r.policy != policyRules:
		*g = blanket[r.policy]
	default:
		ref, named := r.lookupRef(agent)
		r.refOrGlobal(ref, named, g)
	}
}

// blanket holds the groups of AllowAll and DisallowAll.
var blanket = [...]Group{
	policyRules:       {},
	policyAllowAll:    {policy: policyAllowAll},
	policyDisallowAll: {policy: policyDisallowAll},
}
