package robots

import (
	"cmp"
	"slices"
)

// When a large set is compiled and laid out: once its questions have cost
// about as much as each step (a ski rental each: the total work is at
// most about twice the least of "always scan" and "compile and lay out at
// once"). A set of more than smallSet rule lines (lazySet) answers its
// first compileQuestions questions from its rule lines (scanLines), then
// compiles them (compileLazy; at once on a raw rule), answers by scanning
// its compiled rules (scanRules) up to layoutQuestions, and is laid out
// (index.go) on the question after.
//
// Buys, on Parse + first question over the real-world corpus (CPU time,
// least of 5 runs): 15.2 ms; 18.9 ms if the first question compiled each
// large set (compileQuestions 0: the lines state buys 20%); 46.8 ms if it
// laid it out too (layoutQuestions 0: the scanning state buys 60%).

// Over the 404 large sets that answer Googlebot in the real-world corpus,
// asked "/some/page.html": compiling costs 3 to 5 reads of the rule lines,
// a layout 13 to 33 scans of the compiled rules (quartiles).
const (
	compileQuestions = 4
	layoutQuestions  = 24
)

// maxLaid bounds the rules of a set laid out, so that its links and
// bucket starts take 2 bytes each; no set of a file of MaxSize reaches it.
const maxLaid = 1<<16 - 2

// lazySet returns a set of the n (> smallSet) rule lines of the records
// srcN from srcLo in file.more.recs (record srcLo alone if srcN is 0), to
// be compiled once asked enough.
func lazySet(file *Robots, n int, srcLo, srcN int32) ruleSet {
	l := &lazyLayout{srcLo: srcLo, srcN: srcN}
	l.dirs.Store(isLazy)
	return ruleSet{file: file, n: int32(n), big: l}
}

// ready returns the compiled rules of s, compiled first if need be: in
// file order, or, once s is laid out, as its layout keeps them.
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

// answerUnlaid updates m for s, which has no layout, in the state of its
// question (see above); a lazy set of smallSet compiled rules or fewer is
// never laid out. Past layoutQuestions it returns the layout, made if
// need be, for the caller to match with.
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

// scanUnlaid updates m by scanning rules, the compiled rules of s asked
// for the qth time, or, past layoutQuestions, returns its layout. The
// rules scanned are never written again (a layout has a slice of its own).
func (s *ruleSet) scanUnlaid(rules []rule, path string, m *match, q int32) *bigSet {
	if q > layoutQuestions && len(rules) < maxLaid {
		return s.layOut()
	}
	s.scanRules(rules, path, m)
	return nil
}

// compileLazy compiles the rules of s, a lazy set, as resolve would have,
// into a slice of their own that MemSize counts, and returns them. Of
// concurrent questions, the first to publish (own) is kept, without a
// lock. A set of smallSet compiled rules or fewer keeps them sorted.
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
	if l.Load() != nil { // laid out since the caller looked: these are its alone
		l.own.CompareAndSwap(&rules, nil)
		return rules
	}
	f.lazySize.Add(int64(ownSize(rules)))
	return rules
}

func ownSize(rules []rule) int { return objectSize[[]rule]() + sliceSize[rule](cap(rules)) }

// layOut lays out the rules of s, a set of more than smallSet rules, and
// returns its layout, made in a slice of its own, so that questions
// scanning the compiled rules meanwhile read rules that never change. Of
// concurrent questions, the first to publish is kept, without a lock;
// MemSize counts the layout from then on, and no longer the compiled rules
// of a lazy set (own is released).
func (s *ruleSet) layOut() *bigSet {
	if b := s.big.Load(); b != nil {
		return b
	}
	compiled := s.ready()
	rules := make([]rule, len(compiled)) // of its exact size, as compileLazy's
	copy(rules, compiled)
	b := s.newLayout(rules)
	b.rules = rules
	if !s.big.CompareAndSwap(nil, b) {
		return s.big.Load()
	}
	size := b.memSize() + sliceSize[rule](cap(rules))
	if s.big.lazy() {
		if p := s.big.own.Swap(nil); p != nil {
			size -= ownSize(*p)
		}
	}
	s.file.lazySize.Add(int64(size))
	return b
}

// sorted returns a copy of the rules of s sorted by key, greatest first,
// for Check and tests. It may run beside questions: a layout made
// meanwhile is read again.
func (s *ruleSet) sorted() []rule {
	switch {
	case s.n == 0:
		return nil
	case s.lo < 0:
		return s.compiledLines()
	case s.big == nil:
		return slices.Clone(s.rules())
	}
	b := s.big.Load()
	if b == nil {
		rules := slices.Clone(s.ready())
		if s.big.Load() != nil {
			return s.sorted() // laid out meanwhile: ready gave its rules
		}
		return byKey(rules)
	}
	rules := slices.Clone(b.rules)
	for i, r := range rules[:b.nFloat] {
		rules[i] = s.compiledAs(r)
	}
	// Each rule's key once: it looks up the rule's line.
	type keyed struct {
		key uint64
		r   rule
	}
	ks := make([]keyed, len(rules))
	for i, r := range rules {
		ks[i] = keyed{s.key(r), r}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return cmp.Compare(b.key, a.key) })
	for i, k := range ks {
		rules[i] = k.r
	}
	return rules
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
		if b = s.answerUnlaid(path, m); b == nil {
			return // answered without a layout
		}
	}
	b.match(s, path, m)
}
