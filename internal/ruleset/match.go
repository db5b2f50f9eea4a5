package ruleset

import (
	"strings"

	"github.com/gorep/robots/internal/lines"
)

// A rule is a compiled allow or disallow line, in 8 bytes, from the least
// significant bit:
//
//	 0     19  20  21     36 37   44 45   46   47      48        63
//	┌────────┬───┬─────────┬──────┬───────┬──────┬────────────┐
//	│  off   │raw│  head   │ need │ shape │allow │  priority  │
//	└────────┴───┴─────────┴──────┴───────┴──────┴────────────┘
//
// off is the pattern's offset in the kept text; raw is set when escaping
// changes it (escapeChanges), and the rest is of the escaped pattern. head
// is the literal head's length; need, for a wildcard rule, the bytes a
// path must hold to match (byteBit), reused by a table's marks and
// makeLinks. The top 17 bits are the rank, priority then allow. The line
// (Robots.ruleAt) is looked up only by Decide, to quote; Parse keeps the
// patterns in file order, so of two rules the earlier line has the lower
// offset, which breaks Decide's ties (match.beatenBy).
type rule uint64

const (
	ruleRawBit     = 20
	ruleRaw        = 1 << ruleRawBit
	ruleOffBits    = ruleRawBit + 1 // with raw
	ruleHeadShift  = ruleOffBits
	ruleHeadBits   = 16
	ruleNeedShift  = ruleHeadShift + ruleHeadBits
	ruleShapeShift = ruleNeedShift + 8
	ruleRankShift  = ruleShapeShift + 2 // of the rank: priority<<1 | allow
	ruleAllow      = 1 << ruleRankShift
)

const (
	allowBit  = 1 << lines.LineBits // in a precedence key
	prioShift = lines.LineBits + 1  // of the priority in a precedence key
	keyBits   = prioShift + 16      // of a precedence key
)

// The fields of a rule that the marks of a table reuse.
const (
	needBits  = 0xFF << ruleNeedShift
	shapeBits = 3 << ruleShapeShift
)

func (r rule) off() uint32 { return uint32(r & (ruleRaw - 1)) }

// headLen returns the length of the literal head of the pattern of r.
func (r rule) headLen() int { return int(r >> ruleHeadShift & (1<<ruleHeadBits - 1)) }

// priority returns the priority of r, the length of its escaped pattern.
func (r rule) priority() int { return int(r >> (ruleRankShift + 1)) }

// A shape says how a compiled pattern matches: its head is a prefix of the
// path, or the whole path; or it has a wildcard, or one and a final "$".
type shape uint8

const (
	shapePrefix shape = iota
	shapeExact
	shapeWildcard
	shapeAnchored
)

// A ruleSet is the compiled rules of one or more records.
type ruleSet struct {
	// The rules are n from lo in src.compiled: by key, greatest first, in
	// a set of at most smallSet; else in file order until laid out. A lazy
	// set (lazySet) counts its rule lines in n. A record read from the line
	// table (scanLines) has lo ^rec and n its rule lines (<= scannedMax).
	src   *source
	lo, n int32
	big   *lazyLayout // of a set of over smallSet rules or rule lines, else nil
}

// smallSet is the size up to which a set is searched linearly.
const smallSet = 32

// A match is the best rule found so far for a path.
type match struct {
	rule   rule   // zero while no rule matched
	rank   uint32 // of rule
	has    uint8  // byteSet of the path, once hasSet
	hasSet bool
	quote  bool // for Decide: of equal ranks the earliest line wins, not the first found
	work   int  // bytes of path handed to matchWildcard, which a scan weighs (lazy.go)
}

// mayDecide reports whether a rule whose pattern starts with c may match a
// path: every path starts with "/", which "*" matches too. Other rules are
// never compiled.
func mayDecide(c byte) bool { return c == '/' || c == '*' }

// How compiled rules match (the package doc, "Matching", says what). A
// rule's priority is the length of its escaped pattern, and its head the
// bytes before its first "*".

// need returns the set of bytes a path must hold for r to match.
func (r rule) need() uint8 { return uint8(r >> ruleNeedShift) }

func (r rule) shape() shape { return shape(r >> ruleShapeShift & 3) }

// derived reports whether r is the rule an index.htm allow rule implies
// (indexHTM): an anchored rule whose written pattern does not end in "$".
func (s *ruleSet) derived(r rule) bool {
	if !r.allow() || r.shape() != shapeExact && r.shape() != shapeAnchored {
		return false
	}
	w := r.written(s.src.text)
	return w[len(w)-1] != '$'
}

func (r rule) allow() bool { return r&ruleAllow != 0 }

// rank returns the priority of r and whether it allows, as one number: a
// greater rank wins. The zero rule has rank 0, below any rule's.
func (r rule) rank() uint32 { return uint32(r >> ruleRankShift) }

// ruleKey returns the precedence key of a rule, the one definition of
// precedence: its priority, then 1 for allow, then its line counted down
// from maxLine; a greater key wins. rank is its part without the line.
func ruleKey(priority int, allow bool, line int) uint64 {
	k := uint64(priority)<<prioShift | uint64(lines.MaxLine-line)
	if allow {
		k |= allowBit
	}
	return k
}

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

// rules returns the compiled rules of s, which is not lazy (see compileAside).
func (s *ruleSet) rules() []rule { return s.src.compiled[s.lo : s.lo+s.n] }

// head returns the literal head of the escaped pattern of r (escaped).
func (s *ruleSet) head(r rule) string { return s.escaped(r, r.headLen()) }

