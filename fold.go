package robots

// Folded directories: "Allow: *x/index.htm" implies "Allow: *x/$" on its
// line (indexHTM); in a large set whose index.htm rule is not raw, compile
// leaves that directory rule out (leaveOut, dirsFolded), and wherever a
// question tries the index.htm rule and it does not match, it tries the
// directory rule too (tryFolded), made as compile would have made it. The
// directory rule ranks below its index.htm rule and matches only paths its
// anchor and rare byte allow (a layout files it by the directory's part of
// its pattern, floatTail), so a question that passes over one rightly
// passes over both. Buys (TestKeptPerByteShapes): index-htm-wildcard-dir
// keeps 1.35 at 4 KiB and 1.15 at 500 KiB rather than 1.79 and 1.53, over
// the bound of 1.5.

import "strings"

// wildDir returns the length of the directory that p, the pattern of an
// allow rule as written, also allows (indexHTM) if it holds a "*", or 0.
func wildDir(p string) int {
	j := indexHTM(p, true)
	if j < 0 || strings.IndexByte(p[:j+1], '*') < 0 {
		return 0
	}
	return j + 1
}

// foldedDir returns the length of the directory whose rule r stands for,
// or 0.
func (s *ruleSet) foldedDir(r rule) int {
	if s.big == nil || !s.big.folded() || !r.allow() || r&ruleRaw != 0 || r.shape() < shapeWildcard {
		return 0
	}
	return wildDir(r.written(s.file.text))
}

// tryFolded updates m with the directory rule that r stands for, if it
// matches path and beats m.
func (s *ruleSet) tryFolded(r rule, path string, m *match) {
	if path == "" || path[len(path)-1] != '/' {
		return
	}
	j := s.foldedDir(r)
	if j == 0 {
		return
	}
	// Anchored: the path ends with the directory's last segment.
	dir := r.written(s.file.text)[:j]
	if !strings.HasSuffix(path, dir[strings.LastIndexByte(dir, '*')+1:]) {
		return
	}
	s.tryRule(newRule(dir, j+1, true, true, r.off()), path, m)
}

// floatTail returns the part of p, the pattern of r, after its head by
// which a layout files r: up to the end of its folded directory, if any.
func (s *ruleSet) floatTail(r rule, p string) string {
	if j := s.foldedDir(r); j > 0 {
		return p[r.headLen():j]
	}
	return p[r.headLen():]
}
