package ruleset

// The layout of a large rule set, made once it is asked enough (lazy.go):
// its rules sorted by head, each head linked to the longest other head
// that is a prefix of it, so that one binary search finds the heads that
// are prefixes of a path. Buys a warm question on a large file, against a
// scan of the rules (BenchmarkAllowed; bench/RESULTS.md, "What each mechanism buys").

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"sort"
	"strings"

	"github.com/gorep/robots/internal/heapsize"
	"github.com/gorep/robots/internal/lines"
)

// A bigSet is the layout of a set of more than smallSet rules: its rules
// in two runs, the wildcard rules filed by anchor in the buckets of a
// floatTable (when there are many), and all others sorted by head, and by
// key, greatest last, within a head (linkHeads).
type bigSet struct {
	// nFloat is the length of the first run, and float its buckets (nil
	// if it is empty).
	nFloat int32
	float  *floatTable
	// up links the last rule of each head of the second run to the last
	// rule of the longest other head that is a prefix of it, or -1; the
	// others are inRun (index.go, makeLinks).
	up links
	// extra is the greatest excess of the priority of a rule of the third
	// run over the length of its head.
	extra int32
	// nLive is the number of rules that repeat none before them
	// (splitRepeats): the runs above; the repeats follow, never asked.
	nLive int32
	rules []rule
	// dirs are the directories of the index.htm allow rules, when compile
	// left their rules out (leaveOut).
	dirs dirList
	// raw reports whether the set has raw rules, whose heads and
	// directories are compared escaped as they go.
	raw bool
}

// links are the up links of the second run of a layout: a rule index, -1
// or inRun for each rule. When every rule of the run can keep its own, it
// is kept in the rule's need byte (0 in a rule that is not a wildcard
// rule): 0 for -1, linkInRun for inRun, or how many rules back the link
// is, below linkFar. Otherwise every link is kept in all, plus 2.
type links struct {
	all []uint16
}

const (
	linkFar   = 254
	linkInRun = 255
)

// newLayout lays out rules, in file order, and returns the layout, whose
// rules are a slice of its own; it sorts rules in place.
func (s *ruleSet) newLayout(rules []rule) *bigSet {
	x := &bigSet{raw: slices.ContainsFunc(rules, func(r rule) bool { return r&ruleRaw != 0 })}
	// Its capacity as the heap rounds it, which MemSize counts.
	x.rules = slices.Grow([]rule(nil), len(rules))[:len(rules)]
	byKey(rules, x.rules)
	live, repeats := s.splitRepeats(rules)
	x.nLive = int32(len(live))
	copy(x.rules[x.nLive:], repeats)
	// The wildcard rules first, if many, and the others after them.
	wild := func(r rule) bool { return r.shape() >= shapeWildcard }
	n := 0
	for _, r := range live {
		if wild(r) {
			n++
		}
	}
	if n < minFloating {
		n = 0
	}
	headed := x.rules[n:x.nLive]
	if n == 0 {
		copy(headed, live)
	} else {
		float, j := live[:0], 0 // in place, as in splitRepeats
		for _, r := range live {
			if wild(r) {
				float = append(float, r)
			} else {
				headed[j] = r
				j++
			}
		}
		s.fileFloating(x, x.rules[:n], float)
		x.nFloat = int32(n)
	}
	s.linkHeads(x, headed)
	s.fileDirs(x, x.rules[:x.nLive])
	return x
}

// splitRepeats splits rules, sorted by key, greatest first, into those
// that repeat none before them and those that do (dropRepeats), which never
// decide, both in order. Buys a warm question on repeated wildcard rules
// (BenchmarkHostile, wildcards-rep; bench/RESULTS.md, "What each mechanism buys").
func (s *ruleSet) splitRepeats(rules []rule) (live, repeats []rule) {
	// A table of the live rules, found by a hash of their patterns as
	// written, probed in turn (at least a third empty).
	seed, text := maphash.MakeSeed(), s.src.text
	seen := make([]int32, 1<<bits.Len(uint(len(rules)+len(rules)/2))) // 1 + an index of live
	mask := uint64(len(seen) - 1)
	live = rules[:0] // in place: a rule is read before it is written over
	for _, r := range rules {
		w := r.written(text)
		j := maphash.String(seed, w) & mask
		for seen[j] != 0 && (live[seen[j]-1]&^(ruleRaw-1) != r&^(ruleRaw-1) || live[seen[j]-1].written(text) != w) {
			j = (j + 1) & mask
		}
		if seen[j] != 0 {
			repeats = append(repeats, r)
			continue
		}
		live = append(live, r)
		seen[j] = int32(len(live))
	}
	return live, repeats
}

// match updates m with the best rule of s, laid out as b, that matches
// path.
func (b *bigSet) match(s *ruleSet, path string, m *match) {
	rules := b.rules[:b.nLive]
	s.matchHeaded(b, rules[b.nFloat:], path, m)
	if b.nFloat > 0 {
		s.matchFloating(b.float, rules[:b.nFloat], path, m)
	}
	b.matchDirs(s, rules, path, m)
}

