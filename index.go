package robots

// The layout of a large rule set, made once it is asked enough (lazy.go): its rules
// sorted by head, each head linked to the longest other that is a prefix of
// it, so that one binary search finds the heads that are prefixes of a path.
//
// What it buys, on a warm question to Googlebot (CPU time, URLs of
// BenchmarkAllowed): 133 ns rather than 1.51 µs on large-27KB, and 265 ns
// rather than 5.93 µs on largest-231KB, against a scan of the compiled
// rules (layoutQuestions never reached).

import (
	"cmp"
	"hash/maphash"
	"slices"
	"strings"
)

// A bigSet describes the layout of a set of more than smallSet rules.
// Its rules are compiled in file order; once the set is asked enough
// (lazy.go), a question lays them out in place (layOut), in three runs:
//
//   - the wildcard rules, filed by anchor in the buckets of a floatTable,
//     when there are many;
//   - those of them with no anchor (loose), by key, greatest first;
//   - all other rules, sorted by head, and by key, greatest last, among
//     rules of the same head (linkHeads).
type bigSet struct {
	// nFloat and nLoose are the lengths of the first two runs, and float
	// the buckets of the first (nil if both are empty).
	nFloat, nLoose int32
	float          *floatTable
	// up links the rules of the third run: the last rule of each head to
	// the last rule of the longest other head that is a prefix of it, or -1;
	// the others are inRun; kept in the rules when they all can be
	// (links.go).
	up links
	// extra is the greatest excess of the priority of a rule of the third
	// run over the length of its head: a rule whose head is n bytes long
	// has a priority of at most n+extra.
	extra int32
	// nLive is the number of rules of the set that repeat none before them
	// (splitRepeats): the runs above are among them, and the others follow,
	// never asked.
	nLive int32
	// rules are the rules of the set, laid out (ruleSet.rules, without
	// the look-up of a lazy set's).
	rules []rule
	// dirs are the directories that the index.htm allow rules of the set
	// also allow, when compile left their rules out (omitDirs), sorted by
	// directory (dirList).
	dirs dirList
	// raw reports whether the set has raw rules (ruleRaw), whose heads and
	// directories are compared escaped as they go.
	raw bool
}

// layOut lays out the rules of s, a set of more than smallSet rules, and
// returns its layout. The layout is made in a slice of its own, so that
// questions scanning the compiled rules meanwhile read rules that never
// change; of concurrent questions, each lays out, and the first to
// publish its layout is kept, without a lock. MemSize counts the layout
// from then on, and no longer the compiled rules of a lazy set, which the
// layout holds instead (own is released).
func (s *ruleSet) layOut() *bigSet {
	if b := s.big.Load(); b != nil {
		return b
	}
	compiled := s.ready()
	rules := make([]rule, len(compiled)) // of its exact size, as compileLazy's
	copy(rules, compiled)
	b := s.newLayout(rules)
	b.rules = rules
	if !s.big.CompareAndSwap(nil, b) {
		return s.big.Load()
	}
	size := b.memSize() + sliceSize[rule](cap(rules))
	if s.big.lazy() {
		if p := s.big.own.Swap(nil); p != nil {
			size -= ownSize(*p)
		}
	}
	s.file.lazySize.Add(int64(size))
	return b
}

// newLayout lays out rules, in file order, in place, and returns the
// layout.
func (s *ruleSet) newLayout(rules []rule) *bigSet {
	x := &bigSet{}
	for _, r := range rules {
		x.raw = x.raw || r&ruleRaw != 0
	}
	byKey, repeats := s.splitRepeats(byKey(rules))
	x.nLive = int32(len(byKey))
	defer copy(rules[x.nLive:], repeats)
	rules = rules[:x.nLive]
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
	s.fileDirs(x, rules)
	return x
}

// splitRepeats splits rules, sorted by key, greatest first, into those
// that repeat none before them and those that do (same), which can never
// decide, both in order. A run of rules of one rank is sorted by a hash of
// each rule to find them.
func (s *ruleSet) splitRepeats(rules []rule) (live, repeats []rule) {
	text := s.file.text
	var run []uint64
	var dead []bool
	for lo := 0; lo < len(rules); {
		hi := lo + 1
		for hi < len(rules) && rules[hi].rank() == rules[lo].rank() {
			hi++
		}
		if hi-lo > 1 {
			// By a hash of the rule, then by position: rules alike are
			// together, the earliest first. (A rule whose hash collides
			// with that of two rules alike may keep the later one live:
			// asked for nothing, not wrong.)
			run = slices.Grow(run[:0], hi-lo)
			for i := lo; i < hi; i++ {
				h := maphash.String(repeatSeed, s.text(rules[i])) ^ uint64(rules[i]>>ruleOffBits)*0x9e3779b97f4a7c15
				run = append(run, h&^(1<<repeatIndexBits-1)|uint64(i))
			}
			slices.Sort(run)
			const index = 1<<repeatIndexBits - 1
			for k := 1; k < len(run); k++ {
				a, b := run[k-1], run[k]
				if a&^index == b&^index && same(rules[a&index], rules[b&index], text) {
					if dead == nil {
						dead = make([]bool, len(rules))
					}
					dead[b&index] = true
				}
			}
		}
		lo = hi
	}
	if dead == nil {
		return rules, nil
	}
	live = make([]rule, 0, len(rules))
	for i, r := range rules {
		if dead[i] {
			repeats = append(repeats, r)
		} else {
			live = append(live, r)
		}
	}
	return live, repeats
}

// repeatSeed seeds the hashes of splitRepeats, and repeatIndexBits is the
// width of a rule's index beside its hash: a set has fewer rules than a
// file has lines.
var repeatSeed = maphash.MakeSeed()

const repeatIndexBits = lineBits