// pattern returns the part of the escaped pattern of r that is matched:
// without a trailing "$", which the shape holds, nor trailing "*"s, which
// match anything.
func (s *ruleSet) pattern(r rule) string {
	if r.shape() < shapeWildcard {
		return s.escaped(r, r.headLen())
	}
	w := r.written(s.src.text)
	return s.escaped(r, r.priority()-len(w)+len(matched(r, w)))
}

// matched returns w, the pattern of r as written, without what its shape
// holds: a final "$", written or implied (derived), and trailing "*"s.
func matched(r rule, w string) string {
	if r.shape() == shapeAnchored {
		return w[:len(w)-1]
	}
	if c := w[len(w)-1]; c == '*' || c == '$' {
		return strings.TrimRight(strings.TrimSuffix(w, "$"), "*")
	}
	return w
}

// take makes rule r the best so far.
func (m *match) take(r rule) { m.rule, m.rank = r, r.rank() }

// beatenBy reports whether rule r takes precedence over the best rule so
// far: a greater rank, or, when the rule is quoted, an equal rank and an
// earlier line, which Parse kept first: a lower offset.
func (m *match) beatenBy(r rule) bool {
	if a := r.rank(); a != m.rank {
		return a > m.rank
	}
	return m.quote && r.off() < m.rule.off()
}

// try tries the rules of seq, sorted by key, greatest first, on path, and
// updates m with the first that matches and beats it: the loop of every
// small set. Its test of rank, repeated elsewhere, is over the inliner's
// budget as a method; a head longer than path, or whose last byte is not
// path's there, is passed over without a call: most misses (BenchmarkHostile,
// utf8-long, short path; bench/RESULTS.md, "What each mechanism buys").
func (s *ruleSet) try(seq []rule, path string, m *match) {
	text := s.src.text
	for _, r := range seq {
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(r)) {
			return
		}
		if n := r.headLen(); len(path) < n || r&ruleRaw == 0 && n > 0 && path[n-1] != text[r.off()+uint32(n)-1] {
			continue
		}
		if s.matches(r, path, m) {
			m.take(r)
			return
		}
	}
}

// tryRule updates m with r, a rule of s, if it matches path and beats m.
func (s *ruleSet) tryRule(r rule, path string, m *match) {
	if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(r)) {
		return
	}
	if s.matches(r, path, m) {
		m.take(r)
	}
}

// matches reports whether r matches path.
func (s *ruleSet) matches(r rule, path string, m *match) bool {
	text, off, n := s.src.text, r.off(), r.headLen()
	switch {
	case len(path) < n:
		return false
	case r&ruleRaw != 0:
		if !hasEscapedPrefix(path, text[off:], r.priority(), n) {
			return false
		}
	case path[:n] != text[off:off+uint32(n)]:
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
	if !m.hasSet {
		m.has, m.hasSet = pathSet(path), true
	}
	if r.need()&^m.has != 0 {
		return false
	}
	anchored, raw, tail := r.shape() == shapeAnchored, r&ruleRaw != 0, s.wildTail(r)
	if anchored && !raw && path[len(path)-1] != tail[len(tail)-1] {
		return false
	}
	m.work += len(path)
	return matchWildcard(path[r.headLen():], tail, anchored, raw)
}

// matchWildcard reports whether pattern, which starts with "*" and does not
// end with one, matches a prefix of path (all of path if anchored); if
// raw, pattern is as written and each segment between "*"s escapes to that
// segment of the escaped pattern, matched escaped as it goes. Each segment
// taken at its leftmost occurrence is optimal: a later one leaves less
// room for those that follow.
func matchWildcard(path, pattern string, anchored, raw bool) bool {
	for {
		pattern = strings.TrimLeft(pattern, "*")
		i := strings.IndexByte(pattern, '*')
		if i < 0 && anchored {
			if raw {
				return hasEscapedSuffix(path, pattern)
			}
			return strings.HasSuffix(path, pattern)
		}
		seg := pattern
		if i >= 0 {
			seg = pattern[:i]
		}
		var j, n int
		if raw {
			j, n = indexEscaped(path, seg), escapedLen(seg)
		} else {
			j, n = strings.Index(path, seg), len(seg)
		}
		if j < 0 || i < 0 {
			return j >= 0
		}
		path, pattern = path[j+n:], pattern[i:]
	}
}

// Raw rules: patterns that escaping (appendEscaped) changes, kept as
// written and escaped as they are matched (escape.go); a set without raw
// rules runs none of this. Buys: utf8-long keeps 1.00 bytes a byte at
// 500 KiB (TestKeptPerByte) rather than about 4 with escaped copies.

// written returns the pattern of r as written in text, as far as its
// priority goes: all of it, or, for a derived index.htm rule
// (ruleSet.derived), its directory and one byte more.
func (r rule) written(text string) string {
	off, n := r.off(), r.priority()
	if r&ruleRaw != 0 {
		n = writtenLen(text[off:], n, n)
	}
	return text[off : off+uint32(n)]
}

// escaped returns the first n bytes of the escaped pattern of r, made
// anew if r is raw; n is where a part of the pattern ends.
func (s *ruleSet) escaped(r rule, n int) string {
	v := s.src.text[r.off():]
	if r&ruleRaw == 0 {
		return v[:n]
	}
	return string(appendEscaped(make([]byte, 0, n), v[:writtenLen(v, r.priority(), n)]))
}

// wildTail returns the part of the pattern of r, a wildcard rule, after
// its head that is matched (pattern), as written if r is raw.
func (s *ruleSet) wildTail(r rule) string {
	if r&ruleRaw == 0 {
		return s.pattern(r)[r.headLen():]
	}
	w := matched(r, r.written(s.src.text))
	return w[writtenLen(w, noLimit, r.headLen()):]
}
