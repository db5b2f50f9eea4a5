package robots

// Scanning: how a large set answers before it is laid out, trying each of
// its compiled rules or, before it is compiled, each of its rule lines
// (the two states lazy.go measures).

// scanRules updates m with the best of rules, the compiled rules of s,
// that matches path, and the directories compile left out, if any.
func (s *ruleSet) scanRules(rules []rule, path string, m *match) {
	for _, r := range rules {
		s.tryRule(r, path, m)
	}
	if s.big.folded() && path != "" && path[len(path)-1] == '/' {
		for _, r := range rules {
			s.tryFolded(r, path, m)
		}
	}
	if s.big.omitted() {
		s.scanDirs(rules, path, m)
	}
}

// scanDirs updates m with the directory of an index.htm allow rule of s
// that is path, as bigSet.matchDirs does from a layout.
func (s *ruleSet) scanDirs(rules []rule, path string, m *match) {
	rank := uint32(len(path)+1)<<1 | 1
	if rank < m.rank || rank == m.rank && !m.quote || path == "" || path[len(path)-1] != '/' {
		return
	}
	const file = len("index.htm")
	for _, r := range rules {
		if !r.allow() || r.priority() < len(path)+file || !s.isDirOf(r, path) {
			continue
		}
		d := newRule(path, len(path)+1, true, true, r.off())
		if m.beatenBy(s, d) {
			m.take(s, d)
		}
	}
}

// isDirOf reports whether path is the directory that r, an allow rule of
// s, also allows (plainDir), escaped.
func (s *ruleSet) isDirOf(r rule, path string) bool {
	text := s.file.text
	off := r.off()
	if r&ruleRaw == 0 {
		return text[off:off+uint32(len(path))] == path && plainDir(s.text(r)) == len(path)
	}
	w := r.written(text)
	j := plainDir(w)
	return j > 0 && escapedLen(w[:j]) == len(path) &&
		hasEscapedPrefix(path, text[off:], r.priority(), len(path))
}

// scanLines updates m with the best rule of s, a lazy set not yet
// compiled, that matches path: it reads its rule lines and compiles only
// those whose rank could beat m and whose head could start path (the
// rules compile leaves out never decide, here either). It reports false,
// having tried only some, at a raw rule: the set is then compiled at once.
func (s *ruleSet) scanLines(path string, m *match) bool {
	var one [1]int32
	rr := ruleReader{f: s.file}
	for _, rec := range s.big.recs(s.file, &one) {
		rr.start(rec)
		if !s.scanRecordLines(&rr, path, m) {
			return false
		}
	}
	return true
}

// scanRecord is scanLines for s, the rule lines of one record
// (recSetLines), none raw.
func (s *ruleSet) scanRecord(path string, m *match) {
	rr := ruleReader{f: s.file}
	rr.start(^s.lo)
	s.scanRecordLines(&rr, path, m)
}

// scanRecordLines updates m with the rule lines rr reads up to the end of
// its record (tryLine), and reports false at a raw rule. A short entry
// (lines.go) is passed over at a glance (cannotStart) before its line is
// made: about a quarter of a call of tryLine.
func (s *ruleSet) scanRecordLines(rr *ruleReader, path string, m *match) bool {
	d, text := &rr.d, s.file.text
	for d.i != rr.end && d.pos < len(d.lines) {
		off, size, allow, ok := d.nextShortRule()
		if !ok {
			var e entry
			if d.next(&e); (e.kind == kindAllow || e.kind == kindDisallow) && !s.tryLine(e.l, path, m) {
				return false
			}
			continue
		}
		if p := text[off : off+size]; len(p) > 1 && cannotStart(p, path) {
			continue
		}
		if !s.tryLine(newSrcLine(int(off), int(size), int(d.line), allow), path, m) {
			return false
		}
	}
	return true
}

// tryLine updates m with the rule of line l, and its index.htm directory
// rule, if they match path and beat m; it reports false, trying nothing,
// if the rule is raw.
func (s *ruleSet) tryLine(l srcLine, path string, m *match) bool {
	p, off := l.value(s.file.text), l.off()
	if p == "" || p[0] != '/' && p[0] != '*' || cannotStart(p, path) {
		return true
	}
	if escapeChanges(p) {
		return false
	}
	allow := l.allow()
	if allow && len(p) >= len("/index.htm") {
		if j := indexHTM(p, true); j >= 0 {
			s.tryRule(newRule(p[:j+1], j+2, true, true, off), path, m)
		}
	}
	rank := uint32(len(p)) << 1
	if allow {
		rank |= 1
	}
	if rank < m.rank || rank == m.rank && !m.quote || !headMayStart(p, path) {
		return true
	}
	s.tryRule(newRule(p, len(p), false, allow, off), path, m)
	return true
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
