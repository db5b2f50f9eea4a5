package robots

// Scanning: how a large set answers before it is laid out (lazy.go), by
// trying each of its rules, compiled, or, before it is compiled, each of
// its rule lines as the line table holds them. These are the two states
// lazy.go measures: without them a first question compiles and lays out
// every large set it asks, and Parse + first question over the corpus
// costs 46.8 ms rather than 15.2.

// scanRules updates m with the best of rules, the compiled rules of s,
// that matches path, trying each, in any order, and the directories of
// its index.htm allow rules if compile left those out (omitDirs,
// foldDirs).
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
// that is path, as bigSet.matchDirs does from a layout: "/d/" for
// "Allow: /d/index.html", as if "Allow: /d/$" were written on its line.
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
// compiled, that matches path: it reads the rule lines of its records
// from the line table and tries each as compile would compile it, but
// compiles only those whose rank could beat m and whose pattern's literal
// head could start path. Rules that compile leaves out never decide (an
// empty pattern, one that starts with neither "/" nor "*", a short
// repeat, which loses to the rule it repeats), so that they are passed
// over or lose here too. It reports false, having tried only some, if s
// holds a raw rule (escapeChanges), which is matched escaped and compiled
// from its escaped pattern: such a set is to be compiled at once.
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

// scanRecord updates m with the best rule of s, the rule lines of one
// record (recSetLines), that matches path: it reads them from the line
// table and tries each as scanLines does, none being raw.
func (s *ruleSet) scanRecord(path string, m *match) {
	rr := ruleReader{f: s.file}
	rr.start(^s.lo)
	s.scanRecordLines(&rr, path, m)
}

// scanRecordLines updates m with the rule lines that rr reads, up to the
// end of its record, as tryLine does, and reports false, having tried
// only some, at a raw rule. The short entry of a rule line (lines.go),
// most of them, is read by nextShortRule and passed over at a glance
// (cannotStart) before its rule line is made: it costs a few
// nanoseconds, about a quarter of a call of tryLine.
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

// tryLine updates m with the rule of rule line l, and the directory rule
// an index.htm allow rule implies, if they match path and beat m. It
// reports false, trying nothing, if the rule is raw.
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

// cannotStart reports, at a glance, that no rule of pattern p, nor the
// directory rule of an index.htm allow rule, matches path, of two bytes or
// more: p is "/" then a byte other than "*" whose escaped form does not
// start with the second byte of path. ("/$" matches "/" alone.) Most rule
// lines of a large set are passed over so, before they are read further.
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

// headMayStart reports whether the literal head of pattern p may be a
// prefix of path: whether path starts with the bytes of p up to its first
// "*" or its final "$".
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

// tryRule updates m with r, a rule of s, if it matches path and beats m.
func (s *ruleSet) tryRule(r rule, path string, m *match) {
	if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
		return
	}
	if s.matches(r, path, m) {
		m.take(s, r)
	}
}

// compiledLines returns the rules of s, a set read from the line table
// (scanRecord), compiled as its record's own set would be, sorted by key,
// greatest first: for the look of Check and of tests, not for questions.
func (s *ruleSet) compiledLines() []rule {
	f := s.file
	_, lines := f.recordLines(int(^s.lo), nil, nil)
	into := Robots{text: f.text}
	var c ruleSet
	var sc scratch
	compile(&c, &into, lines, &sc)
	if c.big != nil {
		return byKey(into.compiled) // more rules than lines: in file order
	}
	return into.compiled
}
