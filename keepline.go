package robots

// Lines read in one pass: most lines of real files are written with one of
// the common keys right at their start ("Disallow: /path", "User-agent:
// x", "Sitemap: url"), and Parse reads such a line's key, cuts its value
// and keeps it as it scans for the line's end.

import (
	"encoding/binary"
	"math/bits"
)

// keepLine reads the line at ls.off if it is blank or a comment alone, or
// starts with a key commonKey knows and its content has at most maxLineLen
// bytes: it does with it what handle would, moves ls past it and reports
// true. Otherwise it reports false and leaves ls and p as they were (but
// the bytes past the kept text's length), for ls.next and handle.
//
// The value is copied to the kept text eight bytes at a time as the scan
// for its end (copyToStop) reads them: past the value, and for a value
// not kept, the bytes written are left beyond the kept text's length,
// where the next value is written over them. There is room for them: the
// kept text is at most the bytes of the lines before (p.keep), so it ends
// before this line starts, and its capacity is the body's length (parse).
func (p *parser) keepLine(ls *lineScanner) bool {
	s, start := ls.s, ls.off
	if start < len(s) && isStop(s[start]) {
		// A blank line, or a comment alone: nothing to read.
		ls.cutAt(start, start, start)
		return true
	}
	if start+8 > len(s) {
		return false
	}
	kind, n := commonKey(s[start:])
	if n == 0 {
		return false
	}
	// The content is at most maxLineLen bytes: a longer line is left to
	// ls.next without reading all of it.
	line := s[:min(len(s), start+maxLineLen+1)]
	v := start + n + 1 // past the colon
	for v < len(line) && isBlank(line[v]) {
		v++
	}
	off := len(p.text)
	cut, ok := copyToStop(p.text[:cap(p.text)], off, line, v)
	if !ok || cut-start > maxLineLen {
		return false
	}
	ls.cutAt(start, cut, cut)
	vend := cut
	for vend > v && isSpace(s[vend-1]) {
		vend--
	}
	switch size := vend - v; kind {
	case kindAllow, kindDisallow:
		// A rule before any user-agent line applies to nobody.
		if len(p.starts) > 0 {
			p.keptRule(kind, off, size, ls.n)
		}
	case kindUserAgent:
		p.userAgent(s[v:vend], ls.n, true)
	case kindSitemap:
		if size > 0 {
			p.text = p.text[:off+size]
			p.add(kindSitemap, newSrcLine(off, size, ls.n, false), 0)
		}
	}
	return true
}

// keptRule adds the rule line of kind kind numbered n whose value, of size
// bytes, is written at off, the end of the kept text.
func (p *parser) keptRule(kind lineKind, off, size, n int) {
	p.text = p.text[:off+size]
	p.ruled = true
	if size > 0 && mayDecide(p.text[off]) {
		p.mayMatch = true
	}
	if p.lines.addNext(kind, uint32(n), uint32(size), uint32(off+size)) {
		p.counts[kind]++
	} else {
		p.add(kind, newSrcLine(off, size, n, kind == kindAllow), 0)
	}
}

// isBlank reports whether c is whitespace that does not end a line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }

// copyToStop copies s from i on to dst from off on, up to the first LF,
// CR, NUL or '#' at least, and returns the offset in s of that byte, or
// len(s), as nextStop does. It reports false, having copied nothing, if
// dst has no room for what it would write.
func copyToStop(dst []byte, off int, s string, i int) (int, bool) {
	src := s[i:]
	if len(dst)-off < len(src) {
		return 0, false
	}
	d := dst[off : off+len(src)] // as long as src: fewer bounds checks below
	k := 0
	for ; k < len(src)-7; k += 8 {
		w := load64(src[k : k+8])
		binary.LittleEndian.PutUint64(d[k:k+8], w)
		for m := stops(w); m != 0; m &= m - 1 {
			if b := bits.TrailingZeros64(m); isStop(byteAt(w, b)) {
				return i + k + b>>3, true
			}
		}
	}
	for ; k < len(src); k++ {
		c := src[k]
		if isStop(c) {
			return i + k, true
		}
		d[k] = c
	}
	return len(s), true
}
