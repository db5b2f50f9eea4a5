package robots

import (
	"cmp"
	"slices"

	"github.com/gorep/robots/internal/heapsize"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// mergeBudget is the times each rule line may be compiled over the file
// (package doc, Cost): past it a group is split, so that a file built to
// defeat merging keeps memory linear in its size (TestMergeBudget,
// TestKeptEveryAgent).
const mergeBudget = 2

// resolve makes the groups of r from what rs collected, one per product
// token and that of "*", and returns the bytes they keep: the own sets
// first, then the groups of most records, which merging saves the most.
func (r *Robots) resolve(rs *resolveScratch) (size int) {
	n := len(rs.first) // r.table().RecordCount(), without reading the line table
	rs.first, rs.state = append(rs.first, int32(len(rs.rules))), slices.Grow(rs.state[:0], n)[:n]
	clear(rs.state)
	b := &groupBuilder{resolveScratch: rs, r: r, budget: mergeBudget * len(rs.rules)}
	r.src.SetCompiled(rs.compiled[:0])
	r.sets = make([]ownSet, n)
	names, global := rs.names, rs.global
	runs, order := sortNames(r.src.Text(), names, rs)
	b.markShared(names, runs, global)
	if len(global) == 1 {
		b.own(global[0])
	}
	for _, rn := range runs {
		if rn.recs == 1 {
			b.own(names[rn.lo].rec)
		}
	}
	if len(global) > 0 { // Robots.global counts a record from 1
		if r.global = b.ref(global, false); r.global >= 0 {
			r.global++
		}
	}
	r.named = make([]namedGroup, len(runs))
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
		r.named[k] = newNamedGroup(nm.off, int(nm.size), b.ref(recs, true))
	}
	compiled := r.src.Compiled()
	rs.first, rs.runs, rs.order, rs.recs, rs.compiled = rs.first[:n], runs, order, recs, compiled
	r.src.SetCompiled(slices.Clone(compiled))
	size = heapsize.Slice[namedGroup](len(r.named)) + heapsize.Slice[ruleset.Rule](len(compiled)) + heapsize.Slice[ownSet](len(r.sets)) + b.size
	if m := r.more; m != nil {
		m.recs, m.multi, m.bigs = trim(m.recs), trim(m.multi), trim(m.bigs)
		size += heapsize.Object[moreGroups]() + heapsize.Slice[int32](cap(m.recs)) + heapsize.Slice[bigOf](cap(m.bigs)) +
			heapsize.Slice[multiGroup](cap(m.multi))
	}
	return size
}

// trim returns s, or a copy of its length if its spare capacity is over
// an eighth.
func trim[S ~[]E, E any](s S) S {
	if cap(s)-len(s) > len(s)/8 {
		return slices.Clip(slices.Clone(s))
	}
	return s
}

// ref returns the ref (namedGroup) of the group of the records recs: a
// named one's multiGroup is shared by the tokens of the same records, that
// of "*" is its own.
func (b *groupBuilder) ref(recs []int32, named bool) int32 {
	if len(recs) == 1 {
		b.set(recs[0])
		return recs[0]
	}
	g, k := b.group(recs, named)
	if named && b.made[k].multi != 0 {
		return ^(b.made[k].multi - 1)
	}
	m := b.r.moreGroups()
	lo, n, big := g.set.Parts()
	m.multi = append(m.multi, multiGroup{lo: lo, n: n, big: big, recLo: g.recLo, recN: g.recN,
		restLo: g.restLo, restN: g.restN, named: g.named, ruled: g.ruled, split: g.split})
	if named {
		b.made[k].multi = int32(len(m.multi))
	}
	return ^int32(len(m.multi) - 1)
}

// group returns the group of several records recs, and its index in
// b.made: one made before for the same records is shared (a token named in
// every record of "*" costs no merging).
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
	b.merge(&g, recs)
	if !g.split && !g.set.Empty() {
		b.noteLargest(&g)
	}
	if b.madeAt == nil {
		b.madeAt = map[string]int{}
	}
	b.madeAt[string(key)] = len(b.made)
	b.made = append(b.made, madeGroup{g: g})
	return g, len(b.made) - 1
}

