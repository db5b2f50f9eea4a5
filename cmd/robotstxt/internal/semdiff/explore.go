package semdiff

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/gorep/robots"
)

// maxStates bounds the states that explore visits for one crawler, and
// maxWork the positions that the explorations of one Compare step through
// in all (about a second): beyond them, the wildcards combine in too many
// ways to explore, and Compare falls back on the witnesses of Witnesses
// alone for the rest.
const (
	maxStates = 20_000
	maxWork   = 50_000_000
)

// maxExploreBytes bounds the memory the explorations of one Compare keep:
// the paths and states they have seen. States of long patterns are long,
// and the paths that reach them too (a rule of 10,000 wildcards). A
// variable, for the tests.
var maxExploreBytes = 32 << 20

// A glob is a rule as matched: the escaped text of its pattern without a
// final "$" and trailing "*" (it may hold other "*"), whether it is anchored
// at the end of the path, and what ranks it against the other rules of its
// group: its priority (the length of the escaped pattern), its kind and its
// line. side is 0 for the old file, 1 for the new.
type glob struct {
	text     string
	anchored bool
	side     int
	prio     int
	allow    bool
	line     int
}

// explore returns a path for each pair of deciding rules that some path
// gets from the groups old and new (the rules that apply to one crawler in
// each file), and whether it found them all within maxStates and the work
// left in budget, from which it takes what it uses, and the bytes left in
// mem, from which it takes what it keeps.
//
// It walks, breadth first from "/", the automaton that reads a path byte by
// byte and follows every rule of both groups at once, and keeps the first
// path that reaches each pair. Bytes that no pattern holds all act alike:
// fresh stands for them. "/robots.txt", always allowed, is never a witness,
// so that another path with the same deciding rules, if there is one,
// stands for them.
func explore(old, new []robots.Rule, fresh string, budget, mem *int) (witnesses []string, complete bool) {
	var globs []glob
	for side, rules := range [][]robots.Rule{old, new} {
		for _, r := range rules {
			globs = append(globs, globsOf(r, side)...)
		}
	}
	// By side, then in the order in which rules decide: the longest
	// pattern first, allow before disallow, the earliest line first.
	slices.SortFunc(globs, func(a, b glob) int {
		return cmp.Or(cmp.Compare(a.side, b.side), cmp.Compare(b.prio, a.prio),
			cmpBool(b.allow, a.allow), cmp.Compare(a.line, b.line))
	})
	e := explorer{globs: globs}
	alphabet := []byte(fresh)
	for _, g := range globs {
		for i := 0; i < len(g.text); i++ {
			if c := g.text[i]; c != '*' && !slices.Contains(alphabet, c) {
				alphabet = append(alphabet, c)
			}
		}
	}
	var start []uint64
	for i := range globs {
		start = e.enter(start, i, 0)
	}
	type item struct {
		state []uint64
		path  string
	}
	first := item{e.step(nil, start, '/'), "/"}
	seen := map[string]bool{string(appendKey(nil, first.state)): true}
	pairs := map[[2]int]bool{}
	var next []uint64
	var buf []byte
	for queue := []item{first}; len(queue) > 0; queue = queue[1:] {
		it := queue[0]
		if pair := e.deciding(it.state); !pairs[pair] && it.path != "/robots.txt" {
			pairs[pair] = true
			witnesses = append(witnesses, it.path)
		}
		if *budget -= len(it.state) * len(alphabet); *budget < 0 {
			return witnesses, false
		}
		for _, c := range alphabet {
			next = e.step(next[:0], it.state, c)
			buf = appendKey(buf[:0], next)
			if seen[string(buf)] {
				continue
			}
			if len(seen) == maxStates {
				return witnesses, false
			}
			// The key, the state queued and its path.
			if *mem -= 2*len(buf) + len(it.path) + 1; *mem < 0 {
				return witnesses, false
			}
			seen[string(buf)] = true
			queue = append(queue, item{slices.Clone(next), it.path + string(c)})
		}
	}
	return witnesses, true
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// An explorer computes the states of the automaton of explore. A state is
// a sorted set of positions: glob i having matched its text up to byte k is
// i<<32|k; a glob that is not anchored and has matched is i<<32|done, and
// stays so whatever follows.
type explorer struct {
	globs []glob
}

const done = 1<<32 - 1

// enter adds to state the positions reached when glob i has matched its
// text up to byte k: k itself, and past each "*" that follows, which may
// match nothing.
func (e *explorer) enter(state []uint64, i, k int) []uint64 {
	g := e.globs[i]
	for {
		if k == len(g.text) && !g.anchored {
			return append(state, uint64(i)<<32|done)
		}
		state = append(state, uint64(i)<<32|uint64(k))
		if k == len(g.text) || g.text[k] != '*' {
			return state
		}
		k++
	}
}

// step appends to next the state after reading c in state, and returns it.
func (e *explorer) step(next, state []uint64, c byte) []uint64 {
	for _, p := range state {
		i, k := int(p>>32), int(p&done)
		text := e.globs[i].text
		switch {
		case k == done:
			next = append(next, p)
		case k == len(text):
			// An anchored glob that matched: one more byte undoes it.
		case text[k] == '*':
			next = e.enter(next, i, k)
		case text[k] == c:
			next = e.enter(next, i, k+1)
		}
	}
	slices.Sort(next)
	return e.prune(slices.Compact(next))
}

// prune drops from the sorted state the positions that can no longer
// change which rule decides:
//
//   - the globs of a side that rank after a glob of that side that is done:
//     it matches whatever follows, so they never decide;
//   - the positions of a glob before its last "*" reached: whatever can
//     follow them can follow that "*" too, which swallows the bytes they
//     would match first.
func (e *explorer) prune(state []uint64) []uint64 {
	out := state[:0]
	cut := -1 // the side whose remaining globs are dropped
	for i := 0; i < len(state); {
		g := int(state[i] >> 32)
		j, star := i, i
		for ; j < len(state) && int(state[j]>>32) == g; j++ {
			k := int(state[j] & done)
			if k == done {
				star = j
			} else if k < len(e.globs[g].text) && e.globs[g].text[k] == '*' {
				star = j
			}
		}
		if side := e.globs[g].side; side != cut {
			out = append(out, state[star:j]...)
			if state[j-1]&done == done {
				cut = side
			}
		}
		i = j
	}
	return out
}

// deciding returns, for each side, the index of the first glob that a path
// ending in state matches (the rule that decides), or -1.
func (e *explorer) deciding(state []uint64) [2]int {
	d := [2]int{-1, -1}
	for _, p := range state {
		i, k := int(p>>32), int(p&done)
		if side := e.globs[i].side; d[side] < 0 && (k == done || k == len(e.globs[i].text)) {
			d[side] = i
		}
	}
	return d
}

// appendKey appends the positions to b as bytes, for a map key.
func appendKey(b []byte, positions []uint64) []byte {
	for _, p := range positions {
		b = binary.LittleEndian.AppendUint64(b, p)
	}
	return b
}

// maxDecisions bounds the decisions that one Compare makes to compare
// verdicts: one per crawler and witness, each counted once more for every
// decisionRules rules of the crawler's groups in the two files;
// maxDecisionBytes the bytes of the paths it decides on, which each
// decision reads. Variables, for the tests.
var (
	maxDecisions     = 5_000_000
	maxDecisionBytes = 256 << 20
)

// decisionRules is the number of rules of a crawler's groups that make one
// of its decisions count as two in maxDecisions.
const decisionRules = 64
