package robots

// Matching raw rules: rules whose pattern escaping (appendEscaped) changes,
// kept as written and escaped as they are matched, by the functions of
// escape.go, in the sets that hold them. A set without raw rules runs none
// of this.
//
// What it buys, in bytes kept per input byte: an escaped copy of each
// pattern would add its escaped length, three bytes for each byte
// outside ASCII, to what a file keeps: utf8-long keeps 1.00 bytes a byte
// at 500 KiB (TestKeptPerByte), and would keep about 4.

import "strings"

// written returns the pattern of r as written, in text, the kept text of
// its file, as far as its priority goes: all of it, or, for the rule an
// index.htm rule implies (ruleSet.derived), its directory and one byte
// more.
func (r rule) written(text string) string {
	off, n := r.off(), r.priority()
	if r&ruleRaw != 0 {
		n = writtenLen(text[off:], n, n)
	}
	return text[off : off+uint32(n)]
}

// escaped returns the first n bytes of the escaped pattern of the raw rule
// r, made anew; n is where a part of the pattern ends (escape.go).
func (s *ruleSet) escaped(r rule, n int) string {
	v := s.file.text[r.off():]
	return string(appendEscaped(make([]byte, 0, n), v[:writtenLen(v, r.priority(), n)]))
}

// escapedAll returns the first n(r) bytes of the escaped pattern of each
// of rules (head, pattern): those of raw rules made anew, in one string,
// for a layout.
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

// matchesTailRaw is matchesTail for a raw rule, on its pattern as written,
// escaped as it goes.
func (s *ruleSet) matchesTailRaw(r rule, path string) bool {
	w, h := s.writtenParts(r)
	return matchWildcardEscaped(path[r.headLen():], w[h:], r.shape() == shapeAnchored)
}

// writtenParts returns the part of the pattern of the raw wildcard rule r
// that is matched (pattern), as written, and the length of its head there.
func (s *ruleSet) writtenParts(r rule) (string, int) {
	w := r.written(s.file.text)
	if r.shape() == shapeAnchored {
		// Its "$", written, or implied by an index.htm rule, whose
		// priority counts one byte more than its directory.
		w = w[:len(w)-1]
	} else if c := w[len(w)-1]; c == '*' || c == '$' {
		w = strings.TrimRight(strings.TrimSuffix(w, "$"), "*")
	}
	return w, writtenLen(w, noLimit, r.headLen())
}

// matchWildcardEscaped is matchWildcard for a pattern as written, escaped
// as it goes: each segment lies between "*"s, so that it escapes to that
// segment of the escaped pattern.
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

// matchDirsRaw is matchDirs for a set with raw rules, whose directories
// are escaped as they are compared.
func (b *bigSet) matchDirsRaw(s *ruleSet, rules []rule, path string, m *match) {
	lo, hi := 0, b.dirs.len()
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if b.compareDirRaw(s, rules, b.dirs.at(rules, mid), path) < 0 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	b.takeDirs(s, rules, lo, path, m)
}

// isDir reports whether the directory d of b.dirs is path.
func (b *bigSet) isDir(s *ruleSet, rules []rule, d uint32, path string) bool {
	if b.raw {
		return b.compareDirRaw(s, rules, d, path) == 0
	}
	return s.dir(rules, d) == path
}

// compareDirRaw compares the directory d of b.dirs (ruleSet.dir) with
// path, as strings.Compare does, escaping it as it goes if its rule is
// raw; not by strings.Compare, through which path escapes to the heap.
func (b *bigSet) compareDirRaw(s *ruleSet, rules []rule, d uint32, path string) int {
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

// searchHeadsRaw returns the last of rules, the third run of a laid-out
// set with raw rules, whose head is at most path, or -1, and the length of
// the common prefix of that head and path: the search of matchHeaded, with
// heads escaped as they go (a head that escaping does not change, of a
// rule that is not raw, is one that it leaves as it is).
func (s *ruleSet) searchHeadsRaw(rules []rule, path string) (int32, int) {
	text := s.file.text
	compare := func(r rule) (int, int) {
		if r&ruleRaw == 0 {
			h := text[r.off() : r.off()+uint32(r.headLen())]
			switch {
			case h < path:
				return -1, 0
			case h == path:
				return 0, len(h)
			}
			return 1, 0
		}
		return compareToEscaped(text[r.off():], r.priority(), r.headLen(), path)
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
	r := rules[lo-1]
	if r&ruleRaw == 0 {
		return int32(lo - 1), commonPrefixLen(text[r.off():r.off()+uint32(r.headLen())], path)
	}
	_, common := compare(r)
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
