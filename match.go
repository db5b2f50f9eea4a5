package robots

import (
	"cmp"
	"slices"
	"strings"
)

// Patterns and how they match.
//
// The value of an allow or disallow rule is a pattern over the path of a URL
// (with its parameters and query):
//
//	pattern = *( literal | "*" ) [ "$" ]
//
// A pattern is anchored at the start of the path. "*" matches any run of
// bytes, including none; "$" is special only as the last byte of a pattern,
// where it matches the end of the path; elsewhere it is a literal byte. All
// other bytes match themselves, case-sensitively, after the escaping done by
// escapePattern. A pattern that matches a prefix of the path matches the
// path.
//
// The priority of a matching rule is the length in bytes of its escaped
// pattern, wildcards included. Among the matching rules of a group the
// highest priority wins; on equal priority allow wins over disallow; among
// rules of one kind and priority the earliest line is reported. An empty
// pattern never decides.
//
// Patterns are compiled by shape: a literal prefix ("/fish", and "/fish*"
// whose trailing "*" changes nothing but its priority), an anchored literal
// ("/fish$"), or a wildcard pattern ("/*.php$"). Every pattern has a literal
// head, the bytes before its first "*". The heads of a group are kept sorted,
// each linked to the longest other head that is a prefix of it, so that one
// binary search finds all heads that are prefixes of a path; only the
// wildcard patterns whose head matches are tried, and those are tried from
// the highest priority down, stopping as soon as nothing left can win.
// Wildcard patterns are matched segment by segment, leftmost first, which is
// linear in the length of the path and pattern: no backtracking, no regexp.

// A shape says how a compiled pattern matches.
type shape uint8

const (
	shapePrefix   shape = iota // head is a prefix of the path
	shapeExact                 // head is the whole path
	shapeWildcard              // head is a prefix and the rest matches wildcard-wise
)

// A rule is a compiled allow or disallow line.
type rule struct {
	// pattern is the escaped pattern. Only pattern[:end] is matched: a
	// trailing "$" is held by shape or anchored, and trailing "*"s match
	// anything. pattern[:head] is the literal head, the part before the
	// first "*".
	pattern   string
	head, end int32
	// src is the index of the rule as written in its record.
	src int32
	// key orders rules by precedence: priority, then allow over disallow,
	// then earlier lines. A greater key wins.
	key   uint64
	allow bool
	shape shape
	// anchored reports whether a wildcard pattern must match up to the end
	// of the path.
	anchored bool
	// need is the set of bytes a path must hold for a wildcard pattern to
	// match it, as a bitmask of byteBit: a cheap test that rules out most
	// wildcard patterns of a large group without matching them.
	need uint64
}

// byteBit returns the bit of c in a set of bytes, which conflates bytes
// that are equal modulo 64.
func byteBit(c byte) uint64 { return 1 << (c & 63) }

// byteSet returns the set of the bytes of s, except "*".
func byteSet(s string) uint64 {
	var set uint64
	for i := 0; i < len(s); i++ {
		if s[i] != '*' {
			set |= byteBit(s[i])
		}
	}
	return set
}

// ruleKey returns the precedence key of a rule: its priority, then 1 for
// allow, then its line number counted down from maxLine, so that a greater
// key wins. Keys take 38 bits: a line holds at most 16,663 bytes, which
// escape to fewer than 1<<16, and a file of MaxSize bytes has fewer than
// 1<<20 lines.
func ruleKey(priority int, allow bool, line int) uint64 {
	k := uint64(priority)<<21 | uint64(maxLine-line)
	if allow {
		k |= 1 << 20
	}
	return k
}

// maxLine is greater than the number of lines of any file Parse reads.
const maxLine = 1<<20 - 1

// A ruleSet is the compiled rules of one record.
type ruleSet struct {
	// src are the rules of the record as written, including those with
	// empty patterns, which are not compiled.
	src []Rule
	// rules are the compiled rules. In small sets they are sorted by key,
	// greatest first, and tried in order; the first that matches wins.
	rules []rule
	// heads are the distinct heads of the rules, sorted, for large sets.
	heads []string
	// nodes describe heads; nodes[i] belongs to heads[i].
	nodes []node
	// byHead holds indexes into rules, grouped by head and sorted by key,
	// greatest first, within each head.
	byHead []int32
}

// A node describes one head of a large rule set.
type node struct {
	// parent is the index of the longest other head that is a prefix of
	// this one, or -1.
	parent int32
	// lo and hi delimit the head's rules in byHead.
	lo, hi int32
	// max is the greatest key of the rules of this head and of its parents:
	// when it cannot beat the best match so far, the search stops.
	max uint64
}

// smallSet is the size up to which a rule set is searched linearly, which is
// faster than the index for the groups of typical files.
const smallSet = 16

