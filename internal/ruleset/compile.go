package ruleset

// Compiling rules: from the rule lines of a set to its compiled rules
// (match.go), sorted for a small set, in file order for a large one;
// leaving out the rules that can never decide.

import (
	"slices"
	"strings"
	"unsafe"

	"github.com/gorep/robots/internal/lines"
)

// A scratch holds the temporary slices of compile, reused from one record
// to the next.
type scratch struct {
	order []uint64
	esc   []byte // the escaped pattern of a raw rule
	all   bool   // keep every rule, for Check
	// short holds the rules of at most two bytes of the set so far, a bit
	// each (keeps), made on first use.
	short []uint64
}

// keeps reports whether compile keeps a rule of pattern p: not if it can
// never decide, being empty, starting with neither "/" nor "*", or, of one
// or two bytes, repeating an earlier rule of its kind (so that a file of
// the shortest lines keeps a rule for each distinct one; longer repeats
// pay for themselves: dropRepeats drops them from a small set, and
// splitRepeats sets them aside in a large one).
func (sc *scratch) keeps(p string, allow bool) bool {
	switch {
	case p == "":
		return false
	case sc.all:
		return true
	case p[0] != '/' && p[0] != '*':
		return false
	case len(p) > 2:
		return true
	}
	i := 0
	if allow {
		i = 1 << 10
	}
	if p[0] == '*' {
		i |= 1 << 9
	}
	if len(p) == 2 {
		i |= 1<<8 | int(p[1])
	}
	if sc.short == nil {
		sc.short = make([]uint64, 1<<11/64)
	}
	w, bit := &sc.short[i/64], uint64(1)<<(i%64)
	if *w&bit != 0 {
		return false
	}
	*w |= bit
	return true
}

// compile compiles rules, whose values are in src.text, into s, appending
// them to src.compiled.
func compile(s *ruleSet, src *source, rules []lines.Line, sc *scratch) {
	text, out := src.text, &src.compiled
	s.src, s.lo = src, int32(len(*out))
	// The sort keys: the precedence key, then the bits of keyLow; one
	// more for an index.htm rule.
	order := slices.Grow(sc.order[:0], len(rules)+1)
	clear(sc.short)
	for i, l := range rules {
		// keeps and indexHTM answer alike on the escaped pattern.
		p := l.Value(text)
		if !sc.keeps(p, l.Allow()) {
			continue
		}
		n, low := len(p), uint64(i)<<1
		if escapeChanges(p) {
			n, low = escapedLen(p), low|keyRaw
		}
		order = append(order, ruleKey(n, l.Allow(), l.Num())<<keyLow|low)
		if j := indexHTM(p, l.Allow()); j >= 0 {
			order = append(order, ruleKey(escapedLen(p[:j+1])+1, true, l.Num())<<keyLow|low|1)
		}
	}
	if cap(order) > cap(sc.order) {
		sc.order = order
	}
	if len(order) == 0 {
		return
	}
	n, omitted := len(order), 0
	if n > smallSet && !sc.all {
		// The directory rules of index.htm rules, while more than smallSet
		// are left: filed apart if plain, folded if wild and not (dirs.go).
		isDir := func(o uint64, wild bool) bool {
			return o&1 == 1 && htmDir(rules[keyIndex(o)].Value(text), wild) > 0
		}
		order = leaveOut(order, func(o uint64) bool { return isDir(o, false) })
		omitted = len(order)
		order = leaveOut(order, func(o uint64) bool { return o&keyRaw == 0 && isDir(o, true) })
	}
	s.n = int32(len(order))
	ties := false
	if s.n <= smallSet {
		slices.Sort(order)
		for k := 1; k < len(order); k++ { // a repeat has the rank of the rule it repeats
			ties = ties || order[k]>>keyRank == order[k-1]>>keyRank
		}
	} else {
		// A large set is sorted when it is laid out (lazy.go).
		s.big = &lazyLayout{}
		if omitted < n {
			s.big.dirs.Store(dirsOmitted)
		}
		if len(order) < omitted {
			s.big.dirs.Store(s.big.dirs.Load() | dirsFolded)
		}
		slices.Reverse(order)
	}
	*out = extend(*out, len(order))
	compiled := (*out)[s.lo:]
	for k, o := range order {
		l := rules[keyIndex(o)]
		p := l.Value(text)
		var raw rule
		if o&keyRaw != 0 {
			// Compiled from its escaped pattern in scratch space, which
			// newRule does not keep. unsafe.String rather than a copy:
			// Parse + first question on files of raw rules (none on real
			// files; bench/RESULTS.md, "What each mechanism buys").
			sc.esc = appendEscaped(sc.esc[:0], p)
			p, raw = unsafe.String(unsafe.SliceData(sc.esc), len(sc.esc)), ruleRaw
		}
		if o&1 == 0 {
			compiled[len(order)-1-k] = newRule(p, len(p), false, l.Allow(), l.Off()) | raw
		} else {
			j := indexHTM(p, true)
			compiled[len(order)-1-k] = newRule(p[:j+1], j+2, true, true, l.Off()) | raw
		}
	}
	if ties && !sc.all {
		s.n = int32(dropRepeats(compiled, text))
		*out = (*out)[:int(s.lo)+int(s.n)]
	}
}

