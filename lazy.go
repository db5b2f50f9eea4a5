package robots

// When a large set is compiled and laid out: not when the groups are
// made, but once its questions have cost about as much as each step.
//
// A set of more than smallSet rule lines (lazySet) is not compiled with
// the groups: its first compileQuestions questions read its rule lines from the
// line table and try each (scanLines), which costs less than compiling
// them; the question after compiles them (compileLazy), as does the first
// that reads a raw rule (escapeChanges), which is compiled from its escaped
// pattern (a line whose second byte rules it out is not read:
// cannotStart). Laying out a set of n rules (index.go) costs about as
// much as layoutQuestions questions that scan its n compiled rules one
// by one (scanRules): a set is asked by scanning until it has been asked
// that many times, and laid out on the question after. Each step is a ski rental: whatever the number of
// questions, the total work is at most about twice the least of "always
// scan" and "compile and lay out at once". A crawler that asks a file one
// question after each fetch never pays for a layout, nor for compiling its
// large sets; one that asks it many pays for both once, early, and then
// asks at the speed of the layout.
//
// What it buys, on Parse + first question over the real-world corpus
// (CPU time of the thread, least of 5 runs, before Parse made the groups
// again): 15.2 ms as it is; 18.9 ms if the first question compiled
// each large set (compileQuestions 0: the lines state buys 20%); 46.8 ms
// if it also laid it out (layoutQuestions 0: the scanning state buys
// 60%). A warm question is the layout's (index.go).

import (
	"sync/atomic"
)

// A lazyLayout is the layout of a set of more than smallSet rules once it
// is made (nil before), and how many questions the set was asked until
// then.
type lazyLayout struct {
	atomic.Pointer[bigSet]
	// asked counts the questions of the set before its layout (up to a
	// few more than layoutQuestions, if questions race).
	asked atomic.Int32
	// dirs holds the bits isLazy, dirsOmitted and dirsFolded: what
	// compile left out of the set, set before its compiled rules are
	// published (a bit each, so that the layout takes 32 bytes).
	dirs atomic.Uint32
	// A lazy set (isLazy) is one that resolve left to its questions to
	// compile (lazySet): the rules of the records srcN from srcLo in
	// file.more.recs, or, if srcN is 0, of record srcLo alone. Its
	// ruleSet counts their rule lines, not its compiled rules, which
	// compileLazy keeps in own, in file order, until the set is laid out
	// (layOut): then the layout holds them, and own is nil again.
	srcLo, srcN int32
	own         atomic.Pointer[[]rule]
}

// The bits of lazyLayout.dirs.
const (
	// dirsOmitted: compile left out the rules of the directories of the
	// set's index.htm allow rules (omitDirs); its layout files them
	// (bigSet.dirs), and a scan finds them.
	dirsOmitted = 1 << iota
	// dirsFolded: compile left out the rules of the directories that
	// hold a "*" of the set's index.htm allow rules which are not raw
	// (foldDirs): those rules stand for them.
	dirsFolded
	// isLazy: the set is lazy, set when it is made.
	isLazy
)

// lazy reports whether l is the layout of a lazy set.
func (l *lazyLayout) lazy() bool { return l.dirs.Load()&isLazy != 0 }

// omitted and folded report the bits of l.dirs.
func (l *lazyLayout) omitted() bool { return l.dirs.Load()&dirsOmitted != 0 }
func (l *lazyLayout) folded() bool  { return l.dirs.Load()&dirsFolded != 0 }

// The questions a large set answers in each state: from its rule lines
// for the first compileQuestions, compiled for the rest of the first
// layoutQuestions, then laid out. Over the 404 sets of more than smallSet
// rules that answer Googlebot in the real-world corpus, asked
// "/some/page.html": compiling costs 3 to 5 reads of the rule lines, and a
// layout 13 to 33 scans of the compiled rules (quartiles; median 18, 41
// summed over the sets, the largest costing most): 3 to 8 ns a rule to
// scan, 50 to 200 to lay out.
const (
	compileQuestions = 4
	layoutQuestions  = 24
)

// maxLaid bounds the rules of a set that its questions lay out, so that
// its links and bucket starts take 2 bytes each (index.go, links.go,
// floattable.go). No set of one file reaches it: a rule line takes at
// least 8 bytes of MaxSize, and a line of 17 ("allow:/index.htm") makes
// two rules; a larger set would be scanned.
const maxLaid = 1<<16 - 2

// lazySet returns a set of the n rule lines of the records srcN from srcLo
// in file.more.recs, or of record srcLo alone if srcN is 0, to be compiled
// once asked enough: a set of more than smallSet rule lines, which would
// cost the making of the groups most of its compiling, and which many
// files never see asked more than once.
func lazySet(file *Robots, n int, srcLo, srcN int32) ruleSet {
	l := &lazyLayout{srcLo: srcLo, srcN: srcN}
	l.dirs.Store(isLazy)
	return ruleSet{file: file, n: int32(n), big: l}
}

// compiled returns the compiled rules of a lazy set, in file order, or
// none before it is compiled and once it is laid out.
func (l *lazyLayout) compiled() []rule {
	if p := l.own.Load(); p != nil {
		return *p
	}
	return nil
}

// ready returns the compiled rules of s, which it compiles first if s is
// a lazy set not yet compiled: in file order, or, once s is laid out, as
// its layout keeps them.
func (s *ruleSet) ready() []rule {
	if s.big == nil || !s.big.lazy() {
		return s.rules()
	}
	if p := s.big.own.Load(); p != nil {
		return *p
	}
	if b := s.big.Load(); b != nil {
		return b.rules
	}
	return s.compileLazy()
}

