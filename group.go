package robots

import "unsafe"

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
	// set is the merged rules of the records that apply (set.n is 0 if
	// none); of a split group (resolve), of some of them, and the own
	// sets of the rest are asked one by one.
	set ruleSet
	// file holds the group's records: record recLo if recN is 1, else
	// recN from recLo in file.more.recs; a split group's rest are restN
	// from restLo there.
	file          *Robots
	recLo, recN   int32
	restLo, restN int32
	named         bool   // a user-agent line named the agent; else the records name "*"
	ruled         bool   // some record has a rule line
	split         bool   // past the merge budget (resolve)
	policy        policy // overrides the rules for files that were not fetched
}

// A policy says whether a Robots holds parsed rules or a blanket answer.
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
		return g.slashed(path, false).Allowed
	}
	return g.allowed(path)
}

// allowed answers for an extracted path as decide does.
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
		return g.slashed(path, true)
	}
	return g.decide(path)
}

// slashed answers for "/" + path, the path of a URL such as
// "https://example.com?q", which the URL does not hold as one string, as
// decide does, or only Allowed as allowed does. The path is built in a
// buffer on the stack, by unsafe.String, so that the question allocates
// nothing (TestAllowedNoAllocs; a copy would allocate); nothing keeps it.
// Not inlined, so that the buffer does not weigh on the common case.
//
//go:noinline
func (g *Group) slashed(path string, decide bool) Decision {
	var buf [slashBuf]byte
	p := ""
	if len(path) < slashBuf {
		buf[0] = '/'
		p = unsafe.String(&buf[0], copy(buf[1:], path)+1)
	} else {
		p = "/" + path
	}
	if decide {
		return g.decide(p)
	}
	return Decision{Allowed: g.allowed(p)}
}

// slashBuf is the size of slashed's buffer; longer paths are allocated.
const slashBuf = 2048

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

// records returns the indexes of the records of g, in file order (that of
// a group of one in one).
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

// group sets *g, a zero Group, to the group for one agent.
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
