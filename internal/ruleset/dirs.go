package ruleset

// The directories of index.htm allow rules that compile left out
// (leaveOut), as a layout files them: 3 bytes each. Buys
// (TestKeptPerByteSmallFiles): index-htm keeps 1.45 at 4 KiB rather than
// 1.70 with the rules compiled, 1.511 (over 1.5) with 4 bytes an entry.

import (
	"slices"
	"sort"
	"strings"
)

// A dirList holds the directories of a laid-out set (bigSet.dirs),
// sorted, 3 bytes each: the index of its index.htm rule (below maxLaid),
// low byte first, then the rule's priority less the length of the
// directory, escaped (below 256: htmDir).
type dirList struct {
	b []byte
}

func (l *dirList) len() int { return len(l.b) / 3 }

// at returns the index.htm rule, among rules, and length of directory k.
func (l *dirList) at(rules []rule, k int) (rule, int) {
	e := l.b[3*k : 3*k+3]
	r := rules[int(e[0])|int(e[1])<<8]
	return r, r.priority() - int(e[2])
}

// fileDirs files in b.dirs the directories that the index.htm allow rules
// of rules, laid out, also allow, if compile left their rules out.
func (s *ruleSet) fileDirs(b *bigSet, rules []rule) {
	if !s.big.omitted() {
		return
	}
	type dir struct {
		s string
		k int
	}
	dirs := make([]dir, 0, len(rules)) // allocated once
	for k, r := range rules {
		if !r.allow() {
			continue
		}
		if p := s.escaped(r, r.priority()); htmDir(p, false) > 0 {
			dirs = append(dirs, dir{p[:htmDir(p, false)], k})
		}
	}
	slices.SortFunc(dirs, func(a, b dir) int { return strings.Compare(a.s, b.s) })
	b.dirs.b = make([]byte, 0, 3*len(dirs))
	for _, d := range dirs {
		b.dirs.b = append(b.dirs.b, byte(d.k), byte(d.k>>8), byte(rules[d.k].priority()-len(d.s)))
	}
}

// matchDirs updates m with the rule of a directory of b.dirs that is path:
// "/d/" for "Allow: /d/index.html", as if "Allow: /d/$" were written on
// its line.
func (b *bigSet) matchDirs(s *ruleSet, rules []rule, path string, m *match) {
	rank := uint32(len(path)+1)<<1 | 1
	if rank < m.rank || rank == m.rank && !m.quote {
		return
	}
	k := sort.Search(b.dirs.len(), func(k int) bool { return b.compareDir(s, rules, k, path) >= 0 })
	for ; k < b.dirs.len() && b.compareDir(s, rules, k, path) == 0; k++ {
		of, _ := b.dirs.at(rules, k)
		r := newRule(path, len(path)+1, true, true, of.off()) | of&ruleRaw
		if m.beatenBy(r) {
			m.take(r)
		}
	}
}

// Folded directories: in a large set, compile leaves out the directory
// rule "Allow: *x/$" that "Allow: *x/index.htm" implies (indexHTM,
// leaveOut, dirsFolded) when the latter is not raw; a question that tries
// the index.htm rule and misses tries the directory rule too (tryFolded).
// It ranks below its index.htm rule and a layout files it by its directory
// (fileFloating), so a question that passes over one rightly passes over both.
// Buys (TestKeptPerByteShapes): index-htm-wildcard-dir keeps 1.35 at 4 KiB
// and 1.15 at 500 KiB rather than 1.79 and 1.53, over the bound of 1.5.

// foldedDir returns the length of the directory whose rule r stands for,
// or 0.
func (s *ruleSet) foldedDir(r rule) int {
	if s.big == nil || !s.big.folded() || !r.allow() || r&ruleRaw != 0 || r.shape() < shapeWildcard {
		return 0
	}
	return htmDir(r.written(s.src.text), true)
}

// tryFolded updates m with the directory rule that r stands for, if it
// matches path and beats m.
func (s *ruleSet) tryFolded(r rule, path string, m *match) {
	j := s.foldedDir(r)
	if j == 0 || !strings.HasSuffix(path, "/") {
		return
	}
	// Anchored: the path ends with the directory's last segment.
	dir := r.written(s.src.text)[:j]
	if !strings.HasSuffix(path, dir[strings.LastIndexByte(dir, '*')+1:]) {
		return
	}
	s.tryRule(newRule(dir, j+1, true, true, r.off()), path, m)
}

// compareDir compares directory k of b.dirs with path as strings.Compare
// does, escaping it as it goes if its rule is raw.
func (b *bigSet) compareDir(s *ruleSet, rules []rule, k int, path string) int {
	r, n := b.dirs.at(rules, k)
	if r&ruleRaw != 0 {
		c, _ := compareToEscaped(s.src.text[r.off():], r.priority(), n, path)
		return c
	}
	switch dir := s.src.text[r.off() : r.off()+uint32(n)]; { // not strings.Compare: path would escape
	case dir < path:
		return -1
	case dir == path:
		return 0
	}
	return 1
}
