package robots

// Questions to the anchor table of a large set (floatTable), and the marks
// of the rules the table holds.

import (
	"math/bits"
	"strings"
)

// matchFloating updates m with the best rule of float and loose, the rules
// of s filed in t, that matches path.
func (s *ruleSet) matchFloating(t *floatTable, float, loose []rule, path string, m *match) {
	q := floatQuery{s: s, t: t, float: float, path: path, m: m}
	q.has.add(path)
	q.need = q.has.classes()
	if !m.hasSet {
		// What matchesAfterHead tests a need against ("*" in it, if the path
		// has one, lets more rules through, never fewer).
		m.has, m.hasSet = q.need, true
	}
	// The bitmap of the buckets seen, cleared on each question: as small
	// as the table allows.
	if t.bits <= smallTableBits {
		var seen [1 << smallTableBits / 64]uint64
		q.seen = seen[:]
		q.lookUp()
	} else {
		var seen [1 << maxBucketBits / 64]uint64
		q.seen = seen[:]
		q.lookUp()
	}
	q.tryInOrder(loose, false)
}

const smallTableBits = 8

// A floatQuery is the state of matchFloating.
type floatQuery struct {
	s     *ruleSet
	t     *floatTable
	float []rule
	path  string
	m     *match
	has   byteMap
	need  uint8    // byteSet of the path, "*" included
	seen  []uint64 // the buckets looked up so far
}

// tryInOrder tries rules of the table, by key, greatest first, and
// updates m with the first that matches, or else with its folded
// directory. A loose rule (marked false) is kept as compiled, and not
// matched if the path lacks its need; a marked one (markRare) is passed
// over if the path lacks its rare byte, which its folded directory holds
// too.
func (q *floatQuery) tryInOrder(rules []rule, marked bool) {
	s, m := q.s, q.m
	for _, r := range rules {
		var tag uint8
		if marked {
			r, tag, _ = unmark(r)
		}
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			return
		}
		if marked && !q.has.has(tag) {
			continue
		}
		if (marked || r.need()&^q.need == 0) && s.matches(r, q.path, m) {
			m.take(s, r)
			return
		}
		s.tryFolded(r, q.path, m)
	}
}

// lookUp tries the buckets of the grams of the path of the lengths the
// table holds: each distinct byte once, each run of two and of three
// bytes at each position.
func (q *floatQuery) lookUp() {
	path := q.path
	if q.t.lens&1 != 0 {
		for w, word := range q.has {
			for ; word != 0; word &= word - 1 {
				q.try(gram1(byte(w<<6|bits.TrailingZeros64(word))), -1, 1)
			}
		}
	}
	if heads := &q.t.heads[0]; q.t.lens&2 != 0 {
		for i := 0; i+1 < len(path); i++ {
			if heads.has(path[i]) {
				q.try(gram2(path, i), i, 2)
			}
		}
	}
	if heads := &q.t.heads[1]; q.t.lens&4 != 0 {
		for i := 0; i+2 < len(path); i++ {
			if heads.has(path[i]) {
				q.try(gram3(path, i), i, 3)
			}
		}
	}
}

// try tries the rules of the bucket of gram g, the n bytes of the path at
// i (any byte of the path if i < 0). A single rule whose tag the bytes
// beside g do not rule out is tried at i only, at every look-up of its
// bucket, with g where it first stands in its segment: each occurrence of
// the segment in the path holds the anchor there, so a question costs a
// single rule its segment's length at each position holding its anchor,
// linear in the path (bench/ BenchmarkWorstCase). The other rules of the
// bucket are matched in full, on the first look-up of their bucket only.
func (q *floatQuery) try(g uint32, i, n int) {
	b := q.t.bucket(g)
	lo, hi := q.t.startOf(b), q.t.startOf(b+1)
	if lo == hi {
		return
	}
	first := q.seen[b/64]&(1<<(b%64)) == 0
	q.seen[b/64] |= 1 << (b % 64)
	if !first && i < 0 {
		return
	}
	s, m, path := q.s, q.m, q.path
	// The tags a rule of g at i may have (singleTag); 0, which no such
	// rule has, if the path has no byte there.
	var after, before uint8
	if i >= 0 && i+n < len(path) {
		after = tagOn | contextHash(g, path[i+n])&tagHash | tagAfter
	}
	if i > 0 {
		before = tagOn | contextHash(g, path[i-1])&tagHash
	}
	j, done := lo, i < 0 // a gram of one byte has no position
	for ; j < hi; j++ {
		r, tag, single := unmark(q.float[j])
		if !single {
			break
		}
		if done || tag != 0 && tag != after && tag != before {
			continue
		}
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			done = true // and so are the rest of this run
			continue
		}
		if seg, _ := s.segment(r); s.segmentAt(r, seg, path, i, n) {
			m.take(s, r)
			done = true
			continue
		}
		s.tryFolded(r, path, m)
	}
	if first {
		q.tryInOrder(q.float[j:hi], true)
	}
}

// segment returns the pattern of r after its head and the "*"s that
// follow it (as written, if raw), and whether it is the single literal
// segment of an unanchored wildcard rule.
func (s *ruleSet) segment(r rule) (string, bool) {
	if r.shape() != shapeWildcard {
		return "", false
	}
	var tail string
	if r&ruleRaw != 0 {
		w, h := s.writtenParts(r)
		tail = w[h:]
	} else {
		tail = s.pattern(r)[r.headLen():]
	}
	seg := strings.TrimLeft(tail, "*")
	return seg, strings.IndexByte(seg, '*') < 0
}