// compile compiles the rules of a record.
func compile(rules []Rule) *ruleSet {
	s := &ruleSet{src: rules}
	n := 0
	for _, r := range rules {
		if r.Pattern != "" {
			n++
		}
	}
	if n == 0 {
		return s
	}
	// Sort by key, greatest first: the keys of the rules, shifted left, with
	// the index of the rule and whether it is the derived index.htm rule in
	// the low bits, sort as integers.
	const low = 26 // bits for index<<1 | derived; keys take 38
	order := make([]uint64, 0, n)
	escaped := make([]string, len(rules))
	for i, r := range rules {
		p := escapePattern(r.Pattern)
		escaped[i] = p
		if p == "" {
			continue // priority 0: never decides
		}
		order = append(order, ruleKey(len(p), r.Allow, r.Line)<<low|uint64(i)<<1)
		if j := indexHTM(p, r.Allow); j >= 0 {
			order = append(order, ruleKey(j+2, true, r.Line)<<low|uint64(i)<<1|1)
		}
	}
	slices.Sort(order)
	s.rules = make([]rule, 0, len(order))
	for k := len(order) - 1; k >= 0; k-- {
		i := int(order[k] & (1<<low - 1) >> 1)
		r, p := rules[i], escaped[i]
		if order[k]&1 == 0 {
			s.rules = append(s.rules, newRule(p, len(p), false, i, r))
		} else {
			j := indexHTM(p, true)
			s.rules = append(s.rules, newRule(p[:j+1], j+2, true, i, r))
		}
	}
	if len(s.rules) > smallSet {
		s.index()
	}
	return s
}

// indexHTM returns the index of the last "/" of the escaped pattern p of an
// allow rule when it is followed by "index.htm", or -1.
//
// Google's reference treats an allow of ".../index.htm" or ".../index.html"
// as also allowing the directory itself: "Allow: /d/index.html" allows "/d/"
// too, as if "Allow: /d/$" had been written on the same line.
func indexHTM(p string, allow bool) int {
	if !allow {
		return -1
	}
	if j := strings.LastIndexByte(p, '/'); j >= 0 && strings.HasPrefix(p[j:], "/index.htm") {
		return j
	}
	return -1
}

// newRule compiles escaped pattern p of priority prio, written as r, the
// rule at index i of its record. With dollar set, p is matched as if it
// were followed by "$".
func newRule(p string, prio int, dollar bool, i int, r Rule) rule {
	c := rule{
		pattern: p,
		src:     int32(i),
		key:     ruleKey(prio, r.Allow, r.Line),
		allow:   r.Allow,
	}
	m := p // the part that is matched
	anchored := dollar
	if !anchored && strings.HasSuffix(m, "$") {
		m = m[:len(m)-1]
		anchored = true
	}
	if strings.HasSuffix(m, "*") {
		// A trailing "*" matches whatever follows, so "$" after it changes
		// nothing: "/fish*" and "/fish*$" are "/fish" of greater priority.
		m = strings.TrimRight(m, "*")
		anchored = false
	}
	c.end = int32(len(m))
	i = strings.IndexByte(m, '*')
	switch {
	case i >= 0:
		c.shape = shapeWildcard
		c.head = int32(i)
		c.anchored = anchored
		c.need = byteSet(m[i:])
	case anchored:
		c.shape = shapeExact
		c.head = c.end
	default:
		c.shape = shapePrefix
		c.head = c.end
	}
	return c
}

// headOf returns the literal head of r.
func (r *rule) headOf() string { return r.pattern[:r.head] }

