package robots

// When a large set is laid out: not on its first question, but once it
// has been asked enough to pay for it.
//
// Laying out a set of n rules (index.go) costs about as much as
// layoutQuestions questions that scan its n rules one by one. A set is
// asked by scanning until its scans have cost that much, and laid out on
// the question after: so that, whatever the number of questions, the
// total work is at most about twice the least of "always scan" and "lay
// out at once" (a ski rental). A crawler that asks a file one question
// after each fetch never pays for a layout; one that asks it many pays
// for it once, early, and then asks at the speed of the layout.

import (
	"sync/atomic"
)

// A lazyLayout is the layout of a set of more than smallSet rules once it
// is made (nil before), and what its questions have cost until then.
type lazyLayout struct {
	atomic.Pointer[bigSet]
	// scanned is the number of rules the questions of the set have
	// scanned, while it had no layout.
	scanned atomic.Int64
	// dirsOmitted reports that compile left out the rules of the
	// directories of the set's index.htm allow rules (omitDirs): its
	// layout files them (bigSet.dirs), and a scan finds them.
	dirsOmitted bool
}

// layoutQuestions is the number of questions that scan a set, all its
// rules, whose cost is about that of its layout. Over the 404 sets of more
// than smallSet rules that answer Googlebot in the real-world corpus, a
// layout costs 13 to 33 scans of "/some/page.html" (quartiles; median 18,
// 41 summed over the sets, the largest costing most): 3 to 8 ns a rule to
// scan, 50 to 200 to lay out.
const layoutQuestions = 24

// matchLarge updates m with the best rule of s, a set of more than
// smallSet rules, that matches path: from its layout, which it makes once
// the scans of s have cost about as much as making it, else by scanning
// its rules.
func (s *ruleSet) matchLarge(path string, m *match) {
	b := s.big.Load()
	if b == nil {
		if b = s.scanUnlaid(path, m); b == nil {
			return
		}
	}
	b.match(s, path, m)
}

// scanUnlaid updates m by scanning the rules of s, if s has no layout and
// its scans have not yet cost about as much as one. Otherwise it returns
// the layout of s, which it makes if need be, for the caller to match
// with. The layout rewrites the rules in place, under the lock of the
// file: a scan reads them under the same lock, shared.
func (s *ruleSet) scanUnlaid(path string, m *match) *bigSet {
	if s.big.scanned.Add(int64(s.n)) > layoutQuestions*int64(s.n) {
		return s.layOut()
	}
	f := s.file
	f.layMu.RLock()
	defer f.layMu.RUnlock()
	if b := s.big.Load(); b != nil {
		return b
	}
	s.scan(path, m)
	return nil
}

// scan updates m with the best rule of s that matches path, trying every
// rule of s, in any order, and the directories of its index.htm allow
// rules if compile left those out.
func (s *ruleSet) scan(path string, m *match) {
	for _, r := range s.rules() {
		if rk := r.rank(); rk <= m.rank && (rk < m.rank || !m.beatenBy(s, r)) {
			continue
		}
		if s.matches(r, path, m) {
			m.take(s, r)
		}
	}
	if s.big.dirsOmitted {
		s.scanDirs(path, m)
	}
}

// scanDirs updates m with the directory of an index.htm allow rule of s
// that is path, as bigSet.matchDirs does from a layout: "/d/" for
// "Allow: /d/index.html", as if "Allow: /d/$" were written on its line.
func (s *ruleSet) scanDirs(path string, m *match) {
	rank := uint32(len(path)+1)<<1 | 1
	if rank < m.rank || rank == m.rank && !m.quote || path == "" || path[len(path)-1] != '/' {
		return
	}
	text := s.file.text
	const file = len("index.htm")
	for _, r := range s.rules() {
		off := r.off()
		if !r.allow() || r.priority() < len(path)+file || text[off:off+uint32(len(path))] != path ||
			plainDir(s.text(r)) != len(path) {
			continue
		}
		d := newRule(path, len(path)+1, true, true, off)
		if m.beatenBy(s, d) {
			m.take(s, d)
		}
	}
}
