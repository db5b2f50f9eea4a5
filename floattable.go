package robots

// The anchor table of the wildcard rules of a large set whose head is too
// short to select them (see floatTable).

// minFloating is the number of wildcard rules with a head of at most one
// byte ("/*.php$", "*/print") from which a set finds them by anchor rather
// than trying each on every path.
const minFloating = 32

// A floatTable finds the wildcard rules of a set whose head is at most one
// byte long. Each rule is filed under an anchor: three consecutive literal
// bytes of its pattern after the head, the rarest such run among the rules
// of the table. A path can only match rules whose anchor it holds, so a
// question looks up the runs of three bytes of its path, each once, and tries
// the rules filed under them: the cost grows with the length of the path
// and the rules that share its runs, not with the number of rules.
//
// The rules are laid out by bucket (bigSet): bucket b holds the rules
// start[b] to start[b+1] of the run, by key, greatest first. Several
// anchors may share a bucket.
type floatTable struct {
	// bits is the base-2 logarithm of the number of buckets.
	bits  uint8
	start []int32
	// rare holds, for each rule of the run and of the loose run after it,
	// two bytes its pattern holds after the head, the least common in URLs
	// (rarity): a path that lacks either cannot match, which one look at
	// the path's bytes tells.
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

// bucket returns the bucket of anchor a.
func (t *floatTable) bucket(a uint32) uint32 {
	return a * fibonacci32 >> (32 - t.bits)
}

// fibonacci32 is 2^32 divided by the golden ratio: multiplying by it
// spreads keys over the high bits (Knuth's multiplicative hashing).
const fibonacci32 = 0x9E3779B1

// anchorAt returns the anchor of the three bytes of s at i.
func anchorAt(s string, i int) uint32 {
	return uint32(s[i])<<16 | uint32(s[i+1])<<8 | uint32(s[i+2])
}

// anchors calls f with each run of three consecutive literal bytes of the
// wildcard pattern p (the part after the head), as a number.
func anchors(p string, f func(uint32)) {
	for i := 0; i+2 < len(p); i++ {
		if p[i] != '*' && p[i+1] != '*' && p[i+2] != '*' {
			f(anchorAt(p, i))
		}
	}
}

// freqBits is the base-2 logarithm of the number of counters with which
// fileFloating estimates how rare an anchor is.
const freqBits = 12

// fileFloating appends to out the floating rules of rules (sorted by key),
// those with an anchor by bucket, then the loose ones, and returns the
// result and how many of each it appended. out is empty.
func (s *ruleSet) fileFloating(x *bigSet, out, rules []rule) (_ []rule, nFloat, nLoose int32) {
	floating := func(r rule) bool { return r.shape() >= shapeWildcard && r.headLen() <= 1 }
	tail := func(r rule) string { return s.pattern(r)[r.headLen():] }
	// How often each anchor occurs, counted in hashed counters: anchors
	// that share a counter look more frequent than they are, which only
	// makes the choice less good.
	var freq [1 << freqBits]uint16
	slot := func(a uint32) uint32 { return a * fibonacci32 >> (32 - freqBits) }
	for _, r := range rules {
		if floating(r) {
			anchors(tail(r), func(a uint32) {
				if f := &freq[slot(a)]; *f < 1<<16-1 {
					*f++
				}
			})
		}
	}
	// The anchor of each floating rule, or -1 if it is loose.
	var anchor []int64
	for _, r := range rules {
		if !floating(r) {
			continue
		}
		best, bestFreq := int64(-1), uint16(0)
		anchors(tail(r), func(a uint32) {
			if f := freq[slot(a)]; best < 0 || f < bestFreq {
				best, bestFreq = int64(a), f
			}
		})
		anchor = append(anchor, best)
		if best >= 0 {
			nFloat++
		}
	}
	t := &x.float
	for t.bits = 4; 1<<t.bits < nFloat && t.bits < maxBucketBits; t.bits++ {
	}
	t.start = make([]int32, 1<<t.bits+1)
	for _, a := range anchor {
		if a >= 0 {
			t.start[t.bucket(uint32(a))+1]++
		}
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
		if !floating(r) {
			continue
		}
		if a := anchor[k]; a >= 0 {
			b := t.bucket(uint32(a))
			out[next[b]] = r
			next[b]++
		} else {
			out = append(out, r)
			nLoose++
		}
		k++
	}
	t.rare = make([][2]byte, len(out))
	for i, r := range out {
		t.rare[i] = rarest(tail(r))
	}
	return out, nFloat, nLoose
}

// matchFloating updates m with the best rule of the runs float and loose
// of s, filed in t, that matches path.
func (s *ruleSet) matchFloating(t *floatTable, float, loose []rule, path string, m *match) {
	var has byteMap
	has.add(path)
	s.tryRare(loose, t.rare[len(float):], &has, path, m)
	var seen [1 << maxBucketBits / 64]uint64 // buckets looked up
	for i := 0; i+2 < len(path); i++ {
		b := t.bucket(anchorAt(path, i))
		if seen[b/64]&(1<<(b%64)) != 0 {
			continue
		}
		seen[b/64] |= 1 << (b % 64)
		lo, hi := t.start[b], t.start[b+1]
		s.tryRare(float[lo:hi], t.rare[lo:hi], &has, path, m)
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
