package robots

// Rule lines read in one pass: most lines of real files are allow and
// disallow lines written "Disallow: /path", and Parse reads such a line's
// key, cuts its value and keeps it as it scans for the line's end.

import (
	"encoding/binary"
	"math/bits"
)

// keepRuleLine reads the line at ls.off if it is a rule line whose key, as
// commonKey knows it, starts it, in a record, with content of at most
// maxLineLen bytes: it keeps the rule as handle would, moves ls past the
// line, and reports true. Otherwise it reports false and leaves ls and p
// as they were, for ls.next and handle.
//
// The value is copied to the kept text eight bytes at a time as the scan
// for its end (nextStop) reads them: past the value, the bytes written are
// left beyond the kept text's length, where the next value is written over
// them. There is room for them: the kept text is at most the bytes of the
// lines before (p.keep), so it ends before this line starts, and its
// capacity is the body's length (parse).
func (p *parser) keepRuleLine(ls *lineScanner) bool {
	s, start := ls.s, ls.off
	if len(p.starts) == 0 || start+8 > len(s) {
		return false
	}
	kind, n := commonKey(s[start:])
	if kind != kindAllow && kind != kindDisallow {
		return false
	}
	v := start + n + 1 // past the colon
	for v < len(s) && isBlank(s[v]) {
		v++
	}
	off := len(p.text)
	cut, ok := copyToStop(p.text[:cap(p.text)], off, s, v)
	if !ok || cut-start > maxLineLen {
		return false
	}
	end := cut
	if end < len(s) && s[end] != '\n' && s[end] != '\r' {
		end = lineEnd(s, end+1)
	}
	vend := cut
	for vend > v && isSpace(s[vend-1]) {
		vend--
	}
	ls.n++
	ls.start, ls.end, ls.cut = start, end, cut
	ls.off = end + 1
	if end+1 < len(s) && s[end] == '\r' && s[end+1] == '\n' {
		ls.off++ // CRLF is one break
	}
	size := vend - v
	p.text = p.text[:off+size]
	p.ruled = true
	rl := newSrcLine(off, size, ls.n, kind == kindAllow)
	p.rs.addRule(rl)
	if p.lines.addNext(kind, uint32(ls.n), uint32(size), uint32(off+size)) {
		p.counts[kind]++
	} else {
		p.add(kind, rl, 0)
	}
	return true
}

// isBlank reports whether c is whitespace that does not end a line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

// copyToStop copies s from i on to dst from off on, up to the first LF,
// CR, NUL or '#' at least, and returns the offset in s of that byte, or
// len(s), as nextStop does. It reports false, having copied nothing that
// dst[:off] holds, if dst has no room for what it would write.
func copyToStop(dst []byte, off int, s string, i int) (int, bool) {
	if len(dst)-off < len(s)-i {
		return 0, false
	}
	for ; i+8 <= len(s); i, off = i+8, off+8 {
		w := load64(s[i : i+8])
		binary.LittleEndian.PutUint64(dst[off:off+8], w)
		for m := stops(w); m != 0; m &= m - 1 {
			if j := i + bits.TrailingZeros64(m)>>3; isStop(s[j]) {
				return j, true
			}
		}
	}
	for ; i < len(s); i, off = i+1, off+1 {
		if isStop(s[i]) {
			return i, true
		}
		dst[off] = s[i]
	}
	return len(s), true
}
