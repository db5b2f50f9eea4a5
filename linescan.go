package robots

// The line scanner: a body cut into its physical lines, and each line into
// the part the grammar reads.

import (
	"math/bits"
	"strings"
)

// A lineScanner cuts a body into its physical lines, and each line into the
// part the grammar reads (see splitDirective). Line breaks are LF, CR and
// CRLF; a body that ends with a break has an empty last line.
//
// Each line is read once, eight bytes at a time (nextStop): up to its first
// LF, CR, NUL or '#', and, if that ends its content only (NUL, '#'), on to
// its break (lineEnd). No byte is read by both, so the scan is linear in
// the body whatever its lines look like.
type lineScanner struct {
	s string
	// off is where the next line starts, len(s)+1 after the last line.
	off int
	// n is the 1-based number of the current line. The line is
	// s[start:end]; its content, the part the grammar reads, is s[start:cut]:
	// at most maxLineLen bytes, up to the first NUL and the first '#'.
	// (Offsets rather than strings: writing a string costs a write barrier
	// while the garbage collector runs.)
	n, start, end, cut int
}

// text returns the current line.
func (ls *lineScanner) text() string { return ls.s[ls.start:ls.end] }

// content returns the part of the current line that the grammar reads.
func (ls *lineScanner) content() string { return ls.s[ls.start:ls.cut] }

// newLineScanner returns a scanner of the lines of s.
func newLineScanner(s string) lineScanner { return lineScanner{s: s} }

// next moves to the next line, and reports whether there is one.
func (ls *lineScanner) next() bool {
	s, start := ls.s, ls.off
	if start > len(s) {
		return false
	}
	// The reference reads lines as C strings into a buffer of maxLineLen
	// bytes, and a comment runs to the end of the line.
	cut := nextStop(s[:min(len(s), start+maxLineLen)], start)
	end := breakAt(s, cut)
	ls.n++
	ls.start, ls.end, ls.cut = start, end, cut
	ls.off = pastBreak(s, end)
	return true
}

// breakAt returns the offset of the break of the line whose content stops
// at stop: stop if s[stop] is LF or CR, else the first LF or CR after it,
// or len(s).
func breakAt(s string, stop int) int {
	if stop < len(s) && s[stop] != '\n' && s[stop] != '\r' {
		return lineEnd(s, stop+1)
	}
	return stop
}

// pastBreak returns where the line after the break at end starts: CRLF is
// one break.
func pastBreak(s string, end int) int {
	if end+1 < len(s) && s[end] == '\r' && s[end+1] == '\n' {
		return end + 2
	}
	return end + 1
}

// Bytes as a word: ones has 1 in each byte, highBits (escape.go) the high
// bit of each; stopLow has bit c set for each stop byte c below 0x0E.
const (
	ones    = 0x0101010101010101
	stopLow = 1<<0 | 1<<'\n' | 1<<'\r'
)

// nextStop returns the offset of the first LF, CR, NUL or '#' of s at or
// after i, or len(s) if there is none.
func nextStop(s string, i int) int {
	t, k := s[i:], 0
	for ; k < len(t)-7; k += 8 {
		w := load64(t[k : k+8])
		for m := stops(w); m != 0; m &= m - 1 {
			if b := bits.TrailingZeros64(m); isStop(byteAt(w, b)) {
				return i + k + b>>3
			}
		}
	}
	for ; k < len(t); k++ {
		if isStop(t[k]) {
			return i + k
		}
	}
	return len(s)
}

// stops returns the high bits of the bytes of w, eight bytes of a body read
// as a little-endian word, that may end a line or its content: those of the
// bytes below 0x0E and of '#', and of some after the first, which the
// caller passes over as it does tabs (isStop). (w-0x0E*ones)&^w has the
// high bit of each byte below 0x0E set, and of a byte that a borrow from
// one reaches; x=w^'#'*ones is zero where w has '#'.
func stops(w uint64) uint64 {
	x := w ^ '#'*ones
	return ((w-0x0E*ones)&^w | (x-ones)&^x) & highBits
}

// byteAt returns the byte of w whose high bit is bit b, as stops reports
// it: read from the word rather than the body.
func byteAt(w uint64, b int) byte { return byte(w >> (uint(b-7) & 63)) }

// isStop reports whether c ends a line (LF, CR) or its content (NUL, '#').
func isStop(c byte) bool { return c == '#' || c < 0x0E && stopLow>>c&1 != 0 }

// lineEnd returns the offset of the first LF or CR of s at or after i, or
// len(s) if there is none.
//
// It looks for each in a span of s that starts short and doubles, not in
// all of s at once: a body of short lines and CR breaks has no LF to find,
// and searching all of it for one at every line would be quadratic. Past
// the break, no more is read than the line so far, so that the scan is
// linear; a long line is read at the speed of strings.IndexByte (a hostile
// file of one line of MaxSize bytes).
func lineEnd(s string, i int) int {
	for n := 64; i < len(s); n *= 2 {
		t := s[i:min(len(s), i+n)]
		e := len(t)
		if j := strings.IndexByte(t, '\n'); j >= 0 {
			e = j
		}
		if j := strings.IndexByte(t[:e], '\r'); j >= 0 {
			e = j
		}
		if e < len(t) {
			return i + e
		}
		i += len(t)
	}
	return len(s)
}

// skipBOM drops a UTF-8 byte order mark at the start of s, or the part of it
// that is there: each leading byte that continues the sequence EF BB BF is
// dropped, and the first that does not is kept. This is how Google's
// reference parser treats files that were cut or mangled after the BOM.
func skipBOM(s string) string {
	i := 0
	for i < len(utf8BOM) && i < len(s) && s[i] == utf8BOM[i] {
		i++
	}
	return s[i:]
}
