package robots

// The anchor table of the wildcard rules of a large set. Buys, warm, on
// the worst case (bench/ BenchmarkWorstCase, 8 KB path): 105 µs rather
// than 11.8 ms against 10,000 rules, 174 µs rather than 1.23 ms against
// 1,000 (each wildcard rule tried with its head's).

// minFloating is the number of wildcard rules of a large set from which
// it finds them by anchor.
const minFloating = 32

// A floatTable finds the wildcard rules of a large set. Each rule is filed
// under an anchor: one, two or three consecutive literal bytes of its
// pattern after the head, the cheapest among the rules of the table
// (anchorCost). A path can only match rules whose anchor it holds, so a
// question looks up the bucket of each gram at each position of its path
// (floatQuery.try): the cost grows with the path and the rules whose
// anchor it holds, not with the number of rules. A rule whose pattern
// after the head is one literal segment ("/*?sid=") is checked where the
// anchor stands, in time linear in its segment; another ("/*/print/*.pdf")
// is matched in full, once a question. Rules whose cheapest anchor is of
// a length too few rules use (minGramRules) take one of another, or are
// loose.
//
// The rules are laid out by bucket (bigSet): bucket b holds the rules
// start[b] to start[b+1] of the run, the single ones (markSingle) by key,
// greatest first, then the others by key.
type floatTable struct {
	// bits is the base-2 logarithm of the number of buckets.
	bits uint8
	// lens has bit n-1 set if an anchor is n bytes long: a question looks
	// up only grams of those lengths.
	lens uint8
	// heads holds the first bytes of the anchors of two bytes, and of
	// three: a question looks up no gram whose first byte none has.
	heads [2]byteMap
	// start are the starts of the buckets and the end of the last: a set
	// laid out has fewer than maxLaid rules.
	start []uint16
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

// A byteMap is a set of bytes.
type byteMap [4]uint64

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

// grams calls f with each run of one, two and three consecutive literal
// bytes of the wildcard pattern p.
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
// anchor: a path holds a given byte far more often than a given run of
// three.
func anchorCost(g uint32, freq uint16) int {
	return int(freq) << (2 * (3 - gramLen(g)))
}

const freqBits = 12

// gramCounts counts the grams of the rules of a table: exactly for single
// bytes, in hashed counters for longer grams, where a collision only makes
// the choice of anchor less good.
type gramCounts struct {
	one        [256]uint16
	two, three [1 << freqBits]uint16
}

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

// minGramRules returns the number of rules with anchors of n bytes from
// which a table files rules by them: a question looks up a gram of two or
// three bytes at each byte of its path, one of one byte for each distinct
// byte.
func minGramRules(n int) int {
	if n == 1 {
		return 8
	}
	return 64
}

// sparseRules is the number of rules from which a table has a bucket for
// every one or two rules rather than every two to four: fuller buckets in
// a large table cost a question 1.6 times as much time
// (BenchmarkAdversarialLayouts/anchor-bucket, 2,500 rules), and fewer in a
// small one keep a file of 4 to 16 KiB of the shortest wildcard rules
// under 1.5 bytes a byte (keptGoal).
const sparseRules = 2048

// fileFloating appends to out, empty, float, the wildcard rules of a set
// (sorted by key), those with an anchor by bucket, then the loose ones, and
// returns the result and how many of each it appended.
func (s *ruleSet) fileFloating(x *bigSet, out, float []rule) (_ []rule, nFloat, nLoose int32) {
	x.float = new(floatTable)
	t := x.float
	// The pattern of each rule after its head, up to the end of the
	// directory it stands for, if it does (floatTail): escaped once each.
	tails := s.escapedAll(float, s.end)
	for k, r := range float {
		tails[k] = s.floatTail(r, tails[k])
	}
	anchor := s.chooseAnchors(t, float, tails)
	for _, a := range anchor {
		if a != 0 {
			nFloat++
		}
	}
	nLoose = int32(len(float)) - nFloat
	perBucket := int32(2)
	if nFloat < sparseRules {
		perBucket = 4
	}
	for t.bits = 4; perBucket<<t.bits < nFloat && t.bits < maxBucketBits; t.bits++ {
	}
	// next counts the rules of each bucket, then holds where the next
	// rule of each goes: a counting sort, which keeps the order by key.
	next := make([]int32, 1<<t.bits+1)
	for _, a := range anchor {
		if a != 0 {
			next[t.bucket(a)+1]++
		}
	}
	for b := 1; b < len(next); b++ {
		next[b] += next[b-1]
	}
	t.start = make([]uint16, len(next))
	for b, v := range next {
		t.start[b] = uint16(v)
	}
	for k, r := range float {
		switch _, single := s.segment(r); {
		case anchor[k] == 0:
			// Loose: kept as compiled, tested by its need (tryInOrder).
		case single && gramLen(anchor[k]) > 1:
			float[k] = markSingle(r, s.tagOf(r, anchor[k], tails[k])) // a gram of one byte is looked up once
		default:
			float[k] = markRare(r, tails[k])
		}
	}
	out = out[:len(float)]
	loose := nFloat
	for _, a := range anchor {
		if n := gramLen(a); n > 1 {
			t.heads[n-2].set(byte(a >> 16))
		}
	}
	for pass := range 2 { // the single rules of each bucket, then the others
		for k, a := range anchor {
			i := &loose
			switch {
			case a == 0 && pass == 1, a != 0 && float[k].shape() == shapePrefix != (pass == 0):
				continue
			case a != 0:
				i = &next[t.bucket(a)]
			}
			out[*i] = float[k]
			*i++
		}
	}
	return out, nFloat, nLoose
}

// chooseAnchors returns the anchor of each rule of float, whose patterns
// after the head are tails, or 0 for a loose rule, and sets t.lens.
func (s *ruleSet) chooseAnchors(t *floatTable, float []rule, tails []string) []uint32 {
	freq := new(gramCounts)
	for _, tail := range tails {
		grams(tail, func(g uint32) {
			if f := freq.counter(g); *f < 1<<16-1 {
				*f++
			}
		})
	}
	// Every wildcard pattern has a literal byte after its head (newRule
	// trims a trailing "*"), and so a gram.
	anchor := make([]uint32, len(float))
	choose := func(k int, lens uint8) {
		best, bestCost := uint32(0), -1
		grams(tails[k], func(g uint32) {
			c := anchorCost(g, *freq.counter(g))
			if lens&(1<<(gramLen(g)-1)) != 0 && (bestCost < 0 || c < bestCost) {
				best, bestCost = g, c
			}
		})
		anchor[k] = best
	}
	var perLen [4]int
	for k := range float {
		choose(k, 7)
		perLen[gramLen(anchor[k])]++
	}
	for n := 1; n <= 3; n++ {
		if perLen[n] >= minGramRules(n) {
			t.lens |= 1 << (n - 1)
		}
	}
	for k, a := range anchor {
		if t.lens&(1<<(gramLen(a)-1)) == 0 {
			choose(k, t.lens) // 0 when the rule has no gram of those lengths
		}
	}
	return anchor
}

func (t *floatTable) startOf(b uint32) int32 { return int32(t.start[b]) }
