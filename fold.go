package robots

// Folded directories: the directory rule an index.htm allow rule implies
// (indexHTM), when the directory holds a "*", kept in the index.htm rule
// itself rather than compiled as a rule of its own.
//
// "Allow: *x/index.htm" implies "Allow: *x/$" on its line. In a large set,
// compile leaves out that second rule (foldDirs) when the index.htm rule
// is not raw; the index.htm rule then stands for both. Wherever a question
// tries it and it does not match, the question tries its directory rule
// too (tryFolded), made as compile would have made it: the same rule, of
// the same rank and line, so that Decide quotes what it quoted before.
// The directory rule ranks below the index.htm rule (its pattern is
// shorter by "index.htm" less the "$"), and it matches only paths that
// the index.htm rule's anchor and tag (markRare) allow, since a layout files
// the index.htm rule by the directory's part of its pattern
// (floatTail); so that a question that passes over the index.htm rule,
// as out-ranked or as lacking its anchor, rightly passes over its
// directory too. A directory with no "*" is filed otherwise (omitDirs).
//
// What it buys, in bytes kept per input byte, warm (TestKeptPerByteShapes):
// index-htm-wildcard-dir keeps 1.35 at 4 KiB and 1.15 at 500 KiB, rather
// than 1.79 and 1.53 with the directory rules compiled, over the bound of
// 1.5.

import "strings"

// wildDir returns the length of the directory that p, the pattern of an
// allow rule as written, also allows (indexHTM) if it holds a "*", or else
// 0: the directories that foldDirs folds.
func wildDir(p string) int {
	j := indexHTM(p, true)
	if j < 0 || strings.IndexByte(p[:j+1], '*') < 0 {
		return 0
	}
	return j + 1
}

// foldDirs returns order, the keys of the rules of a set being compiled
// (compile), without the directory rules of its index.htm allow rules
// whose directories hold a "*" and which are not raw, if the set is large
// without them: their index.htm rules stand for them (tryFolded), in no
// byte more, rather than in a wildcard rule of their own (8 bytes, and 2
// to 4 of its layout): see the figures above.
func foldDirs(order []uint64, text string, at, lens []uint32) []uint64 {
	isDir := func(o uint64) bool {
		i := keyIndex(o)
		return o&1 == 1 && o&keyRaw == 0 && wildDir(text[at[i]:at[i]+lens[i]]) > 0
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
	out := order[:0]
	for _, o := range order {
		if !isDir(o) {
			out = append(out, o)
		}
	}
	return out
}

// foldedDir returns the length of the directory whose rule r, a rule of
// s, stands for (foldDirs), or 0 if it stands for none.
func (s *ruleSet) foldedDir(r rule) int {
	if s.big == nil || !s.big.folded() || !r.allow() || r&ruleRaw != 0 || r.shape() < shapeWildcard {
		return 0
	}
	return wildDir(r.written(s.file.text))
}

// tryFolded updates m with the directory rule that r, a rule of s, stands
// for (foldDirs), if it stands for one that matches path and beats m. The
// directory rule is anchored at a "/": it matches only a path that ends
// with one, and with the directory's last segment.
func (s *ruleSet) tryFolded(r rule, path string, m *match) {
	if path == "" || path[len(path)-1] != '/' {
		return
	}
	j := s.foldedDir(r)
	if j == 0 {
		return
	}
	// The directory is anchored: the path ends with its last segment,
	// which a question checks before matching it in full.
	dir := r.written(s.file.text)[:j]
	if !strings.HasSuffix(path, dir[strings.LastIndexByte(dir, '*')+1:]) {
		return
	}
	s.tryRule(newRule(dir, j+1, true, true, r.off()), path, m)
}

// floatTail returns the part of p, the pattern of r (ruleSet.pattern), after
// its head by which a layout files r among the wildcard rules (fileFloating):
// up to the end of the directory it stands for, if it stands for one
// (foldDirs), so that r is found wherever its directory rule may match.
func (s *ruleSet) floatTail(r rule, p string) string {
	if j := s.foldedDir(r); j > 0 {
		return p[r.headLen():j]
	}
	return p[r.headLen():]
}
