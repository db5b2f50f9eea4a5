package robots

// The own sets of records, asked by a group of the record alone and by a
// split group: compiled, or read from the line table at each question
// (scanRecord) when a merged group compiles the rules already or the merge
// budget is spent.

// mergeBudget is the number of times each rule line of a file may be
// compiled, summed over the file, once all its sets are asked (resolve).
const mergeBudget = 2

// A recState is what a groupBuilder knows of a record.
type recState uint8

const (
	recShared recState = 1 << iota // among the records of a group of several
	recDone                        // its own set is made
)

func (b *groupBuilder) ruleCount(rec int32) int { return int(b.first[rec+1] - b.first[rec]) }

// markShared marks the records of the groups of several records: of the
// runs of names of several records, and global if it holds several.
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
// group compiles its rules already.
func (b *groupBuilder) own(rec int32) { b.makeOwn(rec, b.state[rec]&recShared != 0) }

// set makes the set of record rec, which a split group asks: scanned once
// the budget is spent.
func (b *groupBuilder) set(rec int32) { b.makeOwn(rec, b.budget < b.ruleCount(rec)) }

// makeOwn makes the set of record rec, its recSet in r.sets, unless made:
// read from the line table at each question if scan and it can be
// (scanRecord: at most scannedMax rule lines, none raw, which is matched
// escaped), else compiled into r.compiled or, over smallSet rules, left to
// its questions (lazySet); a compiled set is taken from the budget.
func (b *groupBuilder) makeOwn(rec int32, scan bool) {
	if b.state[rec]&recDone != 0 {
		return
	}
	b.state[rec] |= recDone
	lo, hi := b.first[rec], b.first[rec+1]
	if scan && hi-lo <= scannedMax && !b.hasRaw(b.rules[lo:hi]) {
		b.r.sets[rec] = linesRecSet(hi - lo)
		return
	}
	var s ruleSet
	b.budget -= int(hi - lo)
	if hi-lo > smallSet {
		s = lazySet(b.r, int(hi-lo), rec, 0)
	} else {
		compile(&s, b.r, b.rules[lo:hi], b.sc)
	}
	b.r.sets[rec] = newRecSet(&s, hi > lo)
	if s.n > smallSet {
		m := b.r.moreGroups()
		b.r.sets[rec] = newRecSet(&ruleSet{lo: int32(len(m.bigs)), n: s.n}, hi > lo)
		m.bigs = append(m.bigs, bigOf{s.lo, s.n, s.big})
		b.size += objectSize[lazyLayout]()
	}
}

// hasRaw reports whether a line of lines that may match (mayDecide) is raw
// (escapeChanges).
func (b *groupBuilder) hasRaw(lines []srcLine) bool {
	for _, l := range lines {
		if p := l.value(b.r.text); p != "" && mayDecide(p[0]) && escapeChanges(p) {
			return true
		}
	}
	return false
}

// scannedMax is the number of rule lines up to which a record's own set
// may be read from the line table at each question: about 6 ns a line, at
// most about 400 ns a question, where a compiled and laid out set would
// keep some 250 bytes beside its rules.
const scannedMax = 2 * smallSet

// split splits g, a group of the records recs, which are more than the
// budget can merge: it takes the set of the largest merged group so far
// whose records with rules are among recs (often the group of "*", for a
// token named beside it in every record and in one of its own), and asks
// the rest of its records with rules one by one. Only the maxSubsets
// largest are looked at, so that this stays linear in recs.
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
	for k := range b.largest[:b.nLargest] {
		c := &b.largest[k]
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

// maxSubsets is how many of the largest merged groups split looks at.
const maxSubsets = 8

// noteLargest keeps g among the maxSubsets largest merged groups, if it
// is one.
func (b *groupBuilder) noteLargest(g *Group) {
	if b.nLargest < maxSubsets {
		b.largest[b.nLargest] = *g
		b.nLargest++
		return
	}
	i := 0 // the smallest
	for k := range b.largest {
		if b.largest[k].recN < b.largest[i].recN {
			i = k
		}
	}
	if b.largest[i].recN < g.recN {
		b.largest[i] = *g
	}
}

// Namings: the product tokens of the user-agent lines, with their records,
// sorted by token (case ignored) so that resolve makes one group a token.

// A naming is a (token, record) pair of a user-agent line, the token size
// bytes at off in the kept text (integers: no pointer for the collector).
type naming struct {
	off, size uint32
	rec       int32
}

func (n naming) token(text string) string { return text[n.off : n.off+n.size] }

// A nameRun is the namings of one token, names[lo:hi] once sorted, and
// the number of distinct records among them.
type nameRun struct{ lo, hi, recs int32 }

// A groupBuilder makes the groups of a file (resolve), compiling the rules
// of their records.
type groupBuilder struct {
	r *Robots
	// rules are the file's rule lines; record rec's are
	// rules[first[rec]:first[rec+1]].
	rules  []srcLine
	first  []int32
	merged []srcLine // the rules of a group merge compiles
	// made holds the groups of several records made so far, and madeAt
	// their index there by their list of records.
	made   []madeGroup
	madeAt map[string]int
	// largest holds the merged groups of most records so far, for split.
	largest  [maxSubsets]Group
	nLargest int
	state    []recState
	// budget is the rules that may still be compiled (mergeBudget); below
	// 0, no more merging.
	budget int
	sc     *scratch
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

func (r *Robots) moreGroups() *moreGroups {
	if r.more == nil {
		r.more = &moreGroups{}
	}
	return r.more
}

// records returns the indexes of the records of g, in file order (that of
// a group of one in one).
func (g *Group) records(one *[1]int32) []int32 {
	switch {
	case g.file == nil || g.recN == 0:
		return nil
	case g.recN == 1:
		one[0] = g.recLo
		return one[:]
	}
	return g.file.more.recs[g.recLo : g.recLo+g.recN]
}