// text returns r's escaped pattern, priority bytes long (for a directory
// of an index.htm rule, one byte of "index.htm" more): made anew for a raw
// rule.
func (s *ruleSet) text(r rule) string {
	if r&ruleRaw != 0 {
		return s.escaped(r, r.priority())
	}
	return s.file.text[r.off() : r.off()+uint32(r.priority())]
}

// match updates m with the best rule of s, laid out as b, that matches
// path.
func (b *bigSet) match(s *ruleSet, path string, m *match) {
	rules := b.rules[:b.nLive]
	s.matchHeaded(b, rules[b.nFloat+b.nLoose:], path, m)
	if b.nFloat+b.nLoose > 0 {
		s.matchFloating(b.float, rules[:b.nFloat], rules[b.nFloat:b.nFloat+b.nLoose], path, m)
	}
	if !b.dirs.empty() {
		b.matchDirs(s, rules, path, m)
	}
}

// matchHeaded updates m with the best rule of rules, the third run of a
// laid-out set b, that matches path. The heads that are prefixes of path are
// the greatest head not above path, if it is one, and the heads it links to
// (bigSet.up), which one binary search and a walk up find; the walk stops
// when no rule of a head that short can beat the best match (extra).
func (s *ruleSet) matchHeaded(b *bigSet, rules []rule, path string, m *match) {
	var i int32
	var common int
	if b.raw {
		i, common = s.searchHeadsRaw(rules, path)
	} else {
		text := s.file.text
		head := func(r rule) string { return text[r.off() : r.off()+uint32(r.headLen())] }
		// The last rule whose head is at most path ends the run of that
		// head.
		lo, hi := 0, len(rules)
		for lo < hi {
			mid := int(uint(lo+hi) >> 1)
			if head(rules[mid]) <= path {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		i = int32(lo - 1)
		if i >= 0 {
			common = commonPrefixLen(head(rules[i]), path)
		}
	}
	for ; i >= 0; i = b.up.at(rules, i) {
		n := rules[i].headLen()
		if n > common {
			continue
		}
		if int(m.rank>>1) > n+int(b.extra) {
			return
		}
		// The run of this head, by key, greatest last.
		for j := i; j >= 0 && (j == i || b.up.at(rules, j) == inRun); j-- {
			r := rules[j]
			if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
				break
			}
			if s.matchesAfterHead(r, path, m) {
				m.take(s, r)
				break
			}
			s.tryFolded(r, path, m)
		}
	}
}

// linkHeads sorts rules, the third run of b, by head, then by key within
// each head, greatest last, and links the last rule of each head to that of
// the longest other head that is a prefix of it.
func (s *ruleSet) linkHeads(b *bigSet, rules []rule) {
	heads := s.sortByHead(rules, b.raw)
	head := func(k int) string {
		if heads != nil {
			return heads[k]
		}
		return s.head(rules[k])
	}
	up := make([]int32, len(rules))
	var stack []int32 // the runs whose heads are prefixes of the current one
	for lo := 0; lo < len(rules); {
		h := head(lo)
		hi := lo + 1
		for hi < len(rules) && head(hi) == h {
			hi++
		}
		slices.Reverse(rules[lo:hi])
		for j := lo; j < hi-1; j++ {
			up[j] = inRun
		}
		for len(stack) > 0 && !strings.HasPrefix(h, head(int(stack[len(stack)-1]))) {
			stack = stack[:len(stack)-1]
		}
		up[hi-1] = -1
		if len(stack) > 0 {
			up[hi-1] = stack[len(stack)-1]
		}
		stack = append(stack, int32(hi-1))
		for _, r := range rules[lo:hi] {
			b.extra = max(b.extra, int32(r.priority()-r.headLen()))
		}
		lo = hi
	}
	b.up = makeLinks(rules, up)
}

// sortByHead sorts rules by head, keeping the rules of one head in their
// order (by key, greatest first). The heads of a set with raw rules are
// escaped once each, first, and returned in their new order; else it
// returns nil.
func (s *ruleSet) sortByHead(rules []rule, raw bool) []string {
	type item struct {
		head string
		r    rule
	}
	var heads []string
	if raw {
		heads = s.escapedAll(rules, rule.headLen)
	}
	items := make([]item, len(rules))
	for i, r := range rules {
		if raw {
			items[i] = item{heads[i], r}
		} else {
			items[i] = item{s.head(r), r}
		}
	}
	slices.SortStableFunc(items, func(a, b item) int { return strings.Compare(a.head, b.head) })
	for i, it := range items {
		rules[i] = it.r
		if raw {
			heads[i] = it.head
		}
	}
	return heads
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
// It may run beside queries: a layout made meanwhile is read again.
func (s *ruleSet) sorted() []rule {
	switch {
	case s.n == 0:
		return nil
	case s.lo < 0:
		return s.compiledLines()
	}
	var b *bigSet
	if s.big != nil {
		b = s.big.Load()
	}
	rules := slices.Clone(s.ready())
	if b == nil && s.big != nil && s.big.Load() != nil {
		return s.sorted() // laid out meanwhile: ready gave its rules
	}
	if b != nil {
		rules = slices.Clone(b.rules)
	}
	switch {
	case s.big == nil:
		return rules
	case b == nil:
		return byKey(rules)
	}
	for i, r := range rules[:b.nFloat] {
		rules[i] = s.compiledAs(r)
	}
	// Each rule's key once: it looks up the rule's line (Robots.ruleAt).
	type keyed struct {
		key uint64
		r   rule
	}
	ks := make([]keyed, len(rules))
	for i, r := range rules {
		ks[i] = keyed{s.key(r), r}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return cmp.Compare(b.key, a.key) })
	for i, k := range ks {
		rules[i] = k.r
	}
	return rules
}
