package robots

import (
	"strconv"
	"strings"
	"unsafe"

	"github.com/gorep/robots/internal/ruleset"
)

// A Group is the set of rules that applies to one crawler, or to several
// crawlers asking together, resolved once so that many URLs can be checked
// cheaply. Get one from Robots.Group.
type Group struct {
	// set is the merged rules of the records that apply; of a split group,
	// of some of them, and the own sets of the rest are asked one by one.
	set ruleset.Set
	// file holds the records: record recLo if recN is 1, else recN from
	// recLo in file.more.recs; a split group's rest are restN from restLo.
	file          *Robots
	recLo, recN   int32
	restLo, restN int32
	named         bool   // a user-agent line named the agent; else the records name "*"
	ruled         bool   // some record has a rule line
	split         bool   // past the merge budget
	policy        policy // a blanket answer, for files that were not fetched
}

// An ownSet is the set of one record alone (a ruleset.Set is a group's), low
// bits first: n (6), ruled (1: the record has a rule line), lo (25). n is
// ownSetBig for more than ruleset.SmallSet rules (lo: its index in
// moreGroups.bigs), ownSetLines for a set read from the line table (lo: its
// rule lines).
type ownSet uint32

const (
	ownSetBig   = 1<<6 - 1
	ownSetLines = 1<<6 - 2
	ownSetRuled = 1 << 6
	ownSetLo    = 7
)

// String returns the rule as it would be written, such as "Disallow: /a".
func (r Rule) String() string { return r.key() + ": " + r.Pattern }

func (r Rule) key() string {
	if r.Allow {
		return "Allow"
	}
	return "Disallow"
}

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
	r := g.best(path, false)
	return r == 0 || r.Allow()
}

// best returns the deciding rule for path, or a zero rule; with quote, see
// ruleset.NewMatch.
func (g *Group) best(path string, quote bool) ruleset.Rule {
	m := ruleset.NewMatch(quote)
	if !g.set.Empty() {
		g.set.Match(path, &m)
	}
	if g.split {
		var s ruleset.Set
		for _, rec := range g.file.more.recs[g.restLo : g.restLo+g.restN] {
			if g.file.ownSet(rec, &s); !s.Empty() {
				s.Match(path, &m)
			}
		}
	}
	return m.Best()
}

// Decide reports whether url may be fetched by the group's crawler, and why.
func (g *Group) Decide(url string) Decision {
	path, slash := splitPath(url)
	if slash {
		return g.slashed(path, true)
	}
	return g.decide(path)
}

// slashed answers for "/" + path ("https://example.com?q"), built in a
// stack buffer by unsafe.String so that nothing allocates
// (TestAllowedNoAllocs); not inlined, to keep the buffer off the common case.
//
//go:noinline
func (g *Group) slashed(path string, decide bool) Decision {
	var buf [slashBuf]byte // longer paths are allocated
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

const slashBuf = 2048

// decide answers for an extracted path as the package doc says.
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
	best := g.best(path, true)
	d := Decision{Allowed: true, Global: !g.named && g.recN > 0}
	switch {
	case best != 0:
		d.Allowed = best.Allow()
		d.Reason = ReasonRule
		d.Rule = public(g.file, best)
	case g.recN == 0:
		d.Reason = ReasonNoGroup
	case !g.ruled:
		d.Reason = ReasonEmptyGroup
	default:
		d.Reason = ReasonNoMatch
	}
	return d
}

const robotsTxtPath = "/robots.txt" // always allowed; "/Robots.txt" is not it

// group sets *g, a zero Group, to the group for one agent.
func (r *Robots) group(agent string, g *Group) {
	switch {
	case r == nil:
		return
	case r.policy != policyRules:
		g.policy = r.policy
	default:
		ref, named := r.lookupRef(agent)
		r.refOrGlobal(ref, named, g)
	}
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

// enumName returns names[v], or typ(v) if v has no name.
func enumName[T ~uint8](names []string, v T, typ string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

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

// splitPath returns the part of url that rules are matched against: the
// path, parameters and query, without the fragment; when slash is true,
// that part is "/" followed by path. As Google's reference: a leading "//"
// is skipped; "://" ends a scheme only before the first "/", "?" or ";";
// the authority runs up to the first "/", "?" or ";"; the first "#" ends
// it ("/" if before the path); "?" or ";" first gets a "/" in front; no
// path gives "/"; the part found ends at its first NUL, as the
// reference's C string of it does (a NUL before the path is passed over
// like any byte of the authority); nothing else changes.
func splitPath(url string) (path string, slash bool) {
	start := 0
	if len(url) > 0 && url[0] == '/' {
		if len(url) == 1 || url[1] != '/' {
			return cutFragment(url), false // a path: "/" comes before any "://"
		}
		start = 2
	}
	// "://" comes first exactly when the first "/" is its "/".
	i := indexPathStart(url, start)
	if i > start && url[i] == '/' && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
		i = indexPathStart(url, i+2)
	}
	if i < 0 || url[i] == '#' {
		return "/", false // no path, or the fragment starts before it
	}
	path = cutFragment(url[i:])
	return path, path[0] != '/'
}

// cutFragment returns path up to its fragment and then up to its first NUL.
func cutFragment(path string) string {
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path = path[:i]
	}
	if i := strings.IndexByte(path, 0); i >= 0 {
		path = path[:i]
	}
	return path
}

// indexPathStart returns the index of the first "/", "?", ";" or "#" of
// url from start, or -1.
func indexPathStart(url string, start int) int {
	for i := start; i < len(url); i++ {
		if pathStarts[url[i]] {
			return i
		}
	}
	return -1
}

// pathStarts holds the bytes that end the authority of a URL.
var pathStarts = [256]bool{'/': true, '?': true, ';': true, '#': true}

// linesOwnSet returns the ownSet of a record of n rule lines, 1 to
// scannedMax, that its questions read from the line table.
func linesOwnSet(n int32) ownSet { return ownSet(n)<<ownSetLo | ownSetLines | ownSetRuled }

// newOwnSet returns the ownSet of the set of n rules from lo (of more
// than SmallSet: from lo in moreGroups.bigs), of a record with a rule line
// if ruled.
func newOwnSet(lo, n int32, ruled bool) ownSet {
	if n > ruleset.SmallSet {
		n = ownSetBig
	}
	rs := ownSet(lo)<<ownSetLo | ownSet(n)
	if ruled {
		rs |= ownSetRuled
	}
	return rs
}

// public returns r, a rule of file, as written: the rule of its line.
func public(file *Robots, r ruleset.Rule) Rule { return publicAt(file, r.Off()) }

// publicAt returns the rule of file whose pattern is at offset off of its
// kept text, as written.
func publicAt(file *Robots, off uint32) Rule {
	return ruleOf(file.table().RuleAt(off), file.src.Text())
}
