package robots

// Resolving groups: which records apply to a crawler. This is the one place
// where "the groups that name the crawler, else those that name *" is
// written; Allowed, Group and the extension accessors all read its result.

import "slices"

// resolve makes the groups of r from the rule lines, records and tokens
// that rs collected (parser.directive): one per product token, of every
// record that names it, and the global group of those that name "*"; it
// returns the bytes they keep, for MemSize.
//
// A group's records are merged into one set, so that a question costs the
// same however many records name the crawler; tokens of the same records
// share a group. A record that is a group alone has a set of its own
// (ownset.go). What is compiled is bounded (TestMergeBudget,
// TestKeptEveryAgent): the own sets are counted first, then the groups of
// most records are merged while their rules fit mergeBudget; a group past
// it is split (groupBuilder.split), so that a file built to defeat merging
// costs memory linear in its size.
func (r *Robots) resolve(rs *resolveScratch) (size int) {
	n := len(rs.first) // r.recordCount(), without reading the line table
	b := &groupBuilder{r: r, rules: rs.rules, first: append(rs.first, int32(len(rs.rules))),
		state: extend(rs.state[:0], n), sc: &rs.sc, budget: mergeBudget * len(rs.rules)}
	clear(b.state)
	r.compiled = rs.compiled[:0]
	if n > 0 {
		r.sets = make([]recSet, n)
	}
	names, global := rs.names, rs.global
	runs, order := sortNames(r.text, names, rs)
	b.markShared(names, runs, global)
	if len(global) == 1 {
		b.own(global[0])
	}
	for _, rn := range runs {
		if rn.recs == 1 {
			b.own(names[rn.lo].rec)
		}
	}
	r.global = b.globalRef(global)
	if len(runs) > 0 {
		r.named = make([]namedGroup, len(runs))
	}
	recs := rs.recs[:0]
	for _, k := range order { // the tokens of most records first
		rn := runs[k]
		recs = recs[:0]
		for _, nm := range names[rn.lo:rn.hi] {
			if len(recs) == 0 || recs[len(recs)-1] != nm.rec {
				recs = append(recs, nm.rec)
			}
		}
		nm := names[rn.lo]
		r.named[k] = newNamedGroup(nm.off, int(nm.size), b.ref(recs))
	}
	rs.first, rs.state, rs.runs, rs.order, rs.recs, rs.compiled = b.first[:n], b.state, runs, order, recs, r.compiled
	r.compiled = clone(r.compiled)
	size = sliceSize[namedGroup](len(r.named)) + sliceSize[rule](len(r.compiled)) + sliceSize[recSet](len(r.sets)) + b.size
	if m := r.more; m != nil {
		m.recs, m.multi, m.bigs = trim(m.recs), trim(m.multi), trim(m.bigs)
		size += objectSize[moreGroups]() + sliceSize[int32](cap(m.recs)) + sliceSize[bigOf](cap(m.bigs)) +
			sliceSize[multiGroup](cap(m.multi))
	}
	return size
}

// clone returns a copy of s of its exact size, or nil if s is empty.
func clone[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return append(make(S, 0, len(s)), s...)
}

// trim returns s, or its clone if its spare capacity is over an eighth.
func trim[S ~[]E, E any](s S) S {
	if cap(s)-len(s) > len(s)/8 {
		return clone(s)
	}
	return s
}

// A groupBuilder makes the groups of a file.
type groupBuilder struct {
	r *Robots
	// rules are the file's rule lines; record rec's are
	// rules[first[rec]:first[rec+1]].
	rules []srcLine
	first []int32
	// made holds the groups of several records made so far, and madeAt
	// their index there by listKey.
	made   []madeGroup
	madeAt map[string]int
	// largest holds the merged groups of most records so far, for split.
	largest  [maxSubsets]Group
	nLargest int
	state    []recState
	// budget is the rules that may still be compiled (mergeBudget); below
	// 0, no more merging.
	budget int
	// lazy reports that some set is left to its questions (lazySet).
	lazy bool
	sc   *scratch
	// size is the bytes kept by what the builder made, apart from r.sets,
	// r.more and r.compiled.
	size int
}

// A madeGroup is a group of several records, and 1 + its index in
// Robots.more.multi as a named group, if made (ref).
type madeGroup struct {
	g     Group
	multi int32
}

// ref returns the ref (namedGroup) of the group of the records recs,
// shared with any other token of the same records.
func (b *groupBuilder) ref(recs []int32) int32 {
	if len(recs) == 1 {
		b.set(recs[0])
		return recs[0]
	}
	g, k := b.group(recs, true)
	if b.made[k].multi == 0 {
		b.made[k].multi = b.addMulti(g) + 1
	}
	return ^(b.made[k].multi - 1)
}

