package robots

// The layout of a large rule set, made on its first query: its rules
// sorted by head, each head linked to the longest other that is a prefix of
// it, so that one binary search finds the heads that are prefixes of a path.

import (
	"slices"
	"strings"
)

// A bigSet describes the layout of a set of more than smallSet rules.
// Parse stores the rules in file order; the first query lays them out in
// place (layOut), in three runs:
//
//   - the wildcard rules, filed by anchor in the buckets of a floatTable,
//     when there are many;
//   - those of them with no anchor (loose), by key, greatest first;
//   - all other rules, sorted by head, and by key, greatest last, among
//     rules of the same head (linkHeads).
type bigSet struct {
	// nFloat and nLoose are the lengths of the first two runs, and float
	// the buckets of the first.
	nFloat, nLoose int32
	float          floatTable
	// up links the rules of the third run: the last rule of each head to
	// the last rule of the longest other head that is a prefix of it, or -1;
	// the others are inRun.
	up []int32
	// extra is the greatest excess of the priority of a rule of the third
	// run over the length of its head: a rule whose head is n bytes long
	// has a priority of at most n+extra.
	extra int32
}

// layOut lays out the rules of s, a set of more than smallSet rules, and
// returns its layout. Of concurrent first queries, one lays the rules out
// while the others wait, under a lock of the file that only first queries
// take; no query reads the rules of a large set before its layout is
// published. MemSize counts the layout from then on.
func (s *ruleSet) layOut() *bigSet {
	f := s.file
	f.layMu.Lock()
	defer f.layMu.Unlock()
	if b := s.big.Load(); b != nil {
		return b
	}
	b := s.newLayout(s.rules())
	s.big.Store(b)
	f.lazySize.Add(int64(b.memSize()))
	return b
}

// newLayout lays out rules, in file order, in place, and returns the
// layout.
func (s *ruleSet) newLayout(rules []rule) *bigSet {
	x := &bigSet{}
	byKey := byKey(rules)
	out := rules[:0]
	isFloating := func(r rule) bool { return r.shape() >= shapeWildcard }
	floating := 0
	for _, r := range byKey {
		if isFloating(r) {
			floating++
		}
	}
	if floating >= minFloating {
		out, x.nFloat, x.nLoose = s.fileFloating(x, out, byKey, isFloating)
	}
	headed := len(out)
	for _, r := range byKey {
		if x.nFloat+x.nLoose == 0 || !isFloating(r) {
			out = append(out, r)
		}
	}
	s.linkHeads(x, out[headed:])
	return x
}

// match updates m with the best rule of s, laid out as b, that matches
// path.
func (b *bigSet) match(s *ruleSet, path string, m *match) {
	rules := s.rules()
	s.matchHeaded(b, rules[b.nFloat+b.nLoose:], path, m)
	if b.nFloat+b.nLoose > 0 {
		s.matchFloating(&b.float, rules[:b.nFloat], rules[b.nFloat:b.nFloat+b.nLoose], path, m)
	}
}

// matchHeaded updates m with the best rule of rules, the third run of a
// laid-out set b, that matches path. The heads that are prefixes of path are
// the greatest head not above path, if it is one, and the heads it links to
// (bigSet.up), which one binary search and a walk up find; the walk stops
// when no rule of a head that short can beat the best match (extra).
func (s *ruleSet) matchHeaded(b *bigSet, rules []rule, path string, m *match) {
	text := s.file.text
	head := func(r rule) string { return text[r.off() : r.off()+uint32(r.headLen())] }
	// The last rule whose head is at most path ends the run of that head.
	lo, hi := 0, len(rules)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if head(rules[mid]) <= path {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	i := int32(lo - 1)
	if i < 0 {
		return
	}
	common := commonPrefixLen(head(rules[i]), path)
	for ; i >= 0; i = b.up[i] {
		n := rules[i].headLen()
		if n > common {
			continue
		}
		if int(m.rank>>1) > n+int(b.extra) {
			return
		}
		// The run of this head, by key, greatest last.
		for j := i; j >= 0 && (j == i || b.up[j] == inRun); j-- {
			r := rules[j]
			if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
				break
			}
			if s.matchesAfterHead(r, path, m) {
				m.take(s, r)
				break
			}
		}
	}
}

// inRun marks, in bigSet.up, a rule that does not end the run of its head.
const inRun = -2

// linkHeads sorts rules, the third run of b, by head, then by key within
// each head, greatest last, and links the last rule of each head to that of
// the longest other head that is a prefix of it.
func (s *ruleSet) linkHeads(b *bigSet, rules []rule) {
	// A stable sort keeps the rules of one head by key, greatest first.
	slices.SortStableFunc(rules, func(a, b rule) int { return strings.Compare(s.head(a), s.head(b)) })
	b.up = make([]int32, len(rules))
	var stack []int32 // the runs whose heads are prefixes of the current one
	for lo := 0; lo < len(rules); {
		h := s.head(rules[lo])
		hi := lo + 1
		for hi < len(rules) && s.head(rules[hi]) == h {
			hi++
		}
		slices.Reverse(rules[lo:hi])
		for j := lo; j < hi-1; j++ {
			b.up[j] = inRun
		}
		for len(stack) > 0 && !strings.HasPrefix(h, s.head(rules[stack[len(stack)-1]])) {
			stack = stack[:len(stack)-1]
		}
		b.up[hi-1] = -1
		if len(stack) > 0 {
			b.up[hi-1] = stack[len(stack)-1]
		}
		stack = append(stack, int32(hi-1))
		for _, r := range rules[lo:hi] {
			b.extra = max(b.extra, int32(r.priority()-r.headLen()))
		}
		lo = hi
	}
}

// commonPrefixLen returns the length of the longest common prefix of a and b.
func commonPrefixLen(a, b string) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// sorted returns a copy of the rules of s sorted by key, greatest first.
// It takes the lock of layOut, so that it may run beside queries.
func (s *ruleSet) sorted() []rule {
	if s.n == 0 {
		return nil
	}
	s.file.layMu.Lock()
	rules := slices.Clone(s.rules())
	laid := s.big != nil && s.big.Load() != nil
	s.file.layMu.Unlock()
	switch {
	case s.big == nil:
		return rules
	case !laid:
		return byKey(rules)
	}
	slices.SortFunc(rules, func(a, b rule) int {
		ka, kb := s.key(a), s.key(b)
		switch {
		case ka > kb:
			return -1
		case ka < kb:
			return 1
		}
		return 0
	})
	return rules
}
