package robots

// Lines read in one pass: most lines of real files are written with one of
// the common keys right at their start ("Disallow: /path", "User-agent:
// x", "Sitemap: url"), and Parse reads such a line's key, cuts its value
// and keeps it as it scans for the line's end.
//
// What it buys: Parse + first question over the real-world corpus costs
// 17.75 ms of CPU a pass with this pass, 20.10 ms (+13%) when every line
// goes through lineScanner.next and handle (TestZZCPU of issue 23's
// measurements: getrusage, min of 7 passes, mean of 4 rounds alternating
// the binaries; BenchmarkParseCorpus op=parse+query).

import (
	"encoding/binary"
	"math/bits"
)

// scanCommon reads the lines from ls.off on, one after the other, while
// each is blank or a comment alone, or starts with a key commonKey knows
// and its content has at most maxLineLen bytes: it does with each what
// handle would. It stops at the first other line, or at the end of the
// body, and leaves ls there, for ls.next and handle; nothing of that line
// is kept (but the bytes past the kept text's length). The scanner's
// place is held in locals, not written to ls at every line.
//
// A value is copied to the kept text eight bytes at a time as the scan
// for its end (copyToStop) reads them: past the value, and for a value
// not kept, the bytes written are left beyond the kept text's length,
// where the next value is written over them. There is room for them: the
// kept text is at most the bytes of the lines before (p.addText), so it ends
// before this line starts, and its capacity is the body's length (parse).
func (p *parser) scanCommon(ls *lineScanner) {
	s, off, n := ls.s, ls.off, ls.n
	for off < len(s) {
		start := off
		if c := s[start]; isStop(c) {
			// A blank line, or a comment alone: nothing to read. (breakAt,
			// inline for a blank line.)
			end := start
			if c != '\n' && c != '\r' {
				end = lineEnd(s, start+1)
			}
			off = pastBreak(s, end)
			n++
			continue
		}
		if start+8 > len(s) {
			break
		}
		kind, keyLen := commonKey(s[start:])
		if keyLen == 0 {
			break
		}
		// The content is at most maxLineLen bytes: a longer line is left
		// to ls.next without reading all of it.
		line := s[:min(len(s), start+maxLineLen+1)]
		v := start + keyLen + 1 // past the colon
		for v < len(line) && isBlank(line[v]) {
			v++
		}
		at := len(p.text)
		cut, ok := copyToStop(p.text[:cap(p.text)], at, line, v)
		if !ok || cut-start > maxLineLen {
			break
		}
		// breakAt, inline for the most lines, which stop at their break.
		end := cut
		if end < len(s) && s[end] != '\n' && s[end] != '\r' {
			end = lineEnd(s, end+1)
		}
		off = pastBreak(s, end)
		n++
		vend := cut
		for vend > v && isSpace(s[vend-1]) {
			vend--
		}
		if kind == kindDisallow || kind == kindAllow {
			// A rule before any user-agent line applies to nobody.
			if len(p.starts) > 0 {
				p.commonRule(kind, at, vend-v, n)
			}
			continue
		}
		p.commonValue(kind, s[v:vend], at, n)
	}
	ls.off, ls.n = off, n
}

// commonValue does what handle does with the user-agent or sitemap line
// numbered n of kind kind and value v, which is written at at, the end of
// the kept text, and beyond.
func (p *parser) commonValue(kind lineKind, v string, at, n int) {
	switch size := len(v); kind {
	case kindUserAgent:
		p.userAgent(v, n, true)
	case kindSitemap:
		if size > 0 {
			p.text = p.text[:at+size]
			p.add(kindSitemap, newSrcLine(at, size, n, false), 0)
		}
	}
}

// commonRule adds the rule line of kind kind numbered n whose value, of size
// bytes, is written at off, the end of the kept text.
func (p *parser) commonRule(kind lineKind, off, size, n int) {
	p.text = p.text[:off+size]
	p.ruled = true
	if size > 0 && mayDecide(p.text[off]) {
		p.mayMatch = true
	}
	p.add(kind, newSrcLine(off, size, n, kind == kindAllow), 0)
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
