package robots

// Compiling rules: from the rule lines of the records of a set to its
// compiled rules (match.go), sorted for a small set, in file order for a
// large one until its questions lay it out (lazy.go, index.go); leaving out
// the rules that can never decide.

import (
	"slices"
	"strings"
	"unsafe"
)

// A scratch holds the temporary slices of compile, for reuse from one
// record to the next.
type scratch struct {
	order []uint64
	// offs and lens are where the pattern of each rule is in the kept
	// text: offsets, not strings, which the garbage collector would have
	// to track.
	offs, lens []uint32
	// esc holds the escaped pattern of a raw rule while it is compiled.
	esc []byte
	// all keeps every rule, for Check; otherwise compile leaves out the
	// rules that can never decide (keeps).
	all bool
	// short holds the rules of at most two bytes compiled so far into the
	// set being compiled, a bit each (keeps); it is made on first use, and
	// dirty tells whether it holds any.
	short []uint64
	dirty bool
}

// keeps reports whether compile keeps a rule of pattern p: not if
// it can never decide. That is, if p is empty (priority 0), if p starts
// with neither "/" nor "*" (every path starts with "/"), or if p, of one or
// two bytes, repeats a rule of the same kind earlier in the set, which wins
// wherever it would (the earliest line wins a tie): so that a file of the
// shortest rule lines, all alike or cycling through a few, keeps one
// compiled rule for each distinct rule, not for each line. Longer rules
// pay for themselves within the bound of MemSize (memsize.go). Repeats of
// any length are dropped later too, from a small set by dropRepeats and
// from the questions to a large one by splitRepeats; only this test keeps
// a large set's compiled rules from growing with short repeats.
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
	sc.dirty = true
	return true
}

// compile compiles rules, some of the rules of file, into s, appending
// them to file.compiled.
func compile(s *ruleSet, file *Robots, rules []srcLine, sc *scratch) {
	s.file = file
	compileTo(s, file.text, &file.compiled, rules, sc)
}

