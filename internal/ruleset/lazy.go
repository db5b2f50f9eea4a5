package ruleset

// A set of more than smallSet rules or rule lines, before and as it is
// laid out (index.go), and a record read from the line table (ownSetLines):
// questions that scan rule lines, and the compiling of a large set.

import (
	"math"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/gorep/robots/internal/heapsize"
	"github.com/gorep/robots/internal/lines"
)

// A lazyLayout is the layout of a set of more than smallSet rules once
// made (nil before), and its state until then.
type lazyLayout struct {
	atomic.Pointer[bigSet]
	// asked weighs the scans of a lazy set before its layout (claim).
	asked atomic.Int32
	// dirs holds the bits below (bits: the state takes 24 bytes), set by Parse
	// or once by a lazy set's first compile (compileLazy) before publishing.
	dirs atomic.Uint32
	// A lazy set compiles the rules of the records srcN from srcLo in
	// *recs, the model's record lists (record srcLo alone if srcN is 0),
	// as it is laid out.
	srcLo, srcN int32
	recs        *[]int32
}

// The bits of lazyLayout.dirs.
const (
	dirsOmitted = 1 << iota // compile left out plain directory rules (leaveOut)
	dirsFolded              // and folded others (dirs.go, tryFolded)
	isLazy                  // the set is lazy (lazySet)
)

func (l *lazyLayout) lazy() bool    { return l.dirs.Load()&isLazy != 0 }
func (l *lazyLayout) omitted() bool { return l.dirs.Load()&dirsOmitted != 0 }
func (l *lazyLayout) folded() bool  { return l.dirs.Load()&dirsFolded != 0 }

// A set of more than smallSet rule lines (lazySet) answers its first
// questions by scanning them, and is laid out once their weight reaches
// layoutQuestions (one that Parse compiled to more, index.htm rules adding
// theirs, on its first). A scan weighs 1, and 1 more for each pathWeight
// bytes of path a line read in matchWildcard (match.work). A ski rental:
// laying out costs about 12 scans ("/some/page.html") over the corpus's
// large sets for Googlebot (BenchmarkLayout; it cost 21 when the layout
// was twice as dear, and layoutQuestions was 24), so the work is at most
// about twice the least. Buys
// Parse + first question over the corpus (BenchmarkParseCorpus/op=parse+query,
// against layoutQuestions 0), and pathWeight questions of long paths against
// many wildcard rules (bench/ synth); figures: bench/RESULTS.md, "What each mechanism buys".
const layoutQuestions, pathWeight = 12, 128

// lazySet returns a set of the n (> smallSet) rule lines of the records
// srcLo and srcN name (lazyLayout), to be compiled once asked enough.
func lazySet(src *source, n int, recs *[]int32, srcLo, srcN int32) ruleSet {
	l := &lazyLayout{srcLo: srcLo, srcN: srcN, recs: recs}
	l.dirs.Store(isLazy)
	return ruleSet{src: src, n: int32(n), big: l}
}

// match updates m with the best rule of s that matches path, if it beats the
// one m holds.
func (s *ruleSet) match(path string, m *match) {
	switch {
	case s.lo < 0:
		s.scanLines(path, m)
		return
	case s.n <= smallSet:
		s.try(s.rules(), path, m)
		return
	}
	b := s.big.Load()
	if b == nil {
		// Of a lazy set, the question claim tells lays it out; others scan.
		if s.big.lazy() && !s.big.claim() {
			work := m.work
			s.scanLines(path, m)
			s.big.asked.Add(int32(min(1+(m.work-work)/(pathWeight*int(s.n)), layoutQuestions)))
			return
		}
		b = s.layOut()
	}
	if len(b.rules) <= smallSet {
		s.try(b.rules, path, m) // a lazy set that compiles to so few: sorted
		return
	}
	b.match(s, path, m)
}

// claim reports whether this question lays the set out, the first to find
// the scans' weight at layoutQuestions; then it is made negative: no wrap.
func (l *lazyLayout) claim() bool {
	v := l.asked.Load()
	return v >= layoutQuestions && l.asked.CompareAndSwap(v, math.MinInt32)
}

// scanLines updates m with the best rule of s, a lazy set not yet laid
// out or a record read from the line table, that matches path: it reads
// its rule lines and compiles each that could start path, on the stack.
func (s *ruleSet) scanLines(path string, m *match) {
	var one [1]int32
	rr := lines.NewRuleReader(s.src.table())
	for _, rec := range s.records(&one) {
		rr.Start(rec)
		s.scanRecord(&rr, path, m)
	}
}

// scanRecord updates m with the rule lines rr reads up to the end of its
// record (tryLine). A short entry (lines.RuleReader.NextShort) is passed over at a
// glance (cannotStart) before its line is made: about a quarter of a call
// of tryLine.
func (s *ruleSet) scanRecord(rr *lines.RuleReader, path string, m *match) {
	text := s.src.text
	for rr.More() {
		off, size, num, allow, ok := rr.NextShort()
		if !ok {
			if l, rule := rr.NextEntry(); rule {
				s.tryLine(l, path, m)
			}
			continue
		}
		if p := text[off : off+size]; len(p) > 1 && cannotStart(p, path) {
			continue
		}
		s.tryLine(lines.NewLine(int(off), int(size), num, allow), path, m)
	}
}

