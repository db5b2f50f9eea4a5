package robots

import (
	"strings"
)

// Patterns and how they match (Google's spec; DESIGN.md for the layers).
//
//	pattern = *( literal | "*" ) [ "$" ]
//
// A pattern is anchored at the start of the path (with its parameters and
// query). "*" matches any run of bytes; "$" is special only as the last
// byte, where it matches the end of the path. Other bytes match
// themselves after appendEscaped (a raw rule is escaped as it is matched:
// escape.go). The priority of a rule is the length of its escaped pattern;
// the highest priority wins, allow on a tie, then the earliest line; an
// empty pattern never decides. Every pattern has a literal head, the
// bytes before its first "*"; wildcard patterns are matched segment by
// segment, leftmost first: linear, no backtracking.

// A shape says how a compiled pattern matches.
type shape uint8

const (
	shapePrefix   shape = iota // head is a prefix of the path
	shapeExact                 // head is the whole path
	shapeWildcard              // head is a prefix and the rest matches wildcard-wise
	shapeAnchored              // shapeWildcard, to be matched up to the end of the path
)

// A rule is a compiled allow or disallow line, in 8 bytes, from the least
// significant bit:
//
//	 0     19  20  21     36 37   44 45   46   47      48        63
//	┌────────┬───┬─────────┬──────┬───────┬──────┬────────────┐
//	│  off   │raw│  head   │ need │ shape │allow │  priority  │
//	└────────┴───┴─────────┴──────┴───────┴──────┴────────────┘
//
// off is the offset of the pattern as written in the kept text (see
// srcLine); raw is set when escaping changes it (escapeChanges), and the
// rest is of the escaped pattern. head is the length of the literal head.
// need, for a wildcard rule, is the set of bytes a path must hold for it
// to match (byteBit), a cheap test that rules out most (a table's marks
// and links.go reuse it). The top 17 bits are the rank, priority then
// allow. The line of a rule is that of the line-table entry holding its
// pattern (Robots.ruleAt), looked up only to quote it (Decide) and then
// to break a tie of rank; Allowed never needs it.
type rule uint64

const (
	ruleRawBit    = 20
	ruleRaw       = 1 << ruleRawBit
	ruleOffBits   = ruleRawBit + 1 // with raw
	ruleHeadShift = ruleOffBits
	ruleHeadBits  = 16
	ruleNeedShift = ruleHeadShift + ruleHeadBits
	ruleShapeShft = ruleNeedShift + 8
	ruleRankShift = ruleShapeShft + 2 // of the rank: priority<<1 | allow
	ruleAllow     = 1 << ruleRankShift
)

func (r rule) off() uint32 { return uint32(r & (ruleRaw - 1)) }

// headLen returns the length of the literal head of the pattern of r.
func (r rule) headLen() int { return int(r >> ruleHeadShift & (1<<ruleHeadBits - 1)) }

// need returns the set of bytes a path must hold for r to match.
func (r rule) need() uint8 { return uint8(r >> ruleNeedShift) }

func (r rule) shape() shape { return shape(r >> ruleShapeShft & 3) }

// derived reports whether r is the rule an index.htm allow rule implies
// (indexHTM): an anchored rule whose written pattern does not end in "$".
func (s *ruleSet) derived(r rule) bool {
	if !r.allow() || r.shape() != shapeExact && r.shape() != shapeAnchored {
		return false
	}
	w := r.written(s.file.text)
	return w[len(w)-1] != '$'
}

// allow reports whether r is an allow rule.
func (r rule) allow() bool { return r&ruleAllow != 0 }

// priority returns the priority of r, the length of its escaped pattern.
func (r rule) priority() int { return int(r >> (ruleRankShift + 1)) }

// rank returns the priority of r and whether it allows, as one number: a
// greater rank wins. The zero rule has rank 0, below any rule's.
func (r rule) rank() uint32 { return uint32(r >> ruleRankShift) }

// ruleKey returns the precedence key of a rule, the one definition of
// precedence: its priority, then 1 for allow, then its line counted down
// from maxLine; a greater key wins. rank is its part without the line.
func ruleKey(priority int, allow bool, line int) uint64 {
	k := uint64(priority)<<prioShift | uint64(maxLine-line)
	if allow {
		k |= allowBit
	}
	return k
}