// compileTo compiles rules, whose values are in text, into s, appending
// them to *out, and sets s.lo and s.n to where they are there; it leaves
// s.file to the caller.
func compileTo(s *ruleSet, text string, out *[]rule, rules []srcLine, sc *scratch) {
	s.lo = int32(len(*out))
	// Sort the rules by key, greatest first: the precedence keys, shifted
	// left, with the index of the rule and whether it is the derived
	// index.htm rule in the low bits, sort as integers. A priority is the
	// length of the escaped pattern.
	// One more key for an index.htm rule; at and lens say where the
	// patterns are in text.
	order := slices.Grow(sc.order[:0], len(rules)+1)
	at := slices.Grow(sc.offs[:0], len(rules))[:len(rules)]
	lens := slices.Grow(sc.lens[:0], len(rules))[:len(rules)]
	// Stored back only if grown: a store of a slice costs a write barrier
	// while the garbage collector runs.
	if cap(at) != cap(sc.offs) || cap(lens) != cap(sc.lens) {
		sc.offs, sc.lens = at, lens
	}
	if sc.dirty {
		clear(sc.short)
		sc.dirty = false
	}
	for i, l := range rules {
		// keeps and indexHTM give the same answers on what was written
		// as on the escaped pattern: escaping makes no "/" nor "*", and a
		// pattern it changes has more than two bytes escaped.
		p, off := l.value(text), l.off()
		at[i] = off
		lens[i] = uint32(len(p))
		if !sc.keeps(p, l.allow()) {
			continue
		}
		n, low := len(p), uint64(i)<<1
		mayChange, star := scanPattern(p)
		if mayChange && escapeChanges(p) {
			n, low = escapedLen(p), low|keyRaw
		}
		if star {
			low |= keyStar
		}
		order = append(order, ruleKey(n, l.allow(), l.line())<<keyLow|low)
		if j := indexHTM(p, l.allow()); j >= 0 {
			order = append(order, ruleKey(escapedLen(p[:j+1])+1, true, l.line())<<keyLow|low|1)
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
		order = omitDirs(order, text, at, lens)
		omitted = len(order)
		order = foldDirs(order, text, at, lens)
	}
	s.n = int32(len(order))
	ties := false
	if s.n <= smallSet {
		ties = sortKeys(order)
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
		i := keyIndex(o)
		p := text[at[i] : at[i]+lens[i]]
		var raw rule
		if o&keyRaw != 0 {
			// A raw rule: compiled from its escaped pattern, made in
			// scratch space, which newRule does not keep, and matched
			// escaped as it goes (escape.go). unsafe.String rather than a
			// copy: Parse + first question on four 500 KiB files of raw
			// rules (utf8-short, lower-short, invalid-utf8, wildcards-raw)
			// costs 10.4 ms rather than 12.4 (-16%; none on real files).
			sc.esc = appendEscaped(sc.esc[:0], p)
			p, raw = unsafe.String(unsafe.SliceData(sc.esc), len(sc.esc)), ruleRaw
		}
		switch {
		case o&(1|keyStar) == 0:
			compiled[len(order)-1-k] = newLiteral(p, len(p), false, rules[i].allow(), at[i]) | raw
		case o&1 == 0:
			compiled[len(order)-1-k] = newRule(p, len(p), false, rules[i].allow(), at[i]) | raw
		default:
			j := indexHTM(p, true)
			compiled[len(order)-1-k] = newRule(p[:j+1], j+2, true, true, at[i]) | raw
		}
	}
	if ties && !sc.all {
		s.n = int32(dropRepeats(compiled, text))
		*out = (*out)[:int(s.lo)+int(s.n)]
	}
}

// sortKeys sorts order, the sort keys of the rules of a small set
// (compile), and reports whether two of them have the same rank, which
// dropRepeats needs to look at: a repeat has the rank of the rule it
// repeats.
func sortKeys(order []uint64) (ties bool) {
	slices.Sort(order)
	for k := 1; k < len(order); k++ {
		ties = ties || order[k]>>keyRank == order[k-1]>>keyRank
	}
	return ties
}

// The low bits of the sort keys of compile, below a precedence key:
// whether the rule is the derived index.htm rule, the index of its line,
// and, at the top, whether its pattern holds a "*" and whether it is raw
// (escapeChanges).
const (
	keyLow  = 64 - keyBits
	keyRaw  = 1 << (keyLow - 1)
	keyStar = 1 << (keyLow - 2)
	// keyRank is the shift of the rank (rule.rank) in a sort key.
	keyRank = keyLow + lineBits
)

// keyIndex returns the index of the line of the sort key o of compile.
func keyIndex(o uint64) int { return int(o & (keyStar - 1) >> 1) }

// scanPattern reports whether escaping may change pattern p (it holds a
// byte outside ASCII or a "%", and escapeChanges tells), and whether it
// holds a "*", so that compile calls neither escapeChanges nor
// strings.IndexByte on most patterns.
func scanPattern(p string) (mayChange, star bool) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		mayChange = mayChange || c >= 0x80 || c == '%'
		star = star || c == '*'
	}
	return mayChange, star
}

// same reports whether rules a and b, of one file whose kept text is text,
// match the same paths with the same rank: all but their offsets alike,
// and the patterns there, as written (a pattern written in two ways that
// escape alike makes two rules that are not the same: both are kept, and
// the second never decides).
func same(a, b rule, text string) bool {
	const offs = 1<<ruleRawBit - 1
	return a&^offs == b&^offs && a.written(text) == b.written(text)
}

