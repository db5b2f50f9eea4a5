package robots

// The merge budget, and the own sets of records: the set of a record
// alone, which a group of that record alone asks, and a split group asks
// for each of its other records (resolve.go). Each is compiled, or read
// from the line table at each question (scanRecord) when a group of
// several compiles its record's rules already, or when the merge budget is
// spent. A group of several records past the budget is split (split).

// mergeBudget is the number of times each rule line of a file may be
// compiled, summed over the file, once all its sets are asked (resolve).
const mergeBudget = 2

// A recState is what a groupBuilder knows of a record.
type recState uint8

const (
	// recShared marks a record among the records of a group of several.
	recShared recState = 1 << iota
	// recDone marks a record whose own set is made.
	recDone
)

// markShared marks the records of the groups of several records: of the
// runs of names of several records, and global if it holds several.
func (b *groupBuilder) markShared(names []naming, runs []nameRun, global []int32) {
	for _, rn := range runs {
		if rn.recs == 1 {
			continue
		}
		for _, nm := range names[rn.lo:rn.hi] {
			b.state[nm.rec()] |= recShared
		}
	}
	if len(global) > 1 {
		for _, rec := range global {
			b.state[rec] |= recShared
		}
	}
}

// own makes the set of record rec, a group alone: read from the line
// table if a group of several compiles its rules and it can be, else
// compiled.
func (b *groupBuilder) own(rec int32) {
	if b.state[rec]&recDone != 0 {
		return
	}
	if b.state[rec]&recShared != 0 && b.scannable(rec) {
		b.scanned(rec)
		return
	}
	b.compileOwn(rec)
}

// set makes the set of record rec alone, which a split group asks, unless
// it has one: compiled while the budget allows, else read from the line
// table if it can be.
func (b *groupBuilder) set(rec int32) {
	if b.state[rec]&recDone != 0 {
		return
	}
	if b.budget < int(b.first[rec+1]-b.first[rec]) && b.scannable(rec) {
		b.scanned(rec)
		return
	}
	b.compileOwn(rec)
}

// scannable reports whether the rule lines of record rec can be read from
// the line table at each question rather than compiled (scanRecord): they
// are at most scannedMax, and none is raw (escapeChanges), which is
// matched escaped, compiled from its escaped pattern. Lines that never
// match (tryLine) are not looked at.
func (b *groupBuilder) scannable(rec int32) bool {
	lines := b.rules[b.first[rec]:b.first[rec+1]]
	if len(lines) > scannedMax {
		return false
	}
	text := b.r.text
	for _, l := range lines {
		if p := l.value(text); p != "" && (p[0] == '/' || p[0] == '*') && escapeChanges(p) {
			return false
		}
	}
	return true
}

// scannedMax is the number of rule lines up to which a record's own set
// may be read from the line table at each question (scanRecord): about
// 6 ns a line that cannotStart passes over, so that a question costs at
// most about 400 ns, where compiling the set and laying it out would keep
// a layout, some 250 bytes, beside each record's compiled rules.
const scannedMax = 2 * smallSet

// scanned makes the set of record rec one read from the line table at
// each question, which compiles nothing.
func (b *groupBuilder) scanned(rec int32) {
	b.state[rec] |= recDone
	b.r.sets[rec] = linesRecSet(b.first[rec+1] - b.first[rec])
}

// compileOwn compiles the rules of record rec alone into r.sets, or, if
// it has more than smallSet rule lines, leaves them to its questions
// (lazySet), and takes them from the budget.
func (b *groupBuilder) compileOwn(rec int32) {
	b.state[rec] |= recDone
	var s ruleSet
	lo, hi := b.first[rec], b.first[rec+1]
	b.budget -= int(hi - lo)
	if hi-lo > smallSet {
		s, b.lazy = lazySet(b.r, int(hi-lo), rec, 0), true
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

// split splits g, a group of the records recs, which are more than the
// budget can merge: it takes the merged set of the largest group made so
// far whose records with rules are among recs (the group of "*", often,
// for a token named beside it in every record and in one of its own), and
// asks the rest of its records with rules one by one. Only the largest
// maxSubsets merged groups are looked at, so that this stays linear in
// recs.
func (b *groupBuilder) split(g *Group, recs []int32) {
	g.split = true
	ruled := func(rec int32) bool { return b.first[rec+1] > b.first[rec] }
	in := make(map[int32]bool, len(recs))
	for _, rec := range recs {
		if ruled(rec) {
			in[rec] = true
		}
	}
	var best *Group
	for k := range b.largest[:b.nLargest] {
		c := &b.largest[k]
		if best != nil && c.recN <= best.recN {
			continue
		}
		// c's set holds only rules of recs if its records with rules
		// are among recs.
		var one [1]int32
		all := true
		for _, rec := range c.records(&one) {
			all = all && (!ruled(rec) || in[rec])
		}
		if all {
			best = c
		}
	}
	if best != nil {
		g.set = best.set
		var one [1]int32
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

// maxSubsets is how many of the largest merged groups a split group looks
// at for one whose records are among its own.
const maxSubsets = 8

// noteLargest keeps g among the largest merged groups, if it is one.
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
