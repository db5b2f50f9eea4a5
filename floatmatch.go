package robots

// Questions to the anchor table of a large set (see floatTable), and the
// marks of the rules the table holds, which questions read.

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
		// Read off the byte map, not by another scan of the path: what
		// matchesTail tests each rule's need against ("*" in it, if the
		// path has one, lets more rules through, never fewer).
		m.has, m.hasSet = q.need, true
	}
	// The bitmap of the buckets seen is cleared on each question: as
	// small as the table allows.
	if t.bits <= smallTableBits {
		var seen [1 << smallTableBits / 64]uint64
		q.seen = seen[:]
		q.lookUp()
	} else {
		var seen [1 << maxBucketBits / 64]uint64
		q.seen = seen[:]
		q.lookUp()
	}
	q.tryLoose(loose)
}

// smallTableBits is the base-2 logarithm of the number of buckets up to
// which a question marks the buckets it has seen in a bitmap of 4 words
// rather than 128.
const smallTableBits = 8

// A floatQuery is the state of matchFloating: the bytes of the path and
// the buckets looked up so far.
type floatQuery struct {
	s     *ruleSet
	t     *floatTable
	float []rule
	path  string
	m     *match
	has   byteMap
	// need is the set of the bytes of the path (byteSet), "*" included:
	// what a rule's need is tested against.
	need uint8
	// seen marks the buckets looked up so far (try).
	seen []uint64
}

// tryLoose tries loose, the loose rules of the table, by key, greatest
// first, as compiled (a table does not mark them): one whose need the path
// lacks is not matched, but its folded directory, which needs less, is
// tried.
func (q *floatQuery) tryLoose(loose []rule) {
	s, m := q.s, q.m
	for _, r := range loose {
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			return
		}
		if r.need()&^q.need == 0 && s.matches(r, q.path, m) {
			m.take(s, r)
			return
		}
		s.tryFolded(r, q.path, m)
	}
}

// tryInOrder tries rules, rules of the table as it keeps them (unmark)
// that are not single, by key, greatest first, and updates m with the
// first that matches and beats it; or, of one that does not match, with
// its folded directory (tryFolded). A rule is passed over if the path
// lacks its rare byte (markRare), which its folded directory holds too.
func (q *floatQuery) tryInOrder(rules []rule) {
	s, m := q.s, q.m
	for _, r := range rules {
		r, tag, _ := unmark(r)
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			return
		}
		if !q.has.has(tag) {
			continue
		}
		if s.matches(r, q.path, m) {
			m.take(s, r)
			return
		}
		s.tryFolded(r, q.path, m)
	}
}

// lookUp tries the rules of the buckets of the grams of the path of the
// lengths the table holds: each distinct byte of the path once, and each
// run of two and of three bytes at each position.
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
// i, or any byte of the path if i < 0. A rule whose pattern after the head
// is one literal segment, not anchored, and whose tag the byte beside g in
// the path does not rule out (singleTag), is tried at i only, at every
// look-up of its bucket,
// with g where it first stands in the segment, in time linear in the
// segment: each occurrence of the segment in the path holds the rule's
// anchor at that offset, whose bucket is looked up there. So a question
// costs each single rule the length of its segment at each position of
// the path that holds its anchor, never a match over the whole path:
// linear in the path (BenchmarkWorstCase in bench/). The other rules of
// the bucket, after those, are matched in full, on the first look-up of
// their bucket only.
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
	// The tags a rule of g at i may have, as singleTag makes them; 0, which
	// no such rule has, if the path has no byte there.
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
		q.tryInOrder(q.float[j:hi])
	}
}

// segment returns the pattern of r after its head and the "*"s that
// follow it, and whether it is a single literal segment of an unanchored
// wildcard rule: one that matches a path that starts with its head and
// holds the segment after it. The segment of a raw rule is as written.
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

// The fields of a rule that a table's single rules (markSingle) reuse.
const (
	needBits  = 0xFF << ruleNeedShift
	shapeBits = 3 << ruleShapeShft
)

// markSingle returns r, a rule of a table tried where its anchor stands
// (its pattern after the head a single segment, its anchor two or three
// bytes long), as the table keeps it: with the shape bits of shapePrefix,
// which no other rule of a table has, and in place of its need a tag
// (singleTag). The rules of a table are its own (layOut), and they are
// read only through unmark and compiledAs (ruleSet.sorted), but for what
// no mark changes: their offsets, priorities and kinds (dirList,
// fileDirs).
func markSingle(r rule, tag uint8) rule {
	return r&^(needBits|shapeBits) | rule(tag)<<ruleNeedShift
}

// singleTag returns the tag of a single rule whose segment is seg and
// whose anchor is gram g, first at k in seg: a hash of g and of the byte
// of seg after it (tagAfter set) or, at the end of seg, before it, so
// that a question passes over a rule whose anchor stands in the path
// without that byte beside it, without reading its pattern; or 0, which
// passes over nothing, for a segment that is its anchor alone, or a rule
// that stands for a folded directory (tryFolded), or is raw.
//
// Against generated wildcard rules an 8 KB path holds the anchors of
// nearly every single rule (their ids' digits): the byte beside the anchor
// passes over all but about one in 64 of them. A warm question
// (BenchmarkWorstCase in bench/, CPU time) costs 105 µs against 10,000
// rules and 174 µs against 1,000, rather than 347 and 663 µs with every
// single rule of the bucket checked.
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

// The bits of the tag of a single rule (singleTag).
const (
	tagOn    = 0x80
	tagAfter = 0x40
	tagHash  = 0x3F
)

// contextHash returns a hash of gram g and of the byte c beside it.
func contextHash(g uint32, c byte) uint8 {
	return uint8((g*0x2545F491 ^ uint32(c)*0x9E3779B1) >> 24)
}

// markRare returns r, a rule of a table that is neither single
// (markSingle) nor loose, as the table keeps it: with the rarest byte of tail, its pattern after
// the head as the table files it (floatTail), in place of its need, a
// byte that a path must hold for r, or its folded directory, to match.
func markRare(r rule, tail string) rule {
	return r&^needBits | rule(rarest(tail))<<ruleNeedShift
}

// unmark returns r, a rule of a table as it keeps it, as compiled but with
// no need (0, which rules out no path: a question tests the tag instead),
// its tag, the byte that replaced its need, and whether it is single
// (markSingle; else markRare).
func unmark(r rule) (_ rule, tag uint8, single bool) {
	tag = r.need()
	r &^= needBits
	if r.shape() != shapePrefix {
		return r, tag, false
	}
	return r | rule(shapeWildcard)<<ruleShapeShft, tag, true
}

// compiledAs returns r, a rule of the table of s as it keeps it, as
// compiled: with its need made again, as compile made it, from its
// pattern after the head.
func (s *ruleSet) compiledAs(r rule) rule {
	r, _, _ = unmark(r)
	return r | rule(byteSet(s.pattern(r)[r.headLen():]))<<ruleNeedShift
}

// tagOf returns the tag of r, a single rule of anchor g whose pattern
// after the head, as the table files it, is tail (singleTag).
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
