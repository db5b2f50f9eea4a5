package robots

// The own sets of records: the set of a record alone, which a group of
// that record alone asks, and a split group asks for each of its other
// records (resolve.go). Each is compiled, or read from the line table at
// each question (scanRecord) when a group of several compiles its
// record's rules already, or when the merge budget is spent.

import "sync/atomic"

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

// compileOwn gives record rec alone a set of its compiled rules, and
// takes them from the budget: it leaves them to its first question
// (pending), or, if it has more than smallSet rule lines, to its questions
// (lazySet); it compiles them if they may compile to more than smallSet
// rules (index.htm rules).
func (b *groupBuilder) compileOwn(rec int32) {
	b.state[rec] |= recDone
	var s ruleSet
	lo, hi := b.first[rec], b.first[rec+1]
	b.budget -= int(hi - lo)
	if hi-lo > smallSet {
		s, b.lazy = lazySet(b.r, int(hi-lo), rec, 0), true
	} else if all, n := b.sc.keptCount(b.r.text, b.rules[lo:hi]); n > 0 && all <= smallSet {
		b.pending(rec, n)
		return
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

// pending leaves the own set of record rec, whose rules compile to at
// most n, 1 to smallSet, to its first question (Robots.ownSet): it keeps
// room for them in r.compiled. A crawler's first question compiles only
// the sets of its own group, not those of every agent the file names.
func (b *groupBuilder) pending(rec int32, n int) {
	lo := len(b.r.compiled)
	b.r.compiled = extend(b.r.compiled, n)
	b.r.sets[rec] = recSetPending | recSet(lo)<<recSetLo | recSet(n) | recSetRuled
}

// ownSet returns the recSet of record rec, which it compiles first if it
// is pending.
func (r *Robots) ownSet(rec int32) recSet {
	rs := recSet(atomic.LoadUint32((*uint32)(&r.sets[rec])))
	if rs&recSetPending != 0 {
		rs = r.compilePending(rec)
	}
	return rs
}

// compilePending compiles the own set of record rec, pending, into the
// room kept for it, once: of concurrent first questions, one compiles
// while the others wait, under the lock of layOut. Its rule lines are
// read from the line table and compiled as resolve would have.
func (r *Robots) compilePending(rec int32) recSet {
	r.layMu.Lock()
	defer r.layMu.Unlock()
	p := (*uint32)(&r.sets[rec])
	rs := recSet(atomic.LoadUint32(p))
	if rs&recSetPending == 0 {
		return rs
	}
	ps := getScratch()
	defer putScratch(ps)
	lines := ps.resolve.rules[:0]
	rr := ruleReader{f: r}
	rr.start(rec)
	for line, ok := rr.next(); ok; line, ok = rr.next() {
		lines = append(lines, line)
	}
	compiled := ps.resolve.compiled[:0]
	var s ruleSet
	compileTo(&s, r.text, &compiled, lines, &ps.resolve.sc)
	ps.resolve.rules, ps.resolve.compiled = lines, compiled
	lo, n := int(rs>>recSetLo&(1<<24-1)), int(rs&recSetBig)
	if int(s.n) > n || s.big != nil {
		panic("robots: a pending set compiled to more rules than its room")
	}
	copy(r.compiled[lo:lo+n], compiled[:s.n])
	s.lo = int32(lo)
	rs = newRecSet(&s, true)
	atomic.StoreUint32(p, uint32(rs))
	return rs
}