// answerUnlaid updates m for s, which has no layout: from its rule lines
// if it is a lazy set asked fewer than compileQuestions times, else from
// its compiled rules (which it compiles if need be) if it has been asked
// fewer than layoutQuestions times or it is a lazy set of smallSet
// compiled rules or fewer, which is never laid out. Otherwise it returns
// the layout of s, which it makes if need be, for the caller to match
// with.
func (s *ruleSet) answerUnlaid(path string, m *match) *bigSet {
	l := s.big
	if !l.lazy() {
		return s.scanUnlaid(s.rules(), path, m, l.asked.Add(1))
	}
	rules := l.compiled()
	q := int32(0)
	if rules == nil {
		if b := l.Load(); b != nil {
			return b // laid out since the caller looked: own is released
		}
		if q = l.asked.Add(1); q <= compileQuestions && s.scanLines(path, m) {
			return nil
		}
		rules = s.compileLazy()
	}
	if len(rules) <= smallSet {
		s.try(rules, path, m) // sorted, as a small set
		return nil
	}
	if q == 0 {
		q = l.asked.Add(1)
	}
	return s.scanUnlaid(rules, path, m, q)
}

// scanUnlaid updates m by scanning rules, the compiled rules of s in file
// order, asked for the qth time, or, past layoutQuestions, returns its
// layout, which it makes if need be. The rules scanned are never written
// again (a layout is made in a slice of its own), and they are those the
// caller read once: a lazy set laid out meanwhile releases them (own).
func (s *ruleSet) scanUnlaid(rules []rule, path string, m *match, q int32) *bigSet {
	if q > layoutQuestions && len(rules) < maxLaid {
		return s.layOut()
	}
	s.scanRules(rules, path, m)
	return nil
}

// compileLazy compiles the rules of s, a lazy set, and returns them. The
// rules are decoded from the line table and compiled as resolve would
// have, into a slice of their own, which MemSize counts from then on. Of
// concurrent first questions, each compiles, and the first to publish
// its rules (own) is kept; without a lock, no question waits for another.
// A set whose compiled rules are smallSet or fewer keeps them sorted, as
// a small set does, and is never laid out (answerUnlaid).
func (s *ruleSet) compileLazy() []rule {
	f, l := s.file, s.big
	// The rule lines, and the compiled rules before they are copied to a
	// slice of their size: s counts its rule lines, which compile to as
	// many rules or more.
	lines := make([]srcLine, 0, s.n)
	var one [1]int32
	rr := ruleReader{f: f}
	for _, rec := range l.recs(f, &one) {
		rr.start(rec)
		for line, ok := rr.next(); ok; line, ok = rr.next() {
			lines = append(lines, line)
		}
	}
	compiled := make([]rule, 0, s.n)
	var c ruleSet
	var sc scratch
	compileTo(&c, f.text, &compiled, lines, &sc)
	rules := make([]rule, len(compiled))
	copy(rules, compiled)
	if c.big != nil {
		l.dirs.Store(c.big.dirs.Load() | isLazy)
	}
	if !l.own.CompareAndSwap(nil, &rules) {
		if p := l.own.Load(); p != nil {
			return *p
		}
		return rules // laid out meanwhile: scan these, keep none
	}
	if l.Load() != nil {
		// Laid out between the caller's look and this: the layout holds
		// the rules, and these are for this question alone.
		l.own.CompareAndSwap(&rules, nil)
		return rules
	}
	f.lazySize.Add(int64(ownSize(rules)))
	return rules
}

// ownSize returns the bytes that compileLazy keeps for rules.
func ownSize(rules []rule) int { return objectSize[[]rule]() + sliceSize[rule](cap(rules)) }

// recs returns the records of l, a lazy set of file f: record srcLo in
// one, if it is the only one.
func (l *lazyLayout) recs(f *Robots, one *[1]int32) []int32 {
	if l.srcN == 0 {
		one[0] = l.srcLo
		return one[:]
	}
	return f.more.recs[l.srcLo : l.srcLo+l.srcN]
}

// A ruleReader reads the rule lines of records of a file, in file order:
// each from where the one before ended, when it follows closely, rather
// than from a mark of the line table, so that a set of many records of a
// rule or two costs no more to read than their lines.
type ruleReader struct {
	f *Robots
	d lineReader
	// end is the index of the entry that ends the current record, or -1;
	// started reports that d has read a record.
	end     int
	started bool
}

// start moves to record rec, which follows those read before.
func (rr *ruleReader) start(rec int32) {
	f := rr.f
	at := f.recordStart(int(rec))
	if !rr.started || rr.d.i > at || at-rr.d.i > at%markEvery {
		rr.d = f.readerAt(at) // from the mark before at
	}
	for rr.d.i < at && rr.d.next(nil) {
	}
	rr.started, rr.end = true, -1
	if int(rec)+1 < f.recordCount() {
		rr.end = f.recordStart(int(rec) + 1)
	}
}

// next returns the next rule line of the record, or false after its last.
func (rr *ruleReader) next() (srcLine, bool) {
	var e entry
	for rr.d.i != rr.end && rr.d.next(&e) {
		if e.kind == kindAllow || e.kind == kindDisallow {
			return e.l, true
		}
	}
	return 0, false
}
