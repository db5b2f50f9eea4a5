package semdiff

import (
	"encoding/binary"
	"slices"
)

// maxStates bounds the states that explore visits: beyond it, the
// combinations of wildcards are too many to explore, and Compare falls back
// on the witnesses of Witnesses alone.
const maxStates = 20_000

// A glob is a pattern as matched: its escaped text without a final "$" and
// trailing "*" (it may hold other "*"), and whether it is anchored at the
// end of the path.
type glob struct {
	text     string
	anchored bool
}

// explore walks the automaton that reads a path byte by byte and follows
// every glob at once, breadth first from "/", and returns a witness (the
// first path found) for each set of globs that some path matches, and
// whether it visited every state within maxStates. Two paths that match
// the same globs get the same verdicts from any group made of them, except
// "/robots.txt", which is always allowed: it is never a witness, so that
// another path with its set, if there is one, stands for the set.
//
// Bytes that no glob holds all act alike: fresh stands for them.
func explore(globs []glob, fresh string) (witnesses []string, complete bool) {
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
	sets := map[string]bool{}
	var next []uint64
	var buf []byte
	for queue := []item{first}; len(queue) > 0; queue = queue[1:] {
		it := queue[0]
		buf = appendKey(buf[:0], e.matched(next[:0], it.state))
		if !sets[string(buf)] && it.path != "/robots.txt" {
			sets[string(buf)] = true
			witnesses = append(witnesses, it.path)
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
			seen[string(buf)] = true
			queue = append(queue, item{slices.Clone(next), it.path + string(c)})
		}
	}
	return witnesses, true
}

// An explorer computes the states of the automaton of explore. A state is
// a sorted set of positions: glob i having matched its text up to byte k is
// i<<32|k; a glob that is not anchored and has matched is i<<32|done.
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

// prune drops from the sorted state the positions of each glob that come
// before its last "*" reached: whatever path can follow them can follow that
// "*" too, which swallows the bytes they would match first, so they change
// nothing that the glob can match from then on.
func (e *explorer) prune(state []uint64) []uint64 {
	out := state[:0]
	for i := 0; i < len(state); {
		g := state[i] >> 32
		j := i
		star := i // the first position kept of glob g
		for ; j < len(state) && state[j]>>32 == g; j++ {
			k := int(state[j] & done)
			if k != done && k < len(e.globs[g].text) && e.globs[g].text[k] == '*' {
				star = j
			}
		}
		out = append(out, state[star:j]...)
		i = j
	}
	return out
}

// matched appends to m the globs that a path ending in state matches, and
// returns it.
func (e *explorer) matched(m, state []uint64) []uint64 {
	for _, p := range state {
		i, k := int(p>>32), int(p&done)
		if k == done || k == len(e.globs[i].text) {
			m = append(m, uint64(i))
		}
	}
	return m
}

// appendKey appends the positions to b as bytes, for a map key.
func appendKey(b []byte, positions []uint64) []byte {
	for _, p := range positions {
		b = binary.LittleEndian.AppendUint64(b, p)
	}
	return b
}
