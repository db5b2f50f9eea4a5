package robots

// The line scanner: a body cut into its physical lines (LF, CR or CRLF; a
// body that ends with a break has an empty last line), and each line into
// the part the grammar reads: at most maxLineLen bytes, up to the first NUL
// or '#'.
//
// Each byte is read once: up to a line's first LF, CR, NUL or '#', eight
// bytes at a time (nextStop), then, if that ends its content only, on to
// its break (lineEnd), so that the scan is linear in the body whatever its
// lines. What the eight bytes at a time buy: Parse + first question 12-19%
// (19.10 vs 22.78 and 19.62 vs 21.97 cpu-ms a corpus pass against a byte
// loop, BenchmarkParseCorpus/op=parse+query, paired binaries, 6 rounds).

import (
	"math/bits"
	"strings"
)

// A lineScanner cuts a body into its lines.
type lineScanner struct {
	s string
	// off is where the next line starts, len(s)+1 after the last line.
	off int
	// The current line, numbered n from 1, is s[start:end], its content
	// s[start:cut]. (Offsets, not strings: writing a string costs a write
	// barrier while the collector runs.)
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
	cut := nextStop(s[:min(len(s), start+maxLineLen)], start)
	end := breakAt(s, cut)
	ls.n++
	ls.start, ls.end, ls.cut = start, end, cut
	ls.off = pastBreak(s, end)
	return true
}

// breakAt returns the offset of the break of the line whose content stops
// at stop: stop if it is LF or CR, else the next LF or CR, or len(s).
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

// ones has 1 in each byte of a word; stopLow has bit c set for each stop
// byte c below 0x0E.
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
			if b := bits.TrailingZeros64(m); isStop(byte(w >> (uint(b-7) & 63))) {
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

// stops returns the high bits of the bytes of w (little-endian) below 0x0E
// or equal to '#', and of some after the first, which a borrow reaches and
// the caller checks (isStop).
func stops(w uint64) uint64 {
	x := w ^ '#'*ones
	return ((w-0x0E*ones)&^w | (x-ones)&^x) & highBits
}

// isStop reports whether c ends a line (LF, CR) or its content (NUL, '#').
func isStop(c byte) bool { return c == '#' || c < 0x0E && stopLow>>c&1 != 0 }

// lineEnd returns the offset of the first LF or CR of s at or after i, or
// len(s) if there is none. It searches spans that start at 64 bytes and
// double: searching all of s for an LF at each line of a body of CR breaks
// would be quadratic, and a long line is read at the speed of
// strings.IndexByte.
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

// skipBOM drops a UTF-8 byte order mark at the start of s, or the part of
// it there is, as the reference does with files cut or mangled after it.
func skipBOM(s string) string {
	i := 0
	for i < len(utf8BOM) && i < len(s) && s[i] == utf8BOM[i] {
		i++
	}
	return s[i:]
}