// The low bits of a sort key of compile, below the precedence key: from
// the top, raw, the index of the line, and derived.
const (
	keyLow  = 64 - keyBits
	keyRaw  = 1 << (keyLow - 1)
	keyRank = keyLow + lines.LineBits // the shift of the rank
)

func keyIndex(o uint64) int { return int(o & (keyRaw - 1) >> 1) }

// dropRepeats removes from rules, sorted by key, greatest first, each
// that repeats one before it (alike but for its offset, as written too),
// and returns how many are left. Buys a warm question on wildcards-long,
// one 16 KB wildcard line 30 times (BenchmarkHostile; bench/RESULTS.md, "What each mechanism buys").
func dropRepeats(rules []rule, text string) int {
	n := 0
	for _, r := range rules {
		repeat := false
		for k := n - 1; k >= 0 && rules[k].rank() == r.rank() && !repeat; k-- {
			repeat = rules[k]&^(ruleRaw-1) == r&^(ruleRaw-1) && rules[k].written(text) == r.written(text)
		}
		if !repeat {
			rules[n] = r
			n++
		}
	}
	return n
}

// leaveOut returns order without the keys isDir tells, if more than
// smallSet are left.
func leaveOut(order []uint64, isDir func(o uint64) bool) []uint64 {
	n := 0
	for _, o := range order {
		if !isDir(o) {
			n++
		}
	}
	if n == len(order) || n <= smallSet {
		return order
	}
	return slices.DeleteFunc(order, isDir)
}

// htmDir returns the length of the directory that p, an allow rule's
// pattern, also allows (indexHTM), if p holds a "*" before it as wild says
// and, if not wild, less than 256 bytes follow it escaped (a dirList entry
// keeps that difference in a byte); or else 0. Alike as written and escaped.
func htmDir(p string, wild bool) int {
	j := indexHTM(p, true)
	if j < 0 || wild != (strings.IndexByte(p[:j+1], '*') >= 0) || !wild && escapedLen(p[j+1:]) > 0xFF {
		return 0
	}
	return j + 1
}

// byKey sorts rules, in file order, by key, greatest first: by rank, then
// by position. A radix sort, stable, on the rank's 17 bits inverted, 9 a
// pass, through tmp, as long.
func byKey(rules, tmp []rule) {
	src, dst := rules, tmp
	for shift := 0; shift < 18; shift += 9 {
		var at [1<<9 + 1]int
		for _, r := range src {
			at[^r.rank()>>shift&(1<<9-1)+1]++
		}
		for d := 1; d < len(at); d++ {
			at[d] += at[d-1]
		}
		for _, r := range src {
			d := ^r.rank() >> shift & (1<<9 - 1)
			dst[at[d]] = r
			at[d]++
		}
		src, dst = dst, src
	}
}

// indexHTM returns the index of the last "/" of the pattern p of an allow
// rule when "index.htm" follows it, or -1: Google's reference reads
// "Allow: /d/index.html" as also "Allow: /d/$" on the same line.
func indexHTM(p string, allow bool) int {
	if !allow {
		return -1
	}
	if j := strings.LastIndexByte(p, '/'); j >= 0 && strings.HasPrefix(p[j:], "/index.htm") {
		return j
	}
	return -1
}

// newRule compiles escaped pattern p of priority prio, at offset off of
// the kept text, as if followed by "$" if dollar.
func newRule(p string, prio int, dollar, allow bool, off uint32) rule {
	r := rule(prio)<<(ruleRankShift+1) | rule(off)
	if allow {
		r |= ruleAllow
	}
	anchored := dollar
	if !anchored && strings.HasSuffix(p, "$") {
		p = p[:len(p)-1]
		anchored = true
	}
	if strings.HasSuffix(p, "*") {
		// "/fish*" and "/fish*$" are "/fish" of greater priority.
		p = strings.TrimRight(p, "*")
		anchored = false
	}
	head := strings.IndexByte(p, '*')
	var sh shape
	switch {
	case head >= 0 && anchored:
		sh = shapeAnchored
	case head >= 0:
		sh = shapeWildcard
	case anchored:
		sh, head = shapeExact, len(p)
	default:
		sh, head = shapePrefix, len(p)
	}
	if sh >= shapeWildcard {
		r |= rule(byteSet(p[head:])) << ruleNeedShift
	}
	return r | rule(sh)<<ruleShapeShift | rule(head)<<ruleHeadShift
}

// extend returns s with n more zero elements, doubling its capacity when
// that is short.
func extend[S ~[]E, E any](s S, n int) S {
	if len(s)+n > cap(s) {
		s = slices.Grow(s, max(len(s), n))
	}
	return s[:len(s)+n]
}
