package ruleset

// The anchor table of the wildcard rules of a large set (floatTable). The
// bound, for a path of L bytes: L look-ups a gram length; a single rule
// (try), its segment's length at each position holding its anchor and tag;
// another rule of a bucket looked up, one full match, O(L): up to L times
// the rules of several segments whose anchors the path holds (bench/
// BenchmarkAdversarialWildcards). Buys a warm question of a long path
// against many wildcard rules, against a scan (bench/ BenchmarkWorstCase;
// bench/RESULTS.md, "What each mechanism buys").

import (
	"math/bits"
	"strings"
)

// A floatTable finds the wildcard rules of a large set. Each rule is filed
// under an anchor, the cheapest run of 1-3 literal bytes after its head; a
// question looks up the bucket of each gram at each position of its path
// (floatQuery.try), so the cost grows with the path, not the number of
// rules. Bucket b holds the rules start[b] to start[b+1] of the run: the
// single ones (unmark), then the others, each by key, greatest first.
type floatTable struct {
	// bits is log2 of the number of buckets.
	bits uint8
	// heads[n-1] holds the first bytes of the anchors of n bytes: only
	// grams that start with one are looked up.
	heads [3]byteMap
	// start are the bucket starts and the end of the last (< maxLaid).
	start []uint16
}

// A byteMap is a set of bytes.
type byteMap [4]uint64

// minFloating is the number of wildcard rules of a large set from which
// it finds them by anchor.
const minFloating = 32

// sparseRules is the number of rules from which a table has a bucket for
// every one or two rules rather than two to four: fuller buckets cost a
// question 1.6 times the time (BenchmarkAdversarialLayouts/anchor-bucket,
// 2,500 rules), fewer keep small files of short wildcard rules under 1.5
// bytes a byte (keptGoal).
const sparseRules = 2048

// maxBucketBits bounds the buckets, so that those a question has seen fit
// in a small bitmap.
const maxBucketBits = 13

// fileFloating writes to out, as long, the wildcard rules float of a set
// (sorted by key), filed in a new x.float.
func (s *ruleSet) fileFloating(x *bigSet, out, float []rule) {
	t := new(floatTable)
	x.float = t
	freq := new(gramCounts)
	for _, r := range float {
		freq.count(s.filedTail(r))
	}
	perBucket := 2
	if len(float) < sparseRules {
		perBucket = 4
	}
	for t.bits = 4; perBucket<<t.bits < len(float) && t.bits < maxBucketBits; t.bits++ {
	}
	// The anchor of a rule is its cheapest gram (a path holds a given byte
	// far more often than a given run of three). Every wildcard pattern
	// has a literal byte after its head (newRule), and so a gram. The rules
	// go by bucket, each bucket's single ones first, then by key (k): a
	// counting sort on where (2 a bucket).
	where := make([]uint16, len(float))
	at := make([]uint16, 2<<t.bits+1) // where's counts, then starts (< maxLaid)
	for k, r := range float {
		tail := s.filedTail(r)
		anchor, i := freq.cheapest(tail)
		n := gramLen(anchor)
		t.heads[n-1].set(tail[i])
		where[k] = uint16(t.bucket(anchor) << 1)
		r &^= needBits // marked (unmark)
		// Single as segment says, from the tail at hand unless filed by
		// its folded directory.
		single := r.shape() == shapeWildcard && strings.IndexByte(strings.TrimLeft(tail, "*"), '*') < 0
		if s.foldedDir(r) > 0 {
			_, single = s.segment(r)
		}
		if single && n > 1 {
			float[k] = r&^shapeBits | rule(s.tagOf(r, tail, i, n))<<ruleNeedShift
		} else {
			float[k] = r | rule(rarest(tail))<<ruleNeedShift
			where[k] |= 1
		}
		at[where[k]+1]++
	}
	t.start = make([]uint16, 1<<t.bits+1)
	for w := 1; w < len(at); w++ {
		at[w] += at[w-1]
		if w%2 == 0 {
			t.start[w/2] = at[w]
		}
	}
	for k, w := range where {
		out[at[w]] = float[k]
		at[w]++
	}
}

// matchFloating updates m with the best rule of float, the rules of s
// filed in t, that matches path: it looks up each distinct byte of path
// once, each run of two and of three bytes at each position.
func (s *ruleSet) matchFloating(t *floatTable, float []rule, path string, m *match) {
	var seen [1 << maxBucketBits / 64]uint64 // the buckets looked up
	q := floatQuery{s: s, t: t, float: float, path: path, m: m, seen: &seen}
	for i := range len(path) {
		q.has.set(path[i])
	}
	if !m.hasSet { // for matchesAfterHead, from the bytes at hand
		m.has, m.hasSet = q.has.classes(), true
	}
	for w, word := range q.has {
		for word &= t.heads[0][w]; word != 0; word &= word - 1 {
			q.try(1<<24|uint32(w<<6|bits.TrailingZeros64(word))<<16, -1, 1)
		}
	}
	for n := 2; n <= 3; n++ {
		heads := &t.heads[n-1]
		if *heads == (byteMap{}) {
			continue // no anchor of n bytes
		}
		for i := 0; i+n <= len(path); i++ {
			if heads.has(path[i]) {
				q.try(gram(path, i, n), i, n)
			}
		}
	}
}

type floatQuery struct {
	s     *ruleSet
	t     *floatTable
	float []rule
	path  string
	m     *match
	has   byteMap // the bytes of the path
	seen  *[1 << maxBucketBits / 64]uint64
}