// A file of MaxSize bytes has fewer than 1<<lineBits lines.
const (
	lineBits  = 20
	maxLine   = 1<<lineBits - 1 // greater than the number of lines of any file Parse reads
	allowBit  = 1 << lineBits   // in a precedence key
	prioShift = lineBits + 1    // of the priority in a precedence key
	keyBits   = prioShift + 16  // of a precedence key
)

// byteBit returns the bit of c in a set of bytes of 8 bits (modulo 8).
func byteBit(c byte) uint8 { return 1 << (c & 7) }

// byteSet returns the set of the bytes of s, except "*".
func byteSet(s string) uint8 {
	var set uint8
	for i := 0; i < len(s); i++ {
		if s[i] != '*' {
			set |= byteBit(s[i])
		}
	}
	return set
}

// pathSet is byteSet for a path, "*" included: more bits let more rules
// through a need test, never fewer, and its loop has no branch.
func pathSet(s string) uint8 {
	var set uint8
	for i := 0; i < len(s); i++ {
		set |= byteBit(s[i])
	}
	return set
}

// A ruleSet is the compiled rules of one or more records.
type ruleSet struct {
	// The compiled rules are n from lo in file.compiled: in a set of at
	// most smallSet, sorted by key, greatest first (the first that matches
	// wins); in a larger one, in file order until laid out. A lazy set
	// (lazySet) counts its rule lines in n and compiles its own. A set of
	// one record read from the line table (scanRecord) has lo ^rec and n
	// its rule lines, at most scannedMax, none raw.
	file  *Robots
	lo, n int32
	// big is the state and layout of a set of more than smallSet rules or
	// rule lines (lazy.go, index.go), nil in smaller ones.
	big *lazyLayout
}

// A recSet is the set of one record alone, as Robots.sets keeps it, in 4
// bytes, from the least significant bit: n (6), ruled (1: the record has a
// rule line), lo (25). n is recSetBig for more than smallSet rules (lo:
// its index in moreGroups.bigs), recSetLines for a set read from the line
// table (lo: its rule lines).
type recSet uint32

const (
	recSetBig   = 1<<6 - 1 // more than smallSet
	recSetLines = 1<<6 - 2 // not compiled
	recSetRuled = 1 << 6
	recSetLo    = 7
)

// linesRecSet returns the recSet of a record of n rule lines, 1 to
// scannedMax, that its questions read from the line table.
func linesRecSet(n int32) recSet { return recSet(n)<<recSetLo | recSetLines | recSetRuled }

// newRecSet returns the recSet of s, of a record with a rule line if ruled.
func newRecSet(s *ruleSet, ruled bool) recSet {
	n := s.n
	if n > smallSet {
		n = recSetBig
	}
	rs := recSet(s.lo)<<recSetLo | recSet(n)
	if ruled {
		rs |= recSetRuled
	}
	return rs
}

// rules returns the compiled rules of s: none for a lazy set not yet
// compiled or laid out (see ready).
func (s *ruleSet) rules() []rule {
	if s.big != nil && s.big.lazy() {
		return s.big.compiled()
	}
	return s.file.compiled[s.lo : s.lo+s.n]
}

// smallSet is the size up to which a set is searched linearly.
const smallSet = 32

// head returns the literal head of the escaped pattern of r, made anew
// for a raw rule (as pattern and text: for layouts and Check).
func (s *ruleSet) head(r rule) string {
	off := r.off()
	if r&ruleRaw != 0 {
		return s.escaped(r, r.headLen())
	}
	return s.file.text[off : off+uint32(r.headLen())]
}

// pattern returns the part of the escaped pattern of r that is matched:
// without a trailing "$", which the shape holds, nor trailing "*"s, which
// match anything.
func (s *ruleSet) pattern(r rule) string {
	off := r.off()
	if r&ruleRaw != 0 {
		return s.escaped(r, s.end(r))
	}
	return s.file.text[off : off+uint32(s.end(r))]
}

// end returns the length of the part of the pattern of r that is matched.
func (s *ruleSet) end(r rule) int {
	if r.shape() < shapeWildcard {
		return r.headLen()
	}
	n := r.priority()
	if r.shape() == shapeAnchored {
		return n - 1 // its "$", written or implied (derived)
	}
	p := r.written(s.file.text)
	if c := p[len(p)-1]; c != '*' && c != '$' {
		return n
	}
	return n - (len(p) - len(strings.TrimRight(strings.TrimSuffix(p, "$"), "*")))
}

// line returns the line of r.
func (s *ruleSet) line(r rule) int { return s.file.ruleAt(r.off()).line() }

