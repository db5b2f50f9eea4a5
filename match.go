package robots

import (
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
// appendEscaped (a pattern kept as written that escaping changes, a raw
// rule, is escaped as it is matched: escape.go). A pattern that matches a
// prefix of the path matches the path.
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
// head, the bytes before its first "*". A small group tries its rules from
// the highest priority down, stopping at the first that matches. A large
// group tries every rule on its first questions, and, once asked enough
// (lazy.go), sorts its rules by head, so that one binary
// search and a walk along links from head to shorter head find the heads
// that are prefixes of a path, and files its wildcard rules, when it has
// many, by a run of one to three of their literal bytes, found by looking
// up the runs of the path (index.go, floattable.go); only the rules so
// found are tried, from the highest priority down, each head's until one
// matches; of the wildcard rules filed by a run that the path holds, those
// whose tag the bytes beside the run rule out are passed over without a
// look at their pattern (singleTag).
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

// A rule is a compiled allow or disallow line, in 8 bytes. Its bits, from
// the least significant:
//
//	 0     19  20  21     36 37   44 45   46   47      48        63
//	┌────────┬───┬─────────┬──────┬───────┬──────┬────────────┐
//	│  off   │raw│  head   │ need │ shape │allow │  priority  │
//	└────────┴───┴─────────┴──────┴───────┴──────┴────────────┘
//
// off is the offset of the pattern, as written, in the kept text of the
// file (fewer than 1<<19 bytes, see srcLine). raw is set when escaping
// changes the pattern (escapeChanges): it is then matched escaped as it
// goes (escape.go), and everything else in the rule is of its escaped
// pattern. head is the length of the literal head of the escaped pattern,
// the bytes before its first "*": at most the length of the escaped
// pattern, which may be three times a line of maxLineLen bytes (16 bits).
// need is, for a wildcard rule, the set of bytes a path must hold for it to
// match (byteBit): a cheap test that rules out most wildcard patterns
// without matching them (in the anchor table of a large set, a rule
// tried where its anchor stands keeps there a tag of its anchor and the
// byte beside it instead: markSingle). The priority is the length of the escaped pattern
// (below 1<<16: escaping at most triples a line). The top 17 bits are the
// rank, priority then allow: a greater rank wins. Whether the rule is the
// one an allow of ".../index.htm" implies is read from the text
// (ruleSet.derived).
//
// The line of a rule is not kept in it: it is the line of the line-table
// entry whose value holds the pattern (Robots.ruleAt), looked up only to
// quote the rule (Decide), and then to break a tie of rank between rules
// of two sets or heads; Allowed never needs it, since rules of equal rank
// give the same answer.
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
// (indexHTM): an anchored rule whose pattern, which is "…/index.htm…", does
// not end with the "$" an anchored pattern ends with when written (which
// ends its escaped pattern too, and only then).
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
// rule of greater rank wins; rules of equal rank are told apart by line.
// The zero rule has rank 0, less than that of any rule.
func (r rule) rank() uint32 { return uint32(r >> ruleRankShift) }

// ruleKey returns the precedence key of a rule: its priority, then 1 for
// allow, then its line number counted down from maxLine, so that a greater
// key wins. This is the one definition of rule precedence; rank is its
// part without the line.
func ruleKey(priority int, allow bool, line int) uint64 {
	k := uint64(priority)<<prioShift | uint64(maxLine-line)
	if allow {
		k |= allowBit
	}
	return k
}

// The layout of a precedence key: priority, allow, and the line counted
// down. A file of MaxSize bytes has fewer than 1<<lineBits lines.
const (
	lineBits  = 20
	maxLine   = 1<<lineBits - 1 // greater than the number of lines of any file Parse reads
	allowBit  = 1 << lineBits   // in a precedence key
	prioShift = lineBits + 1    // of the priority in a precedence key
	keyBits   = prioShift + 16  // of a precedence key
)

// byteBit returns the bit of c in a set of bytes, which conflates bytes
// that are equal modulo 8 (a set takes 8 bits of a rule).
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

// A ruleSet is the compiled rules of one or more records.
type ruleSet struct {
	// file holds the kept text, which holds the patterns, the rules as
	// written, which Decide quotes, and the compiled rules of the set: n of
	// them from lo in file.compiled. In a set of at most smallSet rules they
	// are sorted by key, greatest first, and tried in order: the first that
	// matches wins. A larger set keeps them in file order until its
	// questions lay them out (lazy.go, index.go). A set of more than
	// smallSet rule lines is compiled by its questions, not with the groups
	// (lazySet): n counts its rule lines, and lo is 0; its compiled rules
	// are its own (rules). A set of the rule lines of one record, read
	// from the line table at each question (scanRecord), has lo ^rec and
	// n its rule lines, at most scannedMax, none raw.
	file  *Robots
	lo, n int32
	// big holds, for a set of more than smallSet rules or rule lines, its
	// layout once its questions made it, and its state until then
	// (lazy.go, index.go); it is nil in smaller sets.
	big *lazyLayout
}

// A recSet is the compiled rules of one record alone, as Robots.sets keeps
// them, in 4 bytes: n rules from lo in Robots.compiled, and whether the
// record has a rule line at all (ruled). Its bits, from the least
// significant: n (6), ruled (1), lo (25). A set of more than smallSet rules
// has n = recSetBig, and lo the index of its bigOf in moreGroups.bigs; a
// set read from the line table at each question (scanRecord) has n =
// recSetLines, and lo the number of its rule lines.
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

// rules returns the compiled rules of s, in file order, for a set not
// laid out: none, for a set that its questions compile (lazy.go), before
// they do (ruleSet.ready), or once laid out.
func (s *ruleSet) rules() []rule {
	if s.big != nil && s.big.lazy() {
		return s.big.compiled()
	}
	return s.file.compiled[s.lo : s.lo+s.n]
}

// smallSet is the size up to which a rule set is searched linearly, which is
// faster than the index for the groups of typical files.
const smallSet = 32

// head returns the literal head of the escaped pattern of r. Of a raw rule,
// it is made anew (escaped), as are its pattern and text: those are for
// layouts and Check, not for questions, which escape raw rules as they go.
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
		// Its "$" is written, or implied by an index.htm rule, whose
		// priority counts it; newRule made "…*$" a prefix rule.
		return n - 1
	}
	// As written: its trailing "$" and "*"s are those of the escaped
	// pattern.
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
	file *Robots // of the sets asked, once a rule matched
	rule rule    // zero while no rule matched
	rank uint32  // of rule
	// has is the byteSet of the path, once computed (hasSet).
	has    uint8
	hasSet bool
	// quote reports that the rule is to be quoted (Decide): of rules of
	// equal rank, the one of the earliest line must win. Otherwise
	// (Allowed), the first found is kept: rules of equal rank give the
	// same answer, and their lines are not looked up.
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
// updates m with the first that matches and beats it. It is matches
// written out, as the loop of every small set; its test of rank, which
// floatQuery.try and matchHeaded repeat, does not inline as a method (its cost
// is over the inliner's budget), so it is written out too.
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
		// The last byte of the head first: it tells most heads that are
		// not a prefix apart without calling memequal.
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
		m.has, m.hasSet = byteSet(path), true
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
