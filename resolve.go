package robots

// Resolving groups: which records apply to a crawler. This is the one place
// where "the groups that name the crawler, else those that name *" is
// written; Allowed, Group and the extension accessors all read its result.

import "slices"

// resolve builds the groups of r from its records: one per product token
// named anywhere in the file, holding every record that names it, and the
// global group of the records that name "*".
//
// The rules of a group's records are compiled into one set, so that a
// question costs the same however many records name the crawler. Tokens
// with the same records share a Group: a record with thousands of
// user-agent lines costs one group, not thousands.
//
// A record that is a group alone (named alone by a token, or the only one
// that names "*") has a set of its own: compiled, or, if the record is
// also among the records of a group of several, which compiles its rules
// there, read from the line table at each question (its rule lines, at
// most scannedMax of them, none raw: scanRecord), so that its rules are
// not compiled twice when that is all it is asked for. Real files seldom
// have such records; the answers are the same.
//
// What is compiled is bounded: once every group has been asked enough to
// compile and lay out its sets (lazy.go), each rule line of the file has
// been compiled at most mergeBudget times, summed over the file
// (TestMergeBudget), and the file keeps at most about 3 bytes per input
// byte (TestKeptEveryAgent). The own sets that are compiled are counted
// first, as every file needs them; the groups of several records are
// merged after, those of most records first, while the rules they compile
// fit what is left. A group past that is split: it takes the merged set
// of the largest group among its records, if any, and asks its other
// records one by one (compiled while the budget allows, else read from the
// line table), so that a file built to defeat merging costs memory linear
// in its size, and questions linear in the records of the crawler's
// group. A record of more than scannedMax rule lines, or of a raw one,
// asked so past the budget, is compiled nevertheless (lazily, if large):
// at most once more each of the file's rule lines.
//
// rs holds the rule lines, records and product tokens of the file
// (parser.directive). resolve returns the bytes of what it made, for MemSize.
func (r *Robots) resolve(rs *resolveScratch) (size int) {
	n := len(rs.first) // r.recordCount(), without reading the line table
	b := &groupBuilder{r: r, rules: rs.rules, first: append(rs.first, int32(len(rs.rules))),
		state: extend(rs.state[:0], n), sc: &rs.sc}
	clear(b.state)
	r.compiled = rs.compiled[:0]
	r.sets = extend(rs.sets[:0], n)
	clear(r.sets)
	names, global := rs.names, rs.global
	b.budget = mergeBudget * len(b.rules)
	runs, order := sortNames(r.text, names, rs)
	b.markShared(names, runs, global)
	if len(global) == 1 {
		b.own(global[0])
	}
	for _, rn := range runs {
		if rn.recs == 1 {
			b.own(names[rn.lo].rec())
		}
	}
	r.global = b.globalRef(global)
	r.named = extend(rs.named[:0], len(runs))
	recs := rs.recs[:0]
	for _, k := range order {
		rn := runs[k]
		recs = recs[:0]
		for _, nm := range names[rn.lo:rn.hi] {
			if len(recs) == 0 || recs[len(recs)-1] != nm.rec() {
				recs = append(recs, nm.rec())
			}
		}
		nm := names[rn.lo]
		r.named[k] = newNamedGroup(nm.off, int(nm.size), b.ref(recs))
	}
	rs.first, rs.state, rs.runs, rs.order, rs.recs = b.first[:n], b.state, runs, order, recs
	rs.compiled, rs.sets, rs.named = r.compiled, r.sets, r.named
	size = r.clipTables() + b.size
	if m := r.more; m != nil {
		m.recs = trim(m.recs)
		m.multi = trim(m.multi)
		m.bigs = trim(m.bigs)
		size += objectSize[moreGroups]() + sliceSize[int32](cap(m.recs)) + sliceSize[bigOf](cap(m.bigs)) +
			sliceSize[multiGroup](cap(m.multi))
	}
	return size
}

// clipTables copies r.named, r.compiled and r.sets, made in scratch
// space, to slices of their exact size, and returns their bytes.
func (r *Robots) clipTables() int {
	r.named, r.compiled, r.sets = clone(r.named), clone(r.compiled), clone(r.sets)
	return sliceSize[namedGroup](len(r.named)) + sliceSize[rule](len(r.compiled)) + sliceSize[recSet](len(r.sets))
}

// clone returns a copy of s of its exact size, or nil if s is empty.
func clone[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return append(make(S, 0, len(s)), s...)
}