// merge gives g, a group of several records, one set of their rules, or
// splits it past the budget.
func (b *groupBuilder) merge(g *Group, recs []int32) {
	n := 0
	for _, rec := range recs {
		n += b.ruleCount(rec)
	}
	if g.ruled = n > 0; !g.ruled {
		return
	}
	if b.budget < n {
		b.split(g, recs)
		return
	}
	b.budget -= n
	if n > ruleset.SmallSet {
		g.set = ruleset.LazySet(&b.r.src, n, &b.r.more.recs, g.recLo, g.recN)
		b.size += heapsize.Object[ruleset.Lazy]()
		return
	}
	b.merged = b.merged[:0]
	for _, rec := range recs {
		b.merged = append(b.merged, b.rules[b.first[rec]:b.first[rec+1]]...)
	}
	ruleset.Compile(&g.set, &b.r.src, b.merged, &b.sc)
	if _, _, big := g.set.Parts(); big != nil {
		b.size += heapsize.Object[ruleset.Lazy]()
	}
}

// A recState says whether a record is in a group of several, and whether
// its own set is made.
type recState uint8

const (
	recShared recState = 1 << iota
	recDone
)

func (b *groupBuilder) ruleCount(rec int32) int { return int(b.first[rec+1] - b.first[rec]) }

// markShared marks the records of the groups of several records.
func (b *groupBuilder) markShared(names []naming, runs []nameRun, global []int32) {
	for _, rn := range runs {
		if rn.recs > 1 {
			for _, nm := range names[rn.lo:rn.hi] {
				b.state[nm.rec] |= recShared
			}
		}
	}
	if len(global) > 1 {
		for _, rec := range global {
			b.state[rec] |= recShared
		}
	}
}

// own makes the set of record rec, a group alone: scanned if a merged
// group compiles its rules; set, that of a record a split group asks:
// scanned once the budget is spent.
func (b *groupBuilder) own(rec int32) { b.makeOwn(rec, b.state[rec]&recShared != 0) }

func (b *groupBuilder) set(rec int32) { b.makeOwn(rec, b.budget < b.ruleCount(rec)) }

// makeOwn makes the set of record rec, its ownSet in r.sets, unless made:
// read from the line table if scan and it can be (1 to scannedMax rule
// lines, none raw), else compiled or, over ruleset.SmallSet rules, left to its
// questions (ruleset.LazySet), and taken from the budget.
func (b *groupBuilder) makeOwn(rec int32, scan bool) {
	if b.state[rec]&recDone != 0 {
		return
	}
	b.state[rec] |= recDone
	lo, hi := b.first[rec], b.first[rec+1]
	if scan && hi > lo && hi-lo <= scannedMax && !b.hasRaw(b.rules[lo:hi]) {
		b.r.sets[rec] = linesOwnSet(hi - lo)
		return
	}
	var s ruleset.Set
	b.budget -= int(hi - lo)
	if hi-lo > ruleset.SmallSet {
		s = ruleset.LazySet(&b.r.src, int(hi-lo), nil, rec, 0)
	} else {
		ruleset.Compile(&s, &b.r.src, b.rules[lo:hi], &b.sc)
	}
	slo, sn, big := s.Parts()
	b.r.sets[rec] = newOwnSet(slo, sn, hi > lo)
	if sn > ruleset.SmallSet {
		m := b.r.moreGroups()
		b.r.sets[rec] = newOwnSet(int32(len(m.bigs)), sn, hi > lo)
		m.bigs = append(m.bigs, bigOf{slo, sn, big})
		b.size += heapsize.Object[ruleset.Lazy]()
	}
}

// hasRaw reports whether a line of lines that may match is raw.
func (b *groupBuilder) hasRaw(lines []lines.Line) bool {
	for _, l := range lines {
		if p := l.Value(b.r.src.Text()); p != "" && ruleset.MayDecide(p[0]) && ruleset.EscapeChanges(p) {
			return true
		}
	}
	return false
}

// scannedMax is the rule lines up to which an own set may be read from the
// table at each question, where a compiled, laid out set would keep more
// bytes (what it costs and saves: bench/RESULTS.md, "What each mechanism buys").
const scannedMax = 2 * ruleset.SmallSet

