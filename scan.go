package robots

// Scanning: how a large set answers before it is laid out (lazy.go), and
// a record read from the line table always: trying each of its rule lines.

import "unsafe"

// scanLines updates m with the best rule of s, a lazy set not yet laid
// out, that matches path: it reads its rule lines and compiles only those
// whose rank could beat m and whose head could start path (the rules
// compile leaves out never decide, here either).
func (s *ruleSet) scanLines(path string, m *match) {
	var one [1]int32
	rr := ruleReader{f: s.file}
	for _, rec := range s.big.recs(s.file, &one) {
		rr.start(rec)
		s.scanRecordLines(&rr, path, m)
	}
}

// scanRecord is scanLines for s, the rule lines of one record
// (recSetLines).
func (s *ruleSet) scanRecord(path string, m *match) {
	rr := ruleReader{f: s.file}
	rr.start(^s.lo)
	s.scanRecordLines(&rr, path, m)
}

// scanRecordLines updates m with the rule lines rr reads up to the end of
// its record (tryLine). A short entry (lines.go) is passed over at a
// glance (cannotStart) before its line is made: about a quarter of a call
// of tryLine.
func (s *ruleSet) scanRecordLines(rr *ruleReader, path string, m *match) {
	d, text := &rr.d, s.file.text
	for d.i != rr.end && d.pos < len(d.lines) {
		off, size, allow, ok := d.nextShortRule()
		if !ok {
			var e entry
			if d.next(&e); e.kind == kindAllow || e.kind == kindDisallow {
				s.tryLine(e.l, path, m)
			}
			continue
		}
		if p := text[off : off+size]; len(p) > 1 && cannotStart(p, path) {
			continue
		}
		s.tryLine(newSrcLine(int(off), int(size), int(d.line), allow), path, m)
	}
}

// tryLine updates m with the rule of line l, and its index.htm directory
// rule, if they match path and beat m: compiled as compile would, a raw
// one from its escaped pattern, made on the stack if short.
func (s *ruleSet) tryLine(l srcLine, path string, m *match) {
	p, off := l.value(s.file.text), l.off()
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
	allow := l.allow()
	if allow && len(p) >= len("/index.htm") {
		if j := indexHTM(p, true); j >= 0 {
			s.tryRule(newRule(p[:j+1], j+2, true, true, off)|raw, path, m)
		}
	}
	rank := uint32(len(p)) << 1
	if allow {
		rank |= 1
	}
	if rank < m.rank || rank == m.rank && !m.quote || !headMayStart(p, path) {
		return
	}
	s.tryRule(newRule(p, len(p), false, allow, off)|raw, path, m)
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

// headMayStart reports whether path starts with the bytes of p up to its
// first "*" or its final "$".
func headMayStart(p, path string) bool {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '*' || c == '$' && i == len(p)-1:
			return true
		case i >= len(path) || path[i] != c:
			return false
		}
	}
	return true
}

// compiledLines returns the rules of s, a set read from the line table,
// compiled and sorted by key, greatest first: for Check and tests.
func (s *ruleSet) compiledLines() []rule {
	f := s.file
	_, lines := f.recordLines(int(^s.lo), nil, nil)
	into := Robots{text: f.text}
	var c ruleSet
	var sc scratch
	compile(&c, &into, lines, &sc)
	if c.big != nil {
		return byKey(into.compiled) // over smallSet rules: compiled in file order
	}
	return into.compiled
}

// A ruleReader reads the rule lines of records of a file, in file order,
// each from where the one before ended when it follows closely, not from
// a mark: many records of a rule or two cost no more than their lines.
type ruleReader struct {
	f       *Robots
	d       lineReader
	end     int // the entry that ends the current record, or -1
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

// recs returns the records of l, a lazy set of f (one holds srcLo alone).
func (l *lazyLayout) recs(f *Robots, one *[1]int32) []int32 {
	if l.srcN == 0 {
		one[0] = l.srcLo
		return one[:]
	}
	return f.more.recs[l.srcLo : l.srcLo+l.srcN]
}
