package robots

import (
	"cmp"
	"slices"
	"strings"
	"sync/atomic"
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
	shapeAnchored              // shapeWildcard, to be matched up to the end of the path
)

// A rule is a compiled allow or disallow line, in 16 bytes.
type rule struct {
	// key orders rules by precedence, a greater key winning, and holds
	// flags in its low bits; see ruleKey for its layout.
	key uint64
	// off is the offset of the escaped pattern in the text of its set. Only
	// its first end bytes are matched: a trailing "$" is held by the shape,
	// and trailing "*"s match anything. Its first head bytes are the
	// literal head, the part before the first "*".
	off       uint32
	head, end uint16
}

// The layout of the key of a rule, from its most significant bit:
//
//	 56        41   40   39         20  19     4    3       2     1  0
//	┌────────────┬─────┬─────────────┬─────────┬───────┬─────┬───────┐
//	│  priority  │allow│ maxLine-line│   need  │derived│  -  │ shape │
//	└────────────┴─────┴─────────────┴─────────┴───────┴─────┴───────┘
//	 precedence (ruleKey), 37 bits        flags, flagBits
//
// The priority is the length of the escaped pattern: a line holds at most
// 16,663 bytes, which escape to fewer than 1<<16. A file of MaxSize bytes
// has fewer than 1<<lineBits lines; counting lines down makes the earlier
// line win. derived marks the rule an allow of ".../index.htm" implies (see
// indexHTM). need is, for
// a wildcard rule, the set of bytes a path must hold for it to match, as a
// bitmask of byteBit: a cheap test that rules out most wildcard patterns
// without matching them, kept in the key rather than beside it.
const (
	lineBits  = 20
	maxLine   = 1<<lineBits - 1 // greater than the number of lines of any file Parse reads
	allowBit  = 1 << lineBits   // in a precedence key
	prioShift = lineBits + 1    // of the priority in a precedence key
	keyBits   = prioShift + 16  // of a precedence key

	shapeMask  = 3      // selects the shape in the flags; bit 2 is free
	derivedBit = 1 << 3 // the rule is implied by an index.htm allow rule
	needShift  = 4      // of the need bitmask in the flags
	flagBits   = needShift + 16
)

func (r *rule) shape() shape { return shape(r.key & shapeMask) }

// allow reports whether r is an allow rule.
func (r *rule) allow() bool { return r.key>>flagBits&allowBit != 0 }

// line returns the line of r.
func (r *rule) line() int { return maxLine - int(r.key>>flagBits&maxLine) }

// priority returns the priority of r, the length of its escaped pattern.
func (r *rule) priority() int { return int(r.key >> flagBits >> prioShift) }

// derived reports whether r is implied by an index.htm allow rule.
func (r *rule) derived() bool { return r.key&derivedBit != 0 }

// ruleKey returns the precedence key of a rule: its priority, then 1 for
// allow, then its line number counted down from maxLine, so that a greater
// key wins. This is the one definition of rule precedence.
func ruleKey(priority int, allow bool, line int) uint64 {
	k := uint64(priority)<<prioShift | uint64(maxLine-line)
	if allow {
		k |= allowBit
	}
	return k
}

// byteBit returns the bit of c in a set of bytes, which conflates bytes
// that are equal modulo 16 (a set takes 16 bits of the key of a wildcard
// rule).
func byteBit(c byte) uint16 { return 1 << (c & 15) }

// need returns the set of bytes a path must hold for r to match.
func (r *rule) need() uint16 { return uint16(r.key >> needShift) }

// byteSet returns the set of the bytes of s, except "*".
func byteSet(s string) uint16 {
	var set uint16
	for i := 0; i < len(s); i++ {
		if s[i] != '*' {
			set |= byteBit(s[i])
		}
	}
	return set
}

// A ruleSet is the compiled rules of one record.
type ruleSet struct {
	// file holds the kept text, which holds the patterns, and the rules as
	// written, which Decide quotes.
	file *Robots
	// rules are the compiled rules, sorted by key, greatest first. In small
	// sets they are tried in order; the first that matches wins.
	rules []rule

	// index is the index of a set of more than smallSet rules, built on
	// its first query (index.go), or nil.
	index atomic.Pointer[setIndex]
}