// split splits g, a group of the records recs past the budget: it takes the
// set of the largest merged group whose records with rules are among recs
// (often that of "*"), and asks its other records with rules one by one.
// Only the maxSubsets largest are looked at: this stays linear in recs.
func (b *groupBuilder) split(g *Group, recs []int32) {
	g.split = true
	in := make(map[int32]bool, len(recs))
	for _, rec := range recs {
		if b.ruleCount(rec) > 0 {
			in[rec] = true
		}
	}
	var best *Group
	var one [1]int32
	for k := range b.largest {
		c := &b.largest[k] // a zero one has no records, and no set
		if best != nil && c.recN <= best.recN {
			continue
		}
		all := true
		for _, rec := range c.records(&one) {
			all = all && (b.ruleCount(rec) == 0 || in[rec])
		}
		if all {
			best = c
		}
	}
	if best != nil {
		g.set = best.set
		for _, rec := range best.records(&one) {
			delete(in, rec)
		}
	}
	m := b.r.moreGroups()
	g.restLo = int32(len(m.recs))
	for _, rec := range recs {
		if in[rec] {
			m.recs = append(m.recs, rec)
			b.set(rec)
		}
	}
	g.restN = int32(len(m.recs)) - g.restLo
}

const maxSubsets = 8

// noteLargest keeps g if among the maxSubsets largest merged groups.
func (b *groupBuilder) noteLargest(g *Group) {
	i := 0 // the smallest, or the first zero one
	for k := range b.largest {
		if b.largest[k].recN < b.largest[i].recN {
			i = k
		}
	}
	if b.largest[i].recN < g.recN {
		b.largest[i] = *g
	}
}

// sortNames sorts names by token, ignoring ASCII case (the order lookupRef
// searches), then by record, stably (a token's first naming is the first
// written), and returns the runs of each token and the order in which
// their groups are made: the tokens of most records first.
func sortNames(text string, names []naming, rs *resolveScratch) ([]nameRun, []int32) {
	slices.SortStableFunc(names, func(a, b naming) int {
		if c := compareLower(a.token(text), b.token(text)); c != 0 {
			return c
		}
		return cmp.Compare(a.rec, b.rec)
	})
	runs := rs.runs[:0]
	for i, nm := range names {
		if i == 0 || compareLower(nm.token(text), names[i-1].token(text)) != 0 {
			runs = append(runs, nameRun{lo: int32(i), hi: int32(i)})
		}
		rn := &runs[len(runs)-1]
		if rn.hi == rn.lo || nm.rec != names[i-1].rec {
			rn.recs++
		}
		rn.hi = int32(i + 1)
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
	token := lines.AgentToken(v)
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
	rules []lines.Line // the file's, record rec's from first[rec]
	first []int32
	state []recState
	// names are the (token, record) pairs of the user-agent lines but
	// "*", whose records are in global.
	names    []naming
	global   []int32
	runs     []nameRun
	order    []int32
	recs     []int32
	compiled []ruleset.Rule // Robots.compiled while the groups are built
	sc       ruleset.Scratch
}

// A naming is a (token, record) pair of a user-agent line, the token size
// bytes at off in the kept text (no pointer for the collector).
type naming struct {
	off, size uint32
	rec       int32
}

func (n naming) token(text string) string { return text[n.off : n.off+n.size] }

// A nameRun is the namings of one token, names[lo:hi] once sorted, and its
// number of records.
type nameRun struct{ lo, hi, recs int32 }

// A groupBuilder makes the groups of a file (resolve), in the scratch of
// its parser: its first holds one more, the end of the last record.
type groupBuilder struct {
	*resolveScratch
	r      *Robots
	merged []lines.Line // the rules of a group merge compiles
	// made holds the groups of several records, madeAt their index there
	// by their list of records.
	made    []madeGroup
	madeAt  map[string]int
	largest [maxSubsets]Group // the merged groups of most records, for split
	budget  int               // the rule lines that may still be compiled
	size    int               // kept by what was made, but r.sets, r.more and r.compiled
}

// A madeGroup is a group of several records, and 1 + the index in
// Robots.more.multi of its named multiGroup, once made (ref).
type madeGroup struct {
	g     Group
	multi int32
}

func (r *Robots) moreGroups() *moreGroups {
	if r.more == nil {
		r.more = &moreGroups{}
	}
	return r.more
}
