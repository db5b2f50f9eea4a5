package robots

// The anchor table of the wildcard rules of a large set (see floatTable).

import "math/bits"

// minFloating is the number of wildcard rules of a large set from which the
// set finds them by anchor rather than trying each on every path whose
// head they share.
const minFloating = 32

// A floatTable finds the wildcard rules of a large set. Each rule is filed
// under an anchor: a gram of its pattern after the head, that is one, two
// or three consecutive literal bytes, the cheapest among the rules of the
// table (anchorCost). A path can only match rules whose anchor it holds, so
// a question looks up the grams of its path, each bucket once, and tries
// the rules filed there: the cost grows with the length of the path and the
// rules whose anchor it holds, not with the number of rules, nor with the
// rules of a head the path starts with.
//
// The rules are laid out by bucket (bigSet): bucket b holds the rules
// start[b] to start[b+1] of the run, by key, greatest first. Several
// anchors may share a bucket.
type floatTable struct {
	// bits is the base-2 logarithm of the number of buckets.
	bits uint8
	// lens is the set of the lengths of the anchors of the rules: bit n-1
	// for grams of n bytes. A question looks up only grams of those lengths.
	lens  uint8
	start []int32
	// rare holds, for each rule of the run, two bytes its pattern holds
	// after the head, the least common in URLs (rarity): a path that lacks
	// either cannot match, which one look at the path's bytes tells.
	rare [][2]byte
}

// rarity ranks bytes by how rarely URL paths hold them, rarest highest:
// punctuation other than "/", "-", "." and "_", then upper-case letters,
// digits, lower-case letters, and those four.
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

// rarest returns the two rarest bytes of the literal bytes of p, or p's
// only byte twice.
func rarest(p string) [2]byte {
	var r [2]byte
	best := [2]int{-1, -1}
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '*' || c == r[0] && best[0] >= 0 {
			continue
		}
		switch k := rarity(c); {
		case k > best[0]:
			r[1], best[1] = r[0], best[0]
			r[0], best[0] = c, k
		case k > best[1] && c != r[0]:
			r[1], best[1] = c, k
		}
	}
	if best[1] < 0 {
		r[1] = r[0]
	}
	return r
}

// A byteMap is the set of the bytes of a path.
type byteMap [4]uint64

func (b *byteMap) add(s string) {
	for i := 0; i < len(s); i++ {
		b[s[i]>>6] |= 1 << (s[i] & 63)
	}
}

func (b *byteMap) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// maxBucketBits bounds the number of buckets, so that the buckets a
// question has seen fit in a small bitmap.
const maxBucketBits = 13

// bucket returns the bucket of gram g.
func (t *floatTable) bucket(g uint32) uint32 {
	return g * fibonacci32 >> (32 - t.bits)
}

// fibonacci32 is 2^32 divided by the golden ratio: multiplying by it
// spreads keys over the high bits (Knuth's multiplicative hashing).
const fibonacci32 = 0x9E3779B1

// A gram is one to three bytes as a number: its length in the top byte,
// then its bytes, the first highest, and zeros for the missing ones.
func gram1(c byte) uint32 { return 1<<24 | uint32(c)<<16 }

func gram2(s string, i int) uint32 { return 2<<24 | uint32(s[i])<<16 | uint32(s[i+1])<<8 }

func gram3(s string, i int) uint32 {
	return 3<<24 | uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2])
}

// gramLen returns the length of gram g.
func gramLen(g uint32) int { return int(g >> 24) }

// grams calls f with each gram of the wildcard pattern p (the part after
// the head): each run of one, two and three consecutive literal bytes.
func grams(p string, f func(g uint32)) {
	for i := 0; i < len(p); i++ {
		if p[i] == '*' {
			continue
		}
		f(gram1(p[i]))
		if i+1 < len(p) && p[i+1] != '*' {
			f(gram2(p, i))
			if i+2 < len(p) && p[i+2] != '*' {
				f(gram3(p, i))
			}
		}
	}
}

// anchorCost returns how costly gram g, the gram of freq rules, is as an
// anchor: a question tries the rules of an anchor its path holds, and a
// path holds a given byte far more often than a given run of three.
func anchorCost(g uint32, freq uint16) int {
	return int(freq) << (2 * (3 - gramLen(g)))
}

// freqBits is the base-2 logarithm of the number of counters with which
// fileFloating estimates how rare a gram of two or three bytes is.
const freqBits = 12

// gramCounts counts how many times each gram occurs among the rules of a
// table: exactly for single bytes, in hashed counters for longer grams, a
// table for each length. Grams that share a counter look more frequent
// than they are, which only makes the choice of anchor less good.
type gramCounts struct {
	one        [256]uint16
	two, three [1 << freqBits]uint16
}