// dropRepeats removes from rules, sorted by key, greatest first, each rule
// that repeats one before it (same), which can never decide: the one
// before wins wherever it would, on the earlier line. It returns how many
// are left, at the front. What it buys, on a warm question (CPU time):
// wildcards-long, one 16 KB wildcard line 30 times in a small set,
// answers a short path in 116 ns rather than 1.33 µs, and a path of 1 KB
// in 25 µs rather than 377.
func dropRepeats(rules []rule, text string) int {
	n := 0
	for _, r := range rules {
		repeat := false
		for k := n - 1; k >= 0 && rules[k].rank() == r.rank() && !repeat; k-- {
			repeat = same(rules[k], r, text)
		}
		if !repeat {
			rules[n] = r
			n++
		}
	}
	return n
}

// omitDirs returns order, the keys of the rules of a set being compiled
// (compile), without the rules of the directories of index.htm allow rules
// that have no "*", if the set is large without them: its layout finds
// them from the index.htm rules (bigSet.dirs), in 3 bytes each (most
// often) rather than 8. A file of index.htm allow rules would otherwise keep 1.7 times
// its size.
func omitDirs(order []uint64, text string, at, lens []uint32) []uint64 {
	isDir := func(o uint64) bool {
		i := keyIndex(o)
		return o&1 == 1 && plainDir(text[at[i]:at[i]+lens[i]]) > 0
	}
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

// plainDir returns the length of the directory that p, the pattern of an
// allow rule, also allows (indexHTM), if it holds no "*", or else 0: the
// directories that omitDirs leaves out and fileDirs files. It is not 0 for
// a pattern as written exactly when it is not for the escaped pattern.
func plainDir(p string) int {
	j := indexHTM(p, true)
	if j < 0 || strings.IndexByte(p[:j+1], '*') >= 0 {
		return 0
	}
	return j + 1
}

// byKey returns a copy of rules, which are in file order, sorted by key,
// greatest first: by rank, then by position.
func byKey(rules []rule) []rule {
	n := len(rules)
	order := make([]uint64, n)
	for i, r := range rules {
		order[i] = uint64(r.rank())<<32 | uint64(n-1-i)
	}
	slices.Sort(order)
	out := make([]rule, n)
	for k, o := range order {
		out[n-1-k] = rules[n-1-int(uint32(o))]
	}
	return out
}

// indexHTM returns the index of the last "/" of the pattern p of an allow
// rule when it is followed by "index.htm", or -1.
//
// Google's reference treats an allow of ".../index.htm" or ".../index.html"
// as also allowing the directory itself: "Allow: /d/index.html" allows "/d/"
// too, as if "Allow: /d/$" had been written on the same line.
func indexHTM(p string, allow bool) int {
	if !allow {
		return -1
	}
	if j := strings.LastIndexByte(p, '/'); j >= 0 && strings.HasPrefix(p[j:], "/index.htm") {
		return j
	}
	return -1
}

// newLiteral is newRule for a pattern p that holds no "*", most rules: a
// prefix, or exact if it ends with "$".
func newLiteral(p string, prio int, dollar, allow bool, off uint32) rule {
	r := rule(prio)<<(ruleRankShift+1) | rule(off)
	if allow {
		r |= ruleAllow
	}
	sh := shapePrefix
	if dollar {
		sh = shapeExact
	} else if len(p) > 0 && p[len(p)-1] == '$' {
		sh, p = shapeExact, p[:len(p)-1]
	}
	return r | rule(sh)<<ruleShapeShft | rule(len(p))<<ruleHeadShift
}

// newRule compiles escaped pattern p of priority prio, found at offset off
// of the kept text. With dollar set, p is matched as if it were followed by
// "$".
func newRule(p string, prio int, dollar, allow bool, off uint32) rule {
	if strings.IndexByte(p, '*') < 0 {
		return newLiteral(p, prio, dollar, allow, off)
	}
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
		// A trailing "*" matches whatever follows, so "$" after it changes
		// nothing: "/fish*" and "/fish*$" are "/fish" of greater priority.
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
	return r | rule(sh)<<ruleShapeShft | rule(head)<<ruleHeadShift
}
