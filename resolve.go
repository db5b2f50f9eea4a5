package robots

import (
	"cmp"
	"slices"
)

// Resolving groups: the records that answer each product token, merged
// into one set per group (the fallback to "*" is agent.go's refOrGlobal).

// resolve makes the groups of r from what rs collected: one per product
// token, and the global group of "*"; it returns the bytes they keep. A
// group's records are merged into one set (tokens of the same records share
// it; a record alone has its own, ownset.go). The own sets are counted
// first, then the groups of most records merged while their rules fit
// mergeBudget; past it a group is split (groupBuilder.split), so that a
// file built to defeat merging costs memory linear in its size
// (TestMergeBudget, TestKeptEveryAgent).
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

func (b *groupBuilder) addMulti(g Group) int32 {
	m := b.r.moreGroups()
	m.multi = append(m.multi, newMultiGroup(&g))
	return int32(len(m.multi) - 1)
}

// group returns the group of several records recs, and its index in
// b.made: one made before for the same records shares its records and
// set (a token named in every record of "*" costs no merging).
func (b *groupBuilder) group(recs []int32, named bool) (Group, int) {
	key := make([]byte, 0, 4*len(recs))
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
	for _, rec := range recs {
		n += b.ruleCount(rec)
	}
	if b.budget < n {
		b.split(g, recs)
		return
	}
	b.budget -= n
	if n > smallSet {
		g.set = lazySet(b.r, n, g.recLo, g.recN)
		b.size += objectSize[lazyLayout]()
		return
	}
	b.merged = b.merged[:0]
	for _, rec := range recs {
		b.merged = append(b.merged, b.rules[b.first[rec]:b.first[rec+1]]...)
	}
	compile(&g.set, b.r, b.merged, b.sc)
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
	var largest Group // of most records: a named group has one at least
	for _, a := range agents {
		if g, ok := r.lookup(a); ok {
			var one [1]int32
			recs = append(recs, g.records(&one)...)
			if g.recN > largest.recN {
				largest = g
			}
		}
	}
	if largest.recN == 0 {
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

// sortNames sorts names by token, ignoring ASCII case (compareLower, the
// order lookupRef searches), then by record, stably (the first naming of a
// token is the first written), and returns the runs of each token and the
// order in which their groups are made: the tokens of most records first,
// which merging saves the most.
func sortNames(text string, names []naming, rs *resolveScratch) ([]nameRun, []int32) {
	slices.SortStableFunc(names, func(a, b naming) int {
		if c := compareLower(a.token(text), b.token(text)); c != 0 {
			return c
		}
		return cmp.Compare(a.rec, b.rec)
	})
	runs := rs.runs[:0]
	for i := 0; i < len(names); {
		rn := nameRun{lo: int32(i)}
		token := names[i].token(text)
		for rn.hi = int32(i); int(rn.hi) < len(names) && compareLower(names[rn.hi].token(text), token) == 0; rn.hi++ {
			if int(rn.hi) == i || names[rn.hi].rec != names[rn.hi-1].rec {
				rn.recs++
			}
		}
		runs = append(runs, rn)
		i = int(rn.hi)
	}
	order := rs.order[:0]
	for k := range runs {
		order = append(order, int32(k))
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(runs[b].recs, runs[a].recs) })
	return runs, order
}

// addAgent adds the user-agent line of value v, kept at off, to the
// current record.
func (rs *resolveScratch) addAgent(v string, off uint32) {
	rec := int32(len(rs.first) - 1)
	token := agentToken(v)
	if token == "*" {
		if len(rs.global) == 0 || rs.global[len(rs.global)-1] != rec {
			rs.global = append(rs.global, rec)
		}
		return
	}
	rs.names = append(rs.names, naming{off, uint32(len(token)), rec})
}

// A resolveScratch holds the scratch slices of Robots.resolve.
type resolveScratch struct {
	// rules are the rule lines of the file, in file order, and first the
	// index in rules of the first rule of each record.
	rules []srcLine
	first []int32
	state []recState
	// names are the (token, record) pairs of the user-agent lines but
	// "*", whose records are in global; runs and order are sortNames's.
	names    []naming
	global   []int32
	runs     []nameRun
	order    []int32
	recs     []int32
	compiled []rule // Robots.compiled while the groups are built
	sc       scratch
}