// counter returns the counter of g.
func (c *gramCounts) counter(g uint32) *uint16 {
	slot := g * fibonacci32 >> (32 - freqBits)
	switch gramLen(g) {
	case 1:
		return &c.one[g>>16&0xff]
	case 2:
		return &c.two[slot]
	}
	return &c.three[slot]
}

// fileFloating appends to out the floating rules of rules (sorted by key)
// by bucket, and returns the result and how many it appended. out is empty.
func (s *ruleSet) fileFloating(x *bigSet, out, rules []rule, floating func(rule) bool) (_ []rule, nFloat int32) {
	tail := func(r rule) string { return s.pattern(r)[r.headLen():] }
	freq := new(gramCounts)
	for _, r := range rules {
		if floating(r) {
			nFloat++
			grams(tail(r), func(g uint32) {
				if f := freq.counter(g); *f < 1<<16-1 {
					*f++
				}
			})
		}
	}
	// The anchor of each floating rule: every wildcard pattern has a
	// literal byte after its head, since newRule trims a trailing "*".
	anchor := make([]uint32, 0, nFloat)
	t := &x.float
	for _, r := range rules {
		if !floating(r) {
			continue
		}
		best, bestCost := uint32(0), -1
		grams(tail(r), func(g uint32) {
			if c := anchorCost(g, *freq.counter(g)); bestCost < 0 || c < bestCost {
				best, bestCost = g, c
			}
		})
		anchor = append(anchor, best)
		t.lens |= 1 << (gramLen(best) - 1)
	}
	for t.bits = 4; 1<<t.bits < nFloat && t.bits < maxBucketBits; t.bits++ {
	}
	t.start = make([]int32, 1<<t.bits+1)
	for _, a := range anchor {
		t.start[t.bucket(a)+1]++
	}
	for b := 1; b < len(t.start); b++ {
		t.start[b] += t.start[b-1]
	}
	// A counting sort by bucket, which keeps the order by key within each.
	out = out[:nFloat]
	next := make([]int32, 1<<t.bits)
	copy(next, t.start)
	k := 0
	for _, r := range rules {
		if floating(r) {
			b := t.bucket(anchor[k])
			out[next[b]] = r
			next[b]++
			k++
		}
	}
	t.rare = make([][2]byte, len(out))
	for i, r := range out {
		t.rare[i] = rarest(tail(r))
	}
	return out, nFloat
}

// matchFloating updates m with the best rule of float, the rules of s
// filed in t, that matches path.
func (s *ruleSet) matchFloating(t *floatTable, float []rule, path string, m *match) {
	q := floatQuery{s: s, t: t, float: float, path: path, m: m}
	q.has.add(path)
	// The bitmap of the buckets seen is cleared on each question: as small
	// as the table allows.
	if t.bits <= smallTableBits {
		var seen [1 << smallTableBits / 64]uint64
		q.seen = seen[:]
		q.lookUp()
		return
	}
	var seen [1 << maxBucketBits / 64]uint64
	q.seen = seen[:]
	q.lookUp()
}

// smallTableBits is the number of buckets up to which a question marks the
// buckets it has seen in a bitmap of 4 words rather than 128.
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
	seen  []uint64
}

// lookUp tries the rules of the buckets of the grams of the path of the
// lengths the table holds, each bucket once: its distinct bytes, then each
// run of two and of three bytes.
func (q *floatQuery) lookUp() {
	path := q.path
	if q.t.lens&1 != 0 {
		for w, word := range q.has {
			for ; word != 0; word &= word - 1 {
				q.try(gram1(byte(w<<6 | bits.TrailingZeros64(word))))
			}
		}
	}
	if q.t.lens&2 != 0 {
		for i := 0; i+1 < len(path); i++ {
			q.try(gram2(path, i))
		}
	}
	if q.t.lens&4 != 0 {
		for i := 0; i+2 < len(path); i++ {
			q.try(gram3(path, i))
		}
	}
}

// try tries the rules of the bucket of gram g, unless it was looked up.
func (q *floatQuery) try(g uint32) {
	b := q.t.bucket(g)
	if q.seen[b/64]&(1<<(b%64)) != 0 {
		return
	}
	q.seen[b/64] |= 1 << (b % 64)
	if lo, hi := q.t.start[b], q.t.start[b+1]; lo < hi {
		q.s.tryRare(q.float[lo:hi], q.t.rare[lo:hi], &q.has, q.path, q.m)
	}
}

// tryRare is try for rules whose rare bytes are rare, skipping those
// whose rare bytes path lacks (has).
func (s *ruleSet) tryRare(seq []rule, rare [][2]byte, has *byteMap, path string, m *match) {
	for j, r := range seq {
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			return
		}
		if c := rare[j]; has.has(c[0]) && has.has(c[1]) && s.matches(r, path, m) {
			m.take(s, r)
			return
		}
	}
}
