package robots

// The head index of a large rule set: sorted heads, each linked to the
// longest other head that is a prefix of it.

import (
	"cmp"
	"slices"
	"strings"
)

// A node describes one head of a large rule set, in 16 bytes.
type node struct {
	// top is the greatest priority of the rules of this head and of its
	// parents (see topOf): when it is less than that of the best match so
	// far, the search stops.
	top uint16
	// n is the length of the head, and off its offset in the kept text of
	// the file.
	n   uint16
	off uint32
	// parent is the index of the longest other head that is a prefix of
	// this one, or -1.
	parent int32
	// The head's rules in byHead end at hi and start where those of the
	// previous node end.
	hi int32
}

// topOf returns the priority of key, the part of it a node keeps: a rule
// of lower priority than the best match cannot beat it. Priorities are
// below 1<<16, and heads no longer than their pattern.
func topOf(key uint64) uint16 { return uint16(key >> flagBits >> prioShift) }

// byHeadOf returns the indexes of the rules of node i.
func (x *setIndex) byHeadOf(i int32) []int32 {
	lo := int32(0)
	if i > 0 {
		lo = x.nodes[i-1].hi
	}
	return x.byHead[lo:x.nodes[i].hi]
}

// indexNow builds the index of s on its first query, and keeps it: of
// concurrent first queries, one index wins and is kept, and MemSize counts
// it from then on.
func (s *ruleSet) indexNow() *setIndex {
	x := s.buildIndex()
	if s.index.CompareAndSwap(nil, x) {
		s.file.lazySize.Add(int64(x.memSize()))
		return x
	}
	return s.index.Load()
}

// buildIndex builds the head index of a large rule set.
func (s *ruleSet) buildIndex() *setIndex {
	x := &setIndex{}
	order := make([]int32, 0, len(s.rules))
	var floating []int32
	for i := range s.rules {
		if r := &s.rules[i]; r.shape() >= shapeWildcard && r.head <= 1 {
			floating = append(floating, int32(i))
		} else {
			order = append(order, int32(i))
		}
	}
	if len(floating) >= minFloating {
		x.float = newFloatTable(s, floating)
	} else {
		order = append(order, floating...)
	}
	if len(order) == 0 {
		return x
	}
	// By head, then by key, greatest first (rules are sorted by key).
	heads := make([]string, len(s.rules))
	for _, i := range order {
		heads[i] = s.head(&s.rules[i])
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := strings.Compare(heads[a], heads[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	x.byHead = order
	n := 1
	for i := 1; i < len(order); i++ {
		if s.head(&s.rules[order[i]]) != s.head(&s.rules[order[i-1]]) {
			n++
		}
	}
	x.nodes = make([]node, 0, n)
	var stack []int32 // heads that are prefixes of the current one
	for i := 0; i < len(order); {
		r := &s.rules[order[i]]
		h := s.head(r)
		j := i + 1
		for j < len(order) && s.head(&s.rules[order[j]]) == h {
			j++
		}
		n := node{top: topOf(r.key), n: r.head, off: r.off, parent: -1, hi: int32(j)}
		for len(stack) > 0 && !strings.HasPrefix(h, s.nodeHead(x, stack[len(stack)-1])) {
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 {
			n.parent = stack[len(stack)-1]
			n.top = max(n.top, x.nodes[n.parent].top)
		}
		stack = append(stack, int32(len(x.nodes)))
		x.nodes = append(x.nodes, n)
		i = j
	}
	return x
}

// nodeHead returns the head of node i.
func (s *ruleSet) nodeHead(x *setIndex, i int32) string {
	n := &x.nodes[i]
	return s.file.text[n.off : n.off+uint32(n.n)]
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