// A setIndex finds the rules of a large set that may match a path.
type setIndex struct {
	// nodes describe the distinct heads of the rules, sorted.
	nodes []node
	// byHead holds indexes into rules, grouped by head and sorted by key,
	// greatest first, within each head.
	byHead []int32
	// float holds the wildcard rules whose head is too short to select them,
	// when there are many.
	float *floatTable
}

// tryWildcard updates m with the wildcard rule j of s if it matches path,
// and reports whether it does. The caller has checked that the rule beats
// m.
func (s *ruleSet) tryWildcard(j int32, path string, m *match) bool {
	r := &s.rules[j]
	if !m.hasSet {
		m.has, m.hasSet = byteSet(path), true
	}
	if r.need()&^m.has != 0 || r.shape() == shapeAnchored && path[len(path)-1] != s.pattern(r)[r.end-1] {
		return false
	}
	if !strings.HasPrefix(path, s.head(r)) || !s.matchesAfterHead(r, path) {
		return false
	}
	m.rule, m.set, m.key = r, s, r.key
	return true
}

// smallSet is the size up to which a rule set is searched linearly, which is
// faster than the index for the groups of typical files.
const smallSet = 32

// A scratch holds the temporary slices of compile, for reuse from one
// record to the next.
type scratch struct {
	order   []uint64
	escaped []string
	offs    []uint32
}