// tryLine updates m with the rule of line l, and its index.htm directory
// rule, if they match path and beat m: compiled as compile would (the
// rules it leaves out never decide, here either), a raw one from its
// escaped pattern, made on the stack if short.
func (s *ruleSet) tryLine(l lines.Line, path string, m *match) {
	p, off := l.Value(s.src.text), l.Off()
	if p == "" || p[0] != '/' && p[0] != '*' || cannotStart(p, path) {
		return
	}
	var raw rule
	if escapeChanges(p) {
		var buf [128]byte
		// unsafe.String rather than a copy, as in compile: newRule keeps
		// no string, and the question allocates nothing.
		e := appendEscaped(buf[:0], p)
		p, raw = unsafe.String(unsafe.SliceData(e), len(e)), ruleRaw
	}
	if j := indexHTM(p, l.Allow()); j >= 0 {
		s.tryRule(newRule(p[:j+1], j+2, true, true, off)|raw, path, m)
	}
	s.tryRule(newRule(p, len(p), false, l.Allow(), off)|raw, path, m)
}

// cannotStart reports, at a glance, that no rule of pattern p (nor its
// index.htm directory) matches path, of two bytes or more: p is "/" then a
// byte other than "*" whose escaped form does not start with path[1].
func cannotStart(p, path string) bool {
	if len(p) < 2 || len(path) < 2 || p[0] != '/' || p[1] == '*' {
		return false
	}
	c := p[1]
	if c >= 0x80 {
		c = '%' // its escaped form starts a triplet
	}
	return c != path[1]
}

// compileAside returns the compiled rules of s, a set of more than
// smallSet rules or rule lines, in a slice of its own that no question
// reads until layOut publishes it: in file order, as Parse compiled them,
// or compiled now from the rule lines of a lazy set.
func (s *ruleSet) compileAside() []rule {
	if !s.big.lazy() {
		return slices.Clone(s.rules())
	}
	return s.compileLazy()
}

// compileLazy compiles the rule lines of s (a lazy set, or a record read
// from the line table) into a slice of its own, as Parse would have. Of a
// lazy set, the first compile to finish sets the bits of the directory
// rules compile left out, once (every compile finds the same): before any
// layout that reads them is published, and no question reads them before.
func (s *ruleSet) compileLazy() []rule {
	// s.n rule lines compile to as many rules or more.
	ruleLines := make([]lines.Line, 0, s.n)
	var one [1]int32
	rr := lines.NewRuleReader(s.src.table())
	for _, rec := range s.records(&one) {
		rr.Start(rec)
		for line, ok := rr.Next(); ok; line, ok = rr.Next() {
			ruleLines = append(ruleLines, line)
		}
	}
	src := source{text: s.src.text, compiled: make([]rule, 0, s.n)}
	var c ruleSet
	var sc scratch
	compile(&c, &src, ruleLines, &sc)
	if c.big != nil && s.big != nil {
		s.big.dirs.CompareAndSwap(isLazy, c.big.dirs.Load()|isLazy)
	}
	return src.compiled // with spare room: a layout copies it (newLayout)
}

// layOut lays out the rules of s, a set of more than smallSet rules or
// rule lines, and returns its layout (only its rules, sorted, if they are
// smallSet or fewer). Questions that race to lay s out each build a
// layout of their own, aside (compileAside); the first to publish it is
// kept, without a lock, and never written again; MemSize counts it from
// then on (TestFirstQuestionsRace).
func (s *ruleSet) layOut() *bigSet {
	if b := s.big.Load(); b != nil {
		return b
	}
	var b *bigSet
	if rules := s.compileAside(); len(rules) > smallSet {
		b = s.newLayout(rules)
	} else {
		b = &bigSet{rules: slices.Clone(rules)} // not the spare room, which MemSize would count
	}
	if !s.big.CompareAndSwap(nil, b) {
		return s.big.Load()
	}
	s.src.lazySize.Add(int64(b.memSize() + heapsize.Slice[rule](cap(b.rules))))
	return b
}

// sorted returns a copy of the rules of s sorted by key, greatest first,
// for Check and tests: of a large set, compiled anew, whatever its state.
func (s *ruleSet) sorted() []rule {
	var rules []rule
	switch {
	case s.n == 0:
		return nil
	case s.lo < 0 || s.big != nil && s.big.lazy():
		rules = s.compileLazy()
	default:
		rules = slices.Clone(s.rules()) // a small set's are sorted already
	}
	byKey(rules, make([]rule, len(rules)))
	return rules
}

// records returns the records whose rule lines s reads: a record read
// from the line table, or those of a lazy set.
func (s *ruleSet) records(one *[1]int32) []int32 {
	switch l := s.big; {
	case s.lo < 0:
		one[0] = ^s.lo
	case l.srcN == 0:
		one[0] = l.srcLo
	default:
		return (*l.recs)[l.srcLo : l.srcLo+l.srcN]
	}
	return one[:]
}