// A groupBuilder makes the groups of a file, compiling the rules of their
// records.
type groupBuilder struct {
	r *Robots
	// rules are the rule lines of the file, in file order, and first
	// holds the index in rules of the first rule of each record, and, last,
	// the number of rules.
	rules []srcLine
	first []int32
	// made holds the groups of several records made so far, the global
	// one included, by their list.
	made madeGroups
	// largest holds the nLargest (at most maxSubsets) merged groups of
	// most records made so far, for split: by value, so that keeping one
	// costs no allocation.
	largest  [maxSubsets]Group
	nLargest int
	// state holds what is known of each record (recState).
	state []recState
	// budget is the number of rules that merging and the records' own
	// sets may still compile (mergeBudget); below 0, no more merging.
	budget int
	// lazy reports that some set is left to its questions to compile
	// (lazySet).
	lazy bool
	// sc is the scratch space of compile, in the resolveScratch.
	sc *scratch
	// size is the bytes kept by what the builder made, apart from r.sets,
	// r.multi and r.compiled.
	size int
}

// ref returns the ref of the group of the records recs (namedGroup), shared
// with any other token that has the same records.
func (b *groupBuilder) ref(recs []int32) int32 {
	if len(recs) == 1 {
		b.set(recs[0])
		return recs[0]
	}
	k := b.made.find(recs)
	if k >= 0 && b.made.list[k].multi > 0 {
		return ^(b.made.list[k].multi - 1)
	}
	g := b.group(recs, true)
	if k < 0 {
		k = len(b.made.list) - 1 // made by group
	}
	i := b.addMulti(g)
	b.made.list[k].multi = i + 1
	return ^i
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
	return ^b.addMulti(b.group(recs, false))
}

// addMulti keeps g, a group of several records, and returns its index.
func (b *groupBuilder) addMulti(g Group) int32 {
	m := b.r.moreGroups()
	m.multi = append(m.multi, newMultiGroup(&g))
	return int32(len(m.multi) - 1)
}

// madeGroups holds the groups of several records made from a file, to
// find them by their list of records.
type madeGroups struct {
	list []madeGroup
	// byList holds the index in list of each group by listKey.
	byList map[string]int32
}

// A madeGroup is a group of several records, and the index plus 1 in
// Robots.more.multi of the named group of those records, if made (ref).
type madeGroup struct {
	g     Group
	multi int32
}

// find returns the index in mg.list of the group of the records recs, or
// -1.
func (mg *madeGroups) find(recs []int32) int {
	if k, ok := mg.byList[string(listKey(recs))]; ok {
		return int(k)
	}
	return -1
}

// add adds g, the group of the records recs, not in mg.
func (mg *madeGroups) add(g Group, recs []int32) {
	if mg.byList == nil {
		mg.byList = map[string]int32{}
	}
	mg.byList[string(listKey(recs))] = int32(len(mg.list))
	mg.list = append(mg.list, madeGroup{g: g})
}

// listKey returns the bytes that identify a list of records.
func listKey(recs []int32) []byte {
	k := make([]byte, 0, 4*len(recs))
	for _, r := range recs {
		k = append(k, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	return k
}

// moreGroups returns r.more, which it makes if need be.
func (r *Robots) moreGroups() *moreGroups {
	if r.more == nil {
		r.more = &moreGroups{}
	}
	return r.more
}

// group makes the group of the records recs, which it copies to the
// record lists of the file unless there is one. A group of the same
// records as one made before shares its records and rules: a token named
// in every record that names "*" costs no merging.
func (b *groupBuilder) group(recs []int32, named bool) Group {
	if len(recs) == 1 {
		b.set(recs[0])
		var g Group
		b.r.single(recs[0], named, &g)
		return g
	}
	if k := b.made.find(recs); k >= 0 {
		g := b.made.list[k].g
		g.named = named
		return g
	}
	m := b.r.moreGroups()
	g := Group{file: b.r, recLo: int32(len(m.recs)), recN: int32(len(recs)), named: named}
	for _, rec := range recs {
		m.recs = push(m.recs, rec)
	}
	for _, rec := range recs {
		g.ruled = g.ruled || b.first[rec+1] > b.first[rec]
	}
	if g.ruled {
		b.merge(&g, recs)
	}
	if !g.split && g.set.n > 0 {
		b.noteLargest(&g)
	}
	b.made.add(g, recs)
	return g
}

// merge gives g, a group of several records with rules, one set of all
// their rules, or, past the budget, splits it: its records' own sets are
// asked one by one.
func (b *groupBuilder) merge(g *Group, recs []int32) {
	n := 0
	contiguous := true
	for k, rec := range recs {
		n += int(b.first[rec+1] - b.first[rec])
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
// agents and in the records and rules of their groups (and a sort of those
// records); a group that is not one agent's own compiles its rules.
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
	// The group's records and compiled rules are its own: they hang on a
	// Robots of their own, which shares r's lines.
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
