package robots

// The anchor table of the wildcard rules of a large set whose head is too
// short to select them (see floatTable).

import "slices"

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
// and the rules that share its pairs, not with the number of rules.
type floatTable struct {
	// bits is the base-2 logarithm of the number of buckets.
	bits uint8
	// Bucket b holds the rules items[start[b]:start[b+1]], by key, greatest
	// first. Several anchors may share a bucket.
	start []int32
	items []int32
	// loose are the rules with no three consecutive literal bytes ("/*ab*c"),
	// by key, greatest first: they are tried on every path.
	loose []int32
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

// newFloatTable files the rules floating of s (indexes, by key, greatest
// first) under their anchors.
func newFloatTable(s *ruleSet, floating []int32) *floatTable {
	freq := map[uint32]int32{}
	for _, j := range floating {
		r := &s.rules[j]
		anchors(s.pattern(r)[r.head:], func(a uint32) { freq[a]++ })
	}
	t := &floatTable{bits: 6}
	anchor := make([]int64, len(floating)) // -1: loose
	n := 0
	for k, j := range floating {
		r := &s.rules[j]
		best, bestFreq := int64(-1), int32(0)
		anchors(s.pattern(r)[r.head:], func(a uint32) {
			if f := freq[a]; best < 0 || f < bestFreq {
				best, bestFreq = int64(a), f
			}
		})
		anchor[k] = best
		if best < 0 {
			t.loose = append(t.loose, j)
		} else {
			n++
		}
	}
	for 1<<t.bits < n && t.bits < maxBucketBits {
		t.bits++
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
	t.items = make([]int32, n)
	next := slices.Clone(t.start[:len(t.start)-1])
	for k, a := range anchor {
		if a >= 0 {
			b := t.bucket(uint32(a))
			t.items[next[b]] = floating[k]
			next[b]++
		}
	}
	return t
}

// matchFloating updates m with the best rule of the float table t of s that
// matches path.
func (s *ruleSet) matchFloating(t *floatTable, path string, m *match) {
	for _, j := range t.loose {
		if s.rules[j].key <= m.key {
			break
		}
		if s.tryWildcard(j, path, m) {
			break
		}
	}
	var seen [1 << maxBucketBits / 64]uint64 // buckets looked up
	for i := 0; i+2 < len(path); i++ {
		b := t.bucket(anchorAt(path, i))
		if seen[b/64]&(1<<(b%64)) != 0 {
			continue
		}
		seen[b/64] |= 1 << (b % 64)
		for _, j := range t.items[t.start[b]:t.start[b+1]] {
			if s.rules[j].key <= m.key {
				break
			}
			if s.tryWildcard(j, path, m) {
				break
			}
		}
	}
}