// compile compiles rules, some of the rules of file.
func compile(file *Robots, rules []srcLine, sc *scratch) *ruleSet {
	text := file.text
	s := &ruleSet{file: file}
	// Escape the patterns, and sort the rules by key, greatest first: the precedence keys, shifted left, with the index of
	// the rule and whether it is the derived index.htm rule in the low bits,
	// sort as integers.
	const low = 64 - keyBits // bits for index<<1 | derived
	// One more key for an index.htm rule; at are the offsets of the
	// escaped patterns in text.
	order := slices.Grow(sc.order[:0], len(rules)+1)
	escaped := slices.Grow(sc.escaped[:0], len(rules))[:len(rules)]
	at := slices.Grow(sc.offs[:0], len(rules))[:len(rules)]
	defer func() { sc.order, sc.escaped, sc.offs = order, escaped, at }()
	for i, l := range rules {
		r := l.rule(text)
		p := r.Pattern
		if l.escaped() {
			p = escapePattern(p)
		}
		escaped[i] = p
		if p == "" {
			continue // priority 0: never decides
		}
		order = append(order, ruleKey(len(p), r.Allow, r.Line)<<low|uint64(i)<<1)
		if j := indexHTM(p, r.Allow); j >= 0 {
			order = append(order, ruleKey(j+2, true, r.Line)<<low|uint64(i)<<1|1)
		}
	}
	for i, l := range rules {
		// An unchanged pattern is where the parser found it; the parser put
		// a changed one right after it (keepRule).
		at[i] = l.off()
		if l.escaped() {
			at[i] += l.size()
		}
	}
	if len(order) == 0 {
		return s
	}
	slices.Sort(order)
	s.rules = make([]rule, len(order))
	for k, o := range order {
		i := int(o & (1<<low - 1) >> 1)
		p := escaped[i]
		r := &s.rules[len(order)-1-k]
		if o&1 == 0 {
			*r = newRule(p, len(p), false, rules[i], at[i])
		} else {
			j := indexHTM(p, true)
			*r = newRule(p[:j+1], j+2, true, rules[i], at[i])
		}
	}
	for i := range s.rules {
		if r := &s.rules[i]; r.shape() >= shapeWildcard {
			r.key |= uint64(byteSet(s.pattern(r)[r.head:])) << needShift
		}
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

// newRule compiles escaped pattern p of priority prio, written as r, found
// at offset off of the kept text. With dollar set, p is matched as if it
// were followed by "$".
func newRule(p string, prio int, dollar bool, r srcLine, off uint32) rule {
	key := ruleKey(prio, r.allow(), r.line()) << flagBits
	if dollar {
		key |= derivedBit
	}
	anchored := dollar
	if !anchored && strings.HasSuffix(p, "$") {
		p = p[:len(p)-1]
		anchored = true
	}
	if strings.HasSuffix(p, "*") {
		// A trailing "*" matches whatever follows, so "$" after it changes
		// nothing: "/fish*" and "/fish*$" are "/fish" of greater priority.
		p = strings.TrimRight(p, "*")
		anchored = false
	}
	head := strings.IndexByte(p, '*')
	var sh shape
	switch {
	case head >= 0 && anchored:
		sh = shapeAnchored
	case head >= 0:
		sh = shapeWildcard
	case anchored:
		sh, head = shapeExact, len(p)
	default:
		sh, head = shapePrefix, len(p)
	}
	return rule{
		key:  key | uint64(sh),
		off:  off,
		head: uint16(head),
		end:  uint16(len(p)),
	}
}

// pattern returns the part of the pattern of r that is matched.
func (s *ruleSet) pattern(r *rule) string { return s.file.text[r.off : r.off+uint32(r.end)] }

// head returns the literal head of the pattern of r.
func (s *ruleSet) head(r *rule) string { return s.file.text[r.off : r.off+uint32(r.head)] }

// A match is the best rule found so far for a path.
type match struct {
	rule *rule
	set  *ruleSet // the set of rule
	key  uint64
	// has is the byteSet of the path, once computed (hasSet).
	has    uint16
	hasSet bool
}

// match updates m with the best rule of s that matches path, if it beats the
// one m holds.
func (s *ruleSet) match(path string, m *match) {
	if len(s.rules) <= smallSet {
		for i := range s.rules {
			r := &s.rules[i]
			switch {
			case r.key <= m.key:
				return
			case !strings.HasPrefix(path, s.head(r)):
			case r.shape() >= shapeWildcard:
				if s.tryWildcard(int32(i), path, m) {
					return
				}
			case s.matchesAfterHead(r, path):
				m.rule, m.set, m.key = r, s, r.key
				return
			}
		}
		return
	}
	x := s.index.Load()
	if x == nil {
		x = s.indexNow()
	}
	if x.float != nil {
		s.matchFloating(x.float, path, m)
	}
	// Find the greatest head <= path; the heads that are prefixes of path
	// are it or its parents, up to the length they share.
	lo, hi := 0, len(x.nodes)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.nodeHead(x, int32(mid)) <= path {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	i := int32(lo - 1)
	if i < 0 {
		return
	}
	common := commonPrefixLen(s.nodeHead(x, i), path)
	for ; i >= 0; i = x.nodes[i].parent {
		n := &x.nodes[i]
		if n.top < topOf(m.key) {
			return
		}
		if int(n.n) > common {
			continue
		}
		for _, j := range x.byHeadOf(i) {
			r := &s.rules[j]
			if r.key <= m.key {
				break
			}
			if r.shape() >= shapeWildcard {
				if s.tryWildcard(j, path, m) {
					break
				}
				continue
			}
			if s.matchesAfterHead(r, path) {
				m.rule, m.set, m.key = r, s, r.key
				break
			}
		}
	}
}

// matchesAfterHead reports whether r matches path, which starts with the
// head of r.
func (s *ruleSet) matchesAfterHead(r *rule, path string) bool {
	switch r.shape() {
	case shapePrefix:
		return true
	case shapeExact:
		return len(path) == int(r.head)
	}
	return matchWildcard(path[r.head:], s.pattern(r)[r.head:], r.shape() == shapeAnchored)
}

// public returns r as written: the rule of its line.
func (s *ruleSet) public(r *rule) Rule {
	line := r.line()
	src := s.file.rules
	i, _ := slices.BinarySearchFunc(src, line, func(w srcLine, line int) int { return cmp.Compare(w.line(), line) })
	return src[i].rule(s.file.text)
}

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
