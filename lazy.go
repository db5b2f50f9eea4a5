package robots

import "slices"

// When a large set is laid out (index.go): a set of more than smallSet
// rule lines (lazySet) answers its first layoutQuestions questions from
// its rule lines (scanLines), and is compiled and laid out on the question
// after; a set compiled by Parse to more than
// smallSet rules (index.htm rules adding theirs) is laid out on its first.
// A ski rental: the questions before the layout cost about as much as the
// layout, so the total work is at most about twice the least of "always
// scan" and "lay out at once".
//
// Buys, on Parse + first question over the real-world corpus (CPU time,
// BenchmarkParseCorpus, op=parse+query): 18.5 ms rather than 57.1 if the
// first question laid out each large set (layoutQuestions 0).
const layoutQuestions = 24

// maxLaid bounds the rules of a set laid out, so that its links and
// bucket starts take 2 bytes each; no set of a file of MaxSize reaches it
// (TestMaxLaid).
const maxLaid = 1<<16 - 2

// lazySet returns a set of the n (> smallSet) rule lines of the records
// srcN from srcLo in file.more.recs (record srcLo alone if srcN is 0), to
// be compiled once asked enough.
func lazySet(file *Robots, n int, srcLo, srcN int32) ruleSet {
	l := &lazyLayout{srcLo: srcLo, srcN: srcN}
	l.dirs.Store(isLazy)
	return ruleSet{file: file, n: int32(n), big: l}
}

// ready returns the compiled rules of s: as its layout keeps them once
// laid out; else, for a large set, in file order (sorted if it compiles
// to smallSet rules or fewer), in a slice of their own.
func (s *ruleSet) ready() []rule {
	switch {
	case s.big == nil:
		return s.rules()
	case s.big.Load() != nil:
		return s.big.Load().rules
	case !s.big.lazy():
		return slices.Clone(s.rules())
	}
	return s.compileLazy()
}

// compileLazy compiles the rule lines of s, a lazy set, as resolve would
// have, into a slice of their own, and sets the bits of the directory
// rules compile left out.
func (s *ruleSet) compileLazy() []rule {
	f, l := s.file, s.big
	// s.n rule lines compile to as many rules or more.
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
	if c.big != nil {
		l.dirs.Store(c.big.dirs.Load() | isLazy) // the same bits from any question
	}
	rules := make([]rule, len(compiled)) // of its exact size, which MemSize counts
	copy(rules, compiled)
	return rules
}

// layOut lays out the rules of s, a set of more than smallSet rules or
// rule lines, and returns its layout. Of concurrent questions, the first
// to publish is kept, without a lock; MemSize counts it from then on.
func (s *ruleSet) layOut() *bigSet {
	if b := s.big.Load(); b != nil {
		return b
	}
	rules := s.ready()
	b := s.newLayout(rules)
	b.rules = rules
	if !s.big.CompareAndSwap(nil, b) {
		return s.big.Load()
	}
	s.file.lazySize.Add(int64(b.memSize() + sliceSize[rule](cap(rules))))
	return b
}

// sorted returns a copy of the rules of s sorted by key, greatest first,
// for Check and tests: of a large set, compiled anew, whatever its state.
func (s *ruleSet) sorted() []rule {
	switch {
	case s.n == 0:
		return nil
	case s.lo < 0:
		return s.compiledLines()
	case s.big == nil:
		return slices.Clone(s.rules())
	case !s.big.lazy():
		return byKey(s.rules())
	}
	return byKey(s.compileLazy())
}

// match updates m with the best rule of s that matches path, if it beats the
// one m holds.
func (s *ruleSet) match(path string, m *match) {
	switch {
	case s.lo < 0:
		s.scanRecord(path, m)
		return
	case s.n <= smallSet:
		s.try(s.rules(), path, m)
		return
	}
	b := s.big.Load()
	if b == nil {
		if s.big.lazy() && s.big.asked.Add(1) <= layoutQuestions {
			s.scanLines(path, m)
			return
		}
		b = s.layOut()
	}
	b.match(s, path, m)
}
