package robots

// The anchor table of the wildcard rules of a large set. Buys, warm, on
// the worst case (bench/ BenchmarkWorstCase, 8 KB path): 105 µs rather
// than 11.8 ms against 10,000 rules, 174 µs rather than 1.23 ms against
// 1,000 (each wildcard rule tried with its head's).

// minFloating is the number of wildcard rules of a large set from which
// it finds them by anchor.
const minFloating = 32

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