// index builds the head index of a large rule set.
func (s *ruleSet) index() {
	order := make([]int32, len(s.rules))
	for i := range order {
		order[i] = int32(i)
	}
	// By head, then by key, greatest first (rules are sorted by key).
	slices.SortFunc(order, func(a, b int32) int {
		if c := strings.Compare(s.rules[a].headOf(), s.rules[b].headOf()); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	s.byHead = order
	n := 1
	for i := 1; i < len(order); i++ {
		if s.rules[order[i]].headOf() != s.rules[order[i-1]].headOf() {
			n++
		}
	}
	s.heads = make([]string, 0, n)
	s.nodes = make([]node, 0, n)
	var stack []int32 // heads that are prefixes of the current one
	for i := 0; i < len(order); {
		h := s.rules[order[i]].headOf()
		j := i + 1
		for j < len(order) && s.rules[order[j]].headOf() == h {
			j++
		}
		n := node{parent: -1, lo: int32(i), hi: int32(j), max: s.rules[order[i]].key}
		for len(stack) > 0 && !strings.HasPrefix(h, s.heads[stack[len(stack)-1]]) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			n.parent = stack[len(stack)-1]
			n.max = max(n.max, s.nodes[n.parent].max)
		}
		stack = append(stack, int32(len(s.heads)))
		s.heads = append(s.heads, h)
		s.nodes = append(s.nodes, n)
		i = j
	}
}

// A match is the best rule found so far for a path.
type match struct {
	rule *rule
	set  *ruleSet // the set of rule
	key  uint64
	// has is the byteSet of the path, once computed (hasSet).
	has    uint64
	hasSet bool
}

// match updates m with the best rule of s that matches path, if it beats the
// one m holds.
func (s *ruleSet) match(path string, m *match) {
	if s.nodes == nil {
		for i := range s.rules {
			r := &s.rules[i]
			if r.key <= m.key {
				return
			}
			if r.matches(path) {
				m.rule, m.set, m.key = r, s, r.key
				return
			}
		}
		return
	}
	// Find the greatest head <= path; the heads that are prefixes of path
	// are it or its parents, up to the length they share.
	lo, hi := 0, len(s.heads)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.heads[mid] <= path {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	i := int32(lo - 1)
	if i < 0 {
		return
	}
	common := commonPrefixLen(s.heads[i], path)
	for ; i >= 0; i = s.nodes[i].parent {
		n := &s.nodes[i]
		if n.max <= m.key {
			return
		}
		if len(s.heads[i]) > common {
			continue
		}
		for _, j := range s.byHead[n.lo:n.hi] {
			r := &s.rules[j]
			if r.key <= m.key {
				break
			}
			if r.shape == shapeWildcard {
				if !m.hasSet {
					m.has, m.hasSet = byteSet(path), true
				}
				if r.need&^m.has != 0 || r.anchored && path[len(path)-1] != r.pattern[r.end-1] {
					continue
				}
			}
			if r.matchesAfterHead(path) {
				m.rule, m.set, m.key = r, s, r.key
				break
			}
		}
	}
}

// commonPrefixLen returns the length of the longest common prefix of a and b.
func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// matches reports whether r matches path.
func (r *rule) matches(path string) bool {
	return strings.HasPrefix(path, r.headOf()) && r.matchesAfterHead(path)
}

// matchesAfterHead reports whether r matches path, which starts with the
// head of r.
func (r *rule) matchesAfterHead(path string) bool {
	switch r.shape {
	case shapePrefix:
		return true
	case shapeExact:
		return len(path) == int(r.head)
	}
	return matchWildcard(path[r.head:], r.pattern[r.head:r.end], r.anchored)
}

// public returns r as written.
func (s *ruleSet) public(r *rule) Rule { return s.src[r.src] }

// matchWildcard reports whether pattern, which starts with "*" and does not
// end with one, matches a prefix of path (all of path if anchored).
//
// The pattern is a series of literal segments separated by "*". Taking each
// segment at its leftmost occurrence after the previous one is optimal: a
// later occurrence leaves less room for the segments that follow. Only the
// last segment of an anchored pattern must be placed at the very end.
func matchWildcard(path, pattern string, anchored bool) bool {
	for {
		pattern = strings.TrimLeft(pattern, "*")
		i := strings.IndexByte(pattern, '*')
		if i < 0 {
			if anchored {
				return strings.HasSuffix(path, pattern)
			}
			return strings.Contains(path, pattern)
		}
		seg := pattern[:i]
		j := strings.Index(path, seg)
		if j < 0 {
			return false
		}
		path = path[j+len(seg):]
		pattern = pattern[i:]
	}
}

// pathOf returns the part of url that rules are matched against: the path,
// parameters and query, without the fragment. See splitPath.
func pathOf(url string) string {
	path, slash := splitPath(url)
	if slash {
		return "/" + path
	}
	return path
}

// splitPath returns the part of url that rules are matched against: the path,
// parameters and query, without the fragment; when slash is true, that part
// is "/" followed by path. It follows Google's reference parser:
//
//   - a leading "//" is skipped;
//   - "://" ends a scheme only if it comes before the first "/", "?" or ";";
//   - after the scheme (or from the start when there is none) the authority
//     runs up to the first "/", "?" or ";", where the path begins, so
//     "example.com/a" gives "/a" but "/a" gives "/a";
//   - the first "#" ends it, and a "#" before the path gives "/";
//   - a result that starts with "?" or ";" gets a "/" in front, and no path
//     at all gives "/".
//
// The URL is used as given: it must already be %-encoded (RFC 3986), and no
// other normalisation is done.
func splitPath(url string) (path string, slash bool) {
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	rest := url[start:]
	early := indexPathStart(rest)
	if p := strings.Index(rest, "://"); p >= 0 && (early < 0 || p < early) {
		rest = rest[p+3:]
		early = indexPathStart(rest)
	}
	if early < 0 {
		return "/", false
	}
	path = url[len(url)-len(rest)+early:]
	if hash := strings.IndexByte(url[start:], '#'); hash >= 0 {
		if start+hash < len(url)-len(path) {
			return "/", false // the fragment starts before the path
		}
		path = path[:start+hash-(len(url)-len(path))]
	}
	return path, path[0] != '/'
}

// indexPathStart returns the index of the first "/", "?" or ";" in s, or -1.
func indexPathStart(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}