// globalRef returns Robots.global for the records recs that name "*".
func (b *groupBuilder) globalRef(recs []int32) int32 {
	switch len(recs) {
	case 0:
		return 0
	case 1:
		b.set(recs[0])
		return recs[0] + 1
	}
	g, _ := b.group(recs, false)
	return ^b.addMulti(g)
}

// addMulti keeps g, a group of several records, and returns its index.
func (b *groupBuilder) addMulti(g Group) int32 {
	m := b.r.moreGroups()
	m.multi = append(m.multi, newMultiGroup(&g))
	return int32(len(m.multi) - 1)
}

// moreGroups returns r.more, which it makes if need be.
func (r *Robots) moreGroups() *moreGroups {
	if r.more == nil {
		r.more = &moreGroups{}
	}
	return r.more
}

// group returns the group of several records recs, and its index in
// b.made: one made before for the same records shares its records and
// set (a token named in every record of "*" costs no merging).
func (b *groupBuilder) group(recs []int32, named bool) (Group, int) {
	key := make([]byte, 0, 4*len(recs)) // listKey
	for _, r := range recs {
		key = append(key, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	if k, ok := b.madeAt[string(key)]; ok {
		g := b.made[k].g
		g.named = named
		return g, k
	}
	m := b.r.moreGroups()
	g := Group{file: b.r, recLo: int32(len(m.recs)), recN: int32(len(recs)), named: named}
	m.recs = append(m.recs, recs...)
	for _, rec := range recs {
		g.ruled = g.ruled || b.ruleCount(rec) > 0
	}
	if g.ruled {
		b.merge(&g, recs)
	}
	if !g.split && g.set.n > 0 {
		b.noteLargest(&g)
	}
	if b.madeAt == nil {
		b.madeAt = map[string]int{}
	}
	b.madeAt[string(key)] = len(b.made)
	b.made = append(b.made, madeGroup{g: g})
	return g, len(b.made) - 1
}

// merge gives g, a group of several records with rules, one set of all
// their rules, or, past the budget, splits it.
func (b *groupBuilder) merge(g *Group, recs []int32) {
	n := 0
	contiguous := true
	for k, rec := range recs {
		n += b.ruleCount(rec)
		contiguous = contiguous && (k == 0 || rec == recs[k-1]+1)
	}
	if b.budget < n {
		b.split(g, recs)
		return
	}
	b.budget -= n
	if n > smallSet {
		g.set, b.lazy = lazySet(b.r, n, g.recLo, g.recN), true
		b.size += objectSize[lazyLayout]()
		return
	}
	rules := b.rules[b.first[recs[0]]:b.first[recs[len(recs)-1]+1]]
	if !contiguous {
		rules = make([]srcLine, 0, n)
		for _, rec := range recs {
			rules = append(rules, b.rules[b.first[rec]:b.first[rec+1]]...)
		}
	}
	compile(&g.set, b.r, rules, b.sc)
	if g.set.big != nil {
		b.size += objectSize[lazyLayout]()
	}
}

// union returns the group of several agents: the records that name any of
// them, or if none does, those that name "*". Its cost is linear in the
// agents and in the records and rules of their groups; a group that is not
// one agent's own compiles its rules.
func (r *Robots) union(agents []string) *Group {
	var recs []int32
	var largest Group
	found := false
	for _, a := range agents {
		g, ok := r.lookup(a)
		if !ok {
			continue
		}
		var one [1]int32
		recs = append(recs, g.records(&one)...)
		if !found || g.recN > largest.recN {
			largest, found = g, true
		}
	}
	if !found {
		g := new(Group)
		r.globalGroup(g)
		return g
	}
	slices.Sort(recs)
	recs = slices.Compact(recs)
	if len(recs) == int(largest.recN) {
		return &largest // the others' records are among its own
	}
	// The group's records and rules hang on a Robots of their own, which
	// shares r's lines.
	f := &Robots{text: r.text, linesAt: r.linesAt, indexAt: r.indexAt, more: &moreGroups{recs: recs}}
	g := &Group{file: f, recN: int32(len(recs)), named: true}
	var rules []srcLine
	for _, rec := range recs {
		_, rules = r.recordLines(int(rec), nil, rules)
	}
	if len(rules) > 0 {
		var sc scratch
		compile(&g.set, f, rules, &sc)
		g.ruled = true
	}
	return g
}