// try tries the rules of the bucket of gram g, the n bytes of the path at
// i (any byte of the path if i < 0). A single rule whose tag the bytes
// beside g allow is tried at i only, at every look-up of its bucket, with
// g where it first stands in its segment: a question costs it its
// segment's length at each position holding its anchor, linear in the
// path. The others are matched in full, on the first look-up only.
func (q *floatQuery) try(g uint32, i, n int) {
	b := q.t.bucket(g)
	lo, hi := int32(q.t.start[b]), int32(q.t.start[b+1])
	if lo == hi {
		return
	}
	first := q.seen[b/64]&(1<<(b%64)) == 0
	q.seen[b/64] |= 1 << (b % 64)
	if !first && i < 0 {
		return
	}
	s, m, path := q.s, q.m, q.path
	// The tags a rule of g at i may have (tagOf), or 0, which none has.
	var after, before uint8
	if i >= 0 && i+n < len(path) {
		after = tag(g, path[i+n], tagAfter)
	}
	if i > 0 {
		before = tag(g, path[i-1], 0)
	}
	j, done := lo, i < 0 // a gram of one byte has no position
	for ; j < hi; j++ {
		r, tg, single := unmark(q.float[j])
		if !single {
			break
		}
		if done || tg != 0 && tg != after && tg != before {
			continue
		}
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(r)) {
			done = true // and so are the rest of this run
			continue
		}
		if s.segmentAt(r, path, i, n) {
			m.take(r)
			done = true
			continue
		}
		s.tryFolded(r, path, m)
	}
	if !first {
		return
	}
	// The others, by key, greatest first: the first that matches wins. A
	// rule whose rare byte (unmark) the path lacks is passed over.
	for _, r := range q.float[j:hi] {
		r, rare, _ := unmark(r)
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(r)) {
			return
		}
		if !q.has.has(rare) {
			continue
		}
		if s.matches(r, path, m) {
			m.take(r)
			return
		}
		s.tryFolded(r, path, m)
	}
}

// segment returns the pattern of r after its head and the "*"s that
// follow it (as written, if raw), and whether it is the single literal
// segment of an unanchored wildcard rule.
func (s *ruleSet) segment(r rule) (string, bool) {
	if r.shape() != shapeWildcard {
		return "", false
	}
	seg := strings.TrimLeft(s.wildTail(r), "*")
	return seg, strings.IndexByte(seg, '*') < 0
}

// segmentAt reports whether r, a single rule, matches path with the n
// bytes at i standing where they first occur in its segment.
// A raw rule's segment, as written, is escaped as it goes.
func (s *ruleSet) segmentAt(r rule, path string, i, n int) bool {
	seg, _ := s.segment(r)
	raw := r&ruleRaw != 0
	k, size := strings.Index(seg, path[i:i+n]), len(seg)
	if raw {
		k, size = indexInEscaped(seg, path[i:i+n]), escapedLen(seg)
	}
	p := i - k
	if k < 0 || p < r.headLen() || p+size > len(path) {
		return false
	}
	if raw {
		return equalEscaped(path[p:p+size], seg) && hasEscapedPrefix(path, s.src.text[r.off():], r.priority(), r.headLen())
	}
	return path[p:p+size] == seg && path[:r.headLen()] == s.head(r)
}

// tagOf returns the tag of r, a single rule whose tail (as filed) holds
// its anchor at i, n bytes: the anchor hashed with the byte after it where
// it first stands in the segment or, at the segment's end, before it; 0,
// which passes over nothing, for a segment that is its anchor alone, a
// raw rule or a folded directory's. Buys, warm (BenchmarkWorstCase, 8 KB):
// against a table without tags (bench/RESULTS.md, "What each mechanism buys").
func (s *ruleSet) tagOf(r rule, tail string, i, n int) uint8 {
	if r&ruleRaw != 0 || s.foldedDir(r) > 0 {
		return 0
	}
	seg := strings.TrimLeft(tail, "*")
	k := strings.Index(seg, tail[i:i+n])
	switch g := gram(seg, k, n); {
	case k+n < len(seg):
		return tag(g, seg[k+n], tagAfter)
	case k > 0:
		return tag(g, seg[k-1], 0)
	}
	return 0
}

const tagAfter = 0x40

// tag returns the tag of gram g beside byte c, after it if side is
// tagAfter: 6 bits of hash, never 0.
func tag(g uint32, c byte, side uint8) uint8 {
	return 0x80 | uint8((g*0x2545F491^uint32(c)*0x9E3779B1)>>24)&0x3F | side
}

// unmark returns r, a rule of a table as it keeps it, as compiled but with
// no need, its mark and whether it is single. A table keeps a single rule
// (its pattern after the head one segment, its anchor of two or three
// bytes) with the shape bits of shapePrefix, which no other rule of a
// table has, and its tag in place of its need; another with the rarest
// byte of its tail as filed (fileFloating), which a path must hold for it
// or its folded directory to match (BenchmarkAdversarialLayouts/anchor-bucket;
// bench/RESULTS.md, "What each mechanism buys").
func unmark(r rule) (_ rule, mark uint8, single bool) {
	mark = r.need()
	r &^= needBits
	if r.shape() != shapePrefix {
		return r, mark, false
	}
	return r | rule(shapeWildcard)<<ruleShapeShift, mark, true
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

// bucket returns the bucket of gram g (Knuth's multiplicative hashing).
func (t *floatTable) bucket(g uint32) uint32 {
	return g * fibonacci32 >> (32 - t.bits)
}

const fibonacci32 = 0x9E3779B1

// gram returns the n bytes (1 to 3) of s at i as a number: n, then the
// bytes, the first highest.
func gram(s string, i, n int) uint32 {
	g := uint32(n)<<24 | uint32(s[i])<<16
	if n > 1 {
		g |= uint32(s[i+1]) << 8
	}
	if n > 2 {
		g |= uint32(s[i+2])
	}
	return g
}

func gramLen(g uint32) int { return int(g >> 24) }