// key returns the precedence key of r (ruleKey).
func (s *ruleSet) key(r rule) uint64 {
	return ruleKey(r.priority(), r.allow(), s.line(r))
}

// public returns r, a rule of file, as written: the rule of its line.
func public(file *Robots, r rule) Rule { return file.ruleAt(r.off()).rule(file.text) }

// A match is the best rule found so far for a path.
type match struct {
	file   *Robots // of the sets asked, once a rule matched
	rule   rule    // zero while no rule matched
	rank   uint32  // of rule
	has    uint8   // byteSet of the path, once hasSet
	hasSet bool
	// quote: the rule is quoted (Decide), and of equal ranks the earliest
	// line wins; else the first found is kept.
	quote bool
}

// take makes rule r of set s the best so far.
func (m *match) take(s *ruleSet, r rule) { m.file, m.rule, m.rank = s.file, r, r.rank() }

// beatenBy reports whether rule r of set s takes precedence over the best
// rule so far: a greater rank, or, when the rule is quoted, an equal rank
// and an earlier line.
func (m *match) beatenBy(s *ruleSet, r rule) bool {
	if a := r.rank(); a != m.rank {
		return a > m.rank
	}
	return m.quote && s.line(r) < m.file.ruleAt(m.rule.off()).line()
}

// try tries the rules of seq, sorted by key, greatest first, on path, and
// updates m with the first that matches and beats it: matches written out,
// the loop of every small set. Its test of rank, repeated elsewhere, is
// over the inliner's budget as a method.
func (s *ruleSet) try(seq []rule, path string, m *match) {
	text := s.file.text
	for _, r := range seq {
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			return
		}
		off, n := r.off(), r.headLen()
		if len(path) < n {
			continue
		}
		if r&ruleRaw != 0 {
			if s.matchesRaw(r, path, m) {
				m.take(s, r)
				return
			}
			continue
		}
		// The last byte of the head first: most misses without memequal.
		if n > 0 && path[n-1] != text[off+uint32(n)-1] || path[:n] != text[off:off+uint32(n)] {
			continue
		}
		if sh := r.shape(); sh == shapePrefix || sh == shapeExact && len(path) == n ||
			sh >= shapeWildcard && s.matchesTail(r, path, m) {
			m.take(s, r)
			return
		}
	}
}

// match updates m with the best rule of s that matches path, if it beats the
// one m holds.
func (s *ruleSet) match(path string, m *match) {
	switch {
	case s.lo < 0:
		s.scanRecord(path, m)
		return
	case s.n <= smallSet:
		s.try(s.rules(), path, m)
		return
	}
	b := s.big.Load()
	if b == nil {
		if b = s.answerUnlaid(path, m); b == nil {
			return // answered without a layout (lazy.go)
		}
	}
	b.match(s, path, m)
}

// matches reports whether r matches path.
func (s *ruleSet) matches(r rule, path string, m *match) bool {
	if r&ruleRaw != 0 {
		return s.matchesRaw(r, path, m)
	}
	off, n := r.off(), r.headLen()
	if len(path) < n || path[:n] != s.file.text[off:off+uint32(n)] {
		return false
	}
	return s.matchesAfterHead(r, path, m)
}

// matchesAfterHead reports whether r matches path, which starts with the
// head of r.
func (s *ruleSet) matchesAfterHead(r rule, path string, m *match) bool {
	switch r.shape() {
	case shapePrefix:
		return true
	case shapeExact:
		return len(path) == r.headLen()
	}
	return s.matchesTail(r, path, m)
}

// matchesTail reports whether the wildcard rule r matches path, which
// starts with the head of r.
func (s *ruleSet) matchesTail(r rule, path string, m *match) bool {
	if !m.hasSet {
		m.has, m.hasSet = pathSet(path), true
	}
	if r.need()&^m.has != 0 {
		return false
	}
	if r&ruleRaw != 0 {
		return s.matchesTailRaw(r, path)
	}
	p := s.pattern(r)
	anchored := r.shape() == shapeAnchored
	if anchored && path[len(path)-1] != p[len(p)-1] {
		return false
	}
	return matchWildcard(path[r.headLen():], p[r.headLen():], anchored)
}

// matchWildcard reports whether pattern, which starts with "*" and does not
// end with one, matches a prefix of path (all of path if anchored). Each
// segment taken at its leftmost occurrence is optimal: a later one leaves
// less room for those that follow.
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
