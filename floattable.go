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
	// need holds, for each rule of the run, the set of bytes a path must
	// hold for it to match, finer than the rule's own (bytes equal modulo
	// 16 rather than 8 are conflated).
	need []uint16
}

// byteBit16 returns the bit of c in a set of bytes of floatTable.need.
func byteBit16(c byte) uint16 { return 1 << (c & 15) }

// byteSet16 returns the set of the bytes of s, except "*", for
// floatTable.need.
func byteSet16(s string) uint16 {
	var set uint16
	for i := 0; i < len(s); i++ {
		if s[i] != '*' {
			set |= byteBit16(s[i])
		}
	}
	return set
}

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
	for t.bits = 6; 1<<t.bits < nFloat && t.bits < maxBucketBits; t.bits++ {
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
	t.need = make([]uint16, nFloat)
	for i, r := range out[:nFloat] {
		t.need[i] = byteSet16(tail(r))
	}
	return out, nFloat, nLoose
}

// matchFloating updates m with the best rule of the run float of s, filed
// in t, that matches path.
func (s *ruleSet) matchFloating(t *floatTable, float []rule, path string, m *match) {
	var seen [1 << maxBucketBits / 64]uint64 // buckets looked up
	has := byteSet16(path)
	for i := 0; i+2 < len(path); i++ {
		b := t.bucket(anchorAt(path, i))
		if seen[b/64]&(1<<(b%64)) != 0 {
			continue
		}
		seen[b/64] |= 1 << (b % 64)
		for j := t.start[b]; j < t.start[b+1]; j++ {
			r := float[j]
			if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
				break
			}
			if t.need[j]&^has == 0 && s.matches(r, path, m) {
				m.take(s, r)
				break
			}
		}
	}
}
