package robots

// Raw rules: patterns that escaping (appendEscaped) changes, kept as
// written and escaped as they are matched (escape.go); a set without raw
// rules runs none of this. Buys: utf8-long keeps 1.00 bytes a byte at
// 500 KiB (TestKeptPerByte) rather than about 4 with escaped copies.

import "strings"

// written returns the pattern of r as written in text, as far as its
// priority goes: all of it, or, for a derived index.htm rule
// (ruleSet.derived), its directory and one byte more.
func (r rule) written(text string) string {
	off, n := r.off(), r.priority()
	if r&ruleRaw != 0 {
		n = writtenLen(text[off:], n, n)
	}
	return text[off : off+uint32(n)]
}

// escaped returns the first n bytes of the escaped pattern of the raw rule
// r, made anew; n is where a part of the pattern ends.
func (s *ruleSet) escaped(r rule, n int) string {
	v := s.file.text[r.off():]
	return string(appendEscaped(make([]byte, 0, n), v[:writtenLen(v, r.priority(), n)]))
}

// escapedAll returns the first n(r) bytes of the escaped pattern of each
// of rules, for a layout: those of raw rules made anew, in one string.
func (s *ruleSet) escapedAll(rules []rule, n func(r rule) int) []string {
	size := 0
	for _, r := range rules {
		if r&ruleRaw != 0 {
			size += n(r)
		}
	}
	buf := make([]byte, 0, size) // never grown: each part takes n(r) bytes
	for _, r := range rules {
		if r&ruleRaw != 0 {
			v := s.file.text[r.off():]
			buf = appendEscaped(buf, v[:writtenLen(v, r.priority(), n(r))])
		}
	}
	escaped, at := string(buf), 0
	out := make([]string, len(rules))
	for i, r := range rules {
		k := n(r)
		if r&ruleRaw == 0 {
			out[i] = s.file.text[r.off() : r.off()+uint32(k)]
			continue
		}
		out[i], at = escaped[at:at+k], at+k
	}
	return out
}

// matchesRaw reports whether r, a raw rule, matches path.
func (s *ruleSet) matchesRaw(r rule, path string, m *match) bool {
	return hasEscapedPrefix(path, s.file.text[r.off():], r.priority(), r.headLen()) &&
		s.matchesAfterHead(r, path, m)
}

// matchesTailRaw is matchesTail for a raw rule, escaped as it goes.
func (s *ruleSet) matchesTailRaw(r rule, path string) bool {
	w, h := s.writtenParts(r)
	return matchWildcardEscaped(path[r.headLen():], w[h:], r.shape() == shapeAnchored)
}

// writtenParts returns the part of the pattern of the raw wildcard rule r
// that is matched (pattern), as written, and the length of its head there.
func (s *ruleSet) writtenParts(r rule) (string, int) {
	w := r.written(s.file.text)
	if r.shape() == shapeAnchored {
		w = w[:len(w)-1] // its "$", written or implied (derived)
	} else if c := w[len(w)-1]; c == '*' || c == '$' {
		w = strings.TrimRight(strings.TrimSuffix(w, "$"), "*")
	}
	return w, writtenLen(w, noLimit, r.headLen())
}

// matchWildcardEscaped is matchWildcard for a pattern as written, escaped
// as it goes: each segment between "*"s escapes to that segment of the
// escaped pattern.
func matchWildcardEscaped(path, pattern string, anchored bool) bool {
	for {
		pattern = strings.TrimLeft(pattern, "*")
		i := strings.IndexByte(pattern, '*')
		if i < 0 {
			if anchored {
				return hasEscapedSuffix(path, pattern)
			}
			return indexEscaped(path, pattern) >= 0
		}
		seg := pattern[:i]
		j := indexEscaped(path, seg)
		if j < 0 {
			return false
		}
		path = path[j+escapedLen(seg):]
		pattern = pattern[i:]
	}
}

// compareDir compares the directory d of b.dirs with path, as
// strings.Compare does (through which path would escape to the heap),
// escaping it as it goes if its rule is raw.
func (b *bigSet) compareDir(s *ruleSet, rules []rule, d uint32, path string) int {
	r := rules[d>>16]
	if r&ruleRaw != 0 {
		c, _ := compareToEscaped(s.file.text[r.off():], r.priority(), int(d&0xFFFF), path)
		return c
	}
	switch dir := s.dir(rules, d); {
	case dir < path:
		return -1
	case dir == path:
		return 0
	}
	return 1
}

// searchHeadsRaw is the search of matchHeaded in a set with raw rules:
// the last of rules whose head, escaped as it goes, is at most path, or
// -1, and the length of the common prefix of that head and path. (A
// pattern that is not raw escapes to itself.)
func (s *ruleSet) searchHeadsRaw(rules []rule, path string) (int32, int) {
	compare := func(r rule) (int, int) {
		return compareToEscaped(s.file.text[r.off():], r.priority(), r.headLen(), path)
	}
	lo, hi := 0, len(rules)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if c, _ := compare(rules[mid]); c <= 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo == 0 {
		return -1, 0
	}
	_, common := compare(rules[lo-1])
	return int32(lo - 1), common
}

// segmentAtRaw is segmentAt for a raw rule, whose segment seg is as
// written: escaped as it goes.
func (s *ruleSet) segmentAtRaw(r rule, seg, path string, i, n int) bool {
	k := indexInEscaped(seg, path[i:i+n])
	p, m := i-k, escapedLen(seg)
	if k < 0 || p < r.headLen() || p+m > len(path) || !equalEscaped(path[p:p+m], seg) {
		return false
	}
	return hasEscapedPrefix(path, s.file.text[r.off():], r.priority(), r.headLen())
}