// matchHeaded updates m with the best rule of rules, the second run of b,
// that matches path. The heads that are prefixes of path are the greatest
// head not above path, if it is one, and those it links to (bigSet.up);
// the walk up stops when no rule of a head that short can beat m (extra).
func (s *ruleSet) matchHeaded(b *bigSet, rules []rule, path string, m *match) {
	text := s.src.text
	head := func(r rule) string { return text[r.off() : r.off()+uint32(r.headLen())] }
	escaped := func(r rule) (int, int) { return compareToEscaped(text[r.off():], r.priority(), r.headLen(), path) }
	var k, common int
	if b.raw { // heads compared escaped as they go
		k = sort.Search(len(rules), func(k int) bool { c, _ := escaped(rules[k]); return c > 0 }) - 1
		if k >= 0 {
			_, common = escaped(rules[k])
		}
	} else {
		k = sort.Search(len(rules), func(k int) bool { return head(rules[k]) > path }) - 1
		if k >= 0 {
			common = commonPrefixLen(head(rules[k]), path)
		}
	}
	for i := int32(k); i >= 0; i = b.up.at(rules, i) {
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
			if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(r)) {
				break
			}
			if s.matchesAfterHead(r, path, m) {
				m.take(r)
				break
			}
			s.tryFolded(r, path, m)
		}
	}
}

// linkHeads sorts rules, the second run of b, by head, then by key within
// each head, greatest last, and links the last rule of each head to that
// of the longest other head that is a prefix of it.
func (s *ruleSet) linkHeads(b *bigSet, rules []rule) {
	// The rules of a head stay by key, greatest first: by position.
	type item struct {
		head string
		r    rule
		i    int
	}
	items := make([]item, len(rules))
	for i, r := range rules {
		items[i] = item{s.head(r), r, i}
		b.extra = max(b.extra, int32(r.priority()-r.headLen()))
	}
	slices.SortFunc(items, func(a, b item) int {
		if c := strings.Compare(a.head, b.head); c != 0 {
			return c
		}
		return a.i - b.i
	})
	for i, it := range items {
		rules[i] = it.r
	}
	up := make([]int32, len(rules))
	var stack []int32 // the runs whose heads are prefixes of the current one
	for lo := 0; lo < len(rules); {
		h := items[lo].head
		hi := lo + 1
		for hi < len(rules) && items[hi].head == h {
			hi++
		}
		slices.Reverse(rules[lo:hi])
		for j := lo; j < hi-1; j++ {
			up[j] = inRun
		}
		for len(stack) > 0 && !strings.HasPrefix(h, items[stack[len(stack)-1]].head) {
			stack = stack[:len(stack)-1]
		}
		up[hi-1] = -1
		if len(stack) > 0 {
			up[hi-1] = stack[len(stack)-1]
		}
		stack = append(stack, int32(hi-1))
		lo = hi
	}
	b.up = makeLinks(rules, up)
}

// commonPrefixLen returns the length of the common prefix of a and b, 8
// bytes a step, rather than by compareToEscaped or a byte loop
// (BenchmarkAllowed, largest file; bench/RESULTS.md, "What each mechanism buys").
func commonPrefixLen(a, b string) int {
	n, i := min(len(a), len(b)), 0
	for ; i+8 <= n; i += 8 {
		if x := lines.Load64(a[i:]) ^ lines.Load64(b[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// The up links of a laid-out set (bigSet.up), kept in its rules when they
// can all be. Buys (TestKeptPerByteSmallFiles): rules-short keeps 1.39 at
// 4 KiB rather than 1.61 (over 1.5) with the links apart, 2 bytes a rule.

// maxLaid bounds the rules of a set laid out, so that its links and
// bucket starts take 2 bytes each; no set of a file of MaxSize reaches it
// (TestMaxLaid, package robots).
const maxLaid = 1<<16 - 2

// inRun marks, in bigSet.up, a rule that does not end the run of its head.
const inRun = -2

// makeLinks returns links up of rules, the second run of a layout, which
// it keeps in rules if it can.
func makeLinks(rules []rule, up []int32) links {
	for i, v := range up {
		if rules[i].shape() >= shapeWildcard || v >= 0 && int32(i)-v >= linkFar {
			l := links{all: make([]uint16, len(up))}
			for i, v := range up {
				l.all[i] = uint16(v + 2)
			}
			return l
		}
	}
	for i, v := range up {
		var b uint8
		switch {
		case v == inRun:
			b = linkInRun
		case v >= 0:
			b = uint8(int32(i) - v)
		}
		rules[i] = rules[i]&^needBits | rule(b)<<ruleNeedShift
	}
	return links{}
}

// at returns the link of rule i of rules, the second run of a layout.
func (l *links) at(rules []rule, i int32) int32 {
	if l.all != nil {
		return int32(l.all[i]) - 2
	}
	switch b := rules[i].need(); b {
	case 0:
		return -1
	case linkInRun:
		return inRun
	default:
		return i - int32(b)
	}
}

func (b *bigSet) memSize() int {
	n := heapsize.Object[bigSet]() + heapsize.Slice[uint16](cap(b.up.all)) + heapsize.Slice[byte](cap(b.dirs.b))
	if t := b.float; t != nil {
		n += heapsize.Object[floatTable]() + heapsize.Slice[uint16](cap(t.start))
	}
	return n
}