// segmentAt reports whether r, whose pattern after the head is the single
// segment seg, matches path with the n bytes at i standing where they
// first occur in seg.
func (s *ruleSet) segmentAt(r rule, seg, path string, i, n int) bool {
	if r&ruleRaw != 0 {
		return s.segmentAtRaw(r, seg, path, i, n)
	}
	k := strings.Index(seg, path[i:i+n])
	p := i - k
	if k < 0 || p < r.headLen() || p+len(seg) > len(path) || path[p:p+len(seg)] != seg {
		return false
	}
	return path[:r.headLen()] == s.head(r)
}

// markSingle returns r, a rule of a table tried where its anchor stands
// (its pattern after the head one segment, its anchor of two or three
// bytes), as the table keeps it: with the shape bits of shapePrefix, which
// no other rule of a table has, and its tag (singleTag) in place of its
// need. Those rules are read only through unmark, but for
// their offsets, priorities and kinds, which no mark changes.
func markSingle(r rule, tag uint8) rule {
	return r&^(needBits|shapeBits) | rule(tag)<<ruleNeedShift
}

// singleTag returns the tag of a single rule whose segment is seg and
// whose anchor is gram g, first at k in seg: a hash of g and of the byte
// after it in seg (tagAfter set) or, at the end of seg, before it; or 0,
// which passes over nothing, for a segment that is its anchor alone. Buys,
// warm (bench/ BenchmarkWorstCase, 8 KB path, whose digits hold nearly
// every anchor): 105 µs against 10,000 rules and 174 µs against 1,000,
// rather than 347 and 663 µs.
func singleTag(g uint32, seg string, k int) uint8 {
	n := gramLen(g)
	switch {
	case k+n < len(seg):
		return tagOn | contextHash(g, seg[k+n])&tagHash | tagAfter
	case k > 0:
		return tagOn | contextHash(g, seg[k-1])&tagHash
	}
	return 0
}

const (
	tagOn    = 0x80
	tagAfter = 0x40
	tagHash  = 0x3F
)

func contextHash(g uint32, c byte) uint8 {
	return uint8((g*0x2545F491 ^ uint32(c)*0x9E3779B1) >> 24)
}

// markRare returns r, a rule of a table neither single nor loose, as the
// table keeps it: with the rarest byte of tail, its pattern after the head
// as filed (floatTail), in place of its need, a byte that a path must hold
// for r, or its folded directory, to match.
func markRare(r rule, tail string) rule {
	return r&^needBits | rule(rarest(tail))<<ruleNeedShift
}

// unmark returns r, a rule of a table as it keeps it, as compiled but with
// no need (0), its tag (the byte in place of its need), and whether it is
// single.
func unmark(r rule) (_ rule, tag uint8, single bool) {
	tag = r.need()
	r &^= needBits
	if r.shape() != shapePrefix {
		return r, tag, false
	}
	return r | rule(shapeWildcard)<<ruleShapeShft, tag, true
}

// tagOf returns the tag of r, a single rule of anchor g whose pattern
// after the head, as filed, is tail: 0 if raw or a folded directory's.
func (s *ruleSet) tagOf(r rule, g uint32, tail string) uint8 {
	if r&ruleRaw != 0 || s.foldedDir(r) > 0 {
		return 0
	}
	seg := strings.TrimLeft(tail, "*")
	var b [3]byte
	n := gramLen(g)
	for i := range n {
		b[i] = byte(g >> (16 - 8*i))
	}
	return singleTag(g, seg, strings.Index(seg, string(b[:n])))
}

// rarity ranks bytes by how rarely URL paths hold them, rarest highest.
func rarity(c byte) int {
	switch {
	case c == '/' || c == '-' || c == '.' || c == '_':
		return 0
	case 'a' <= c && c <= 'z':
		return 1
	case '0' <= c && c <= '9':
		return 2
	case 'A' <= c && c <= 'Z':
		return 3
	}
	return 4
}

// rarest returns the first of the rarest literal bytes of p.
func rarest(p string) byte {
	var r byte
	best := -1
	for i := 0; i < len(p); i++ {
		if c := p[i]; c != '*' && rarity(c) > best {
			r, best = c, rarity(c)
		}
	}
	return r
}

func (b *byteMap) add(s string) {
	for i := 0; i < len(s); i++ {
		b[s[i]>>6] |= 1 << (s[i] & 63)
	}
}

// classes returns b as byteSet makes a set: bytes equal modulo 8.
func (b *byteMap) classes() uint8 {
	w := b[0] | b[1] | b[2] | b[3]
	w |= w >> 32
	w |= w >> 16
	w |= w >> 8
	return uint8(w)
}

func (b *byteMap) set(c byte) { b[c>>6] |= 1 << (c & 63) }

func (b *byteMap) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// maxBucketBits bounds the buckets, so that those a question has seen fit
// in a small bitmap.
const maxBucketBits = 13

// bucket returns the bucket of gram g (Knuth's multiplicative hashing).
func (t *floatTable) bucket(g uint32) uint32 {
	return g * fibonacci32 >> (32 - t.bits)
}

const fibonacci32 = 0x9E3779B1

// A gram is one to three bytes as a number: its length in the top byte,
// then its bytes, the first highest, and zeros for the missing ones.
func gram1(c byte) uint32 { return 1<<24 | uint32(c)<<16 }

func gram2(s string, i int) uint32 { return 2<<24 | uint32(s[i])<<16 | uint32(s[i+1])<<8 }

func gram3(s string, i int) uint32 {
	return 3<<24 | uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2])
}

func gramLen(g uint32) int { return int(g >> 24) }

func (t *floatTable) startOf(b uint32) int32 { return int32(t.start[b]) }
