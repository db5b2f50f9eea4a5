// Package lines is the lexical layer of a robots.txt file, below the
// parser (package robots) and the linter (package lint), which both read
// through it: a body cut into lines and directives (scan.go), the
// character classes of the grammar, the token of a user-agent line
// (agent.go), and the line table a parsed file keeps of its lines
// (table.go, written; reader.go, read).
package lines

import "strings"

// The line scanner: a body cut into its lines (a body that ends with a
// break has an empty last line), and each line into the part the grammar
// reads. Each byte is read once, eight at a time up to a line's first stop
// (nextStop), faster than a byte loop (BenchmarkParseCorpus/op=parse+query;
// bench/RESULTS.md, "What each mechanism buys").

import "math/bits"

// A Scanner cuts a body into its lines.
type Scanner struct {
	s   string
	off int // where the next line starts, len(s)+1 after the last line
	// The current line, numbered n from 1, is s[start:end], the part the
	// grammar reads s[start:cut] (offsets, not strings: writing a string
	// costs a write barrier while the collector runs).
	n, start, end, cut int
}

func (ls *Scanner) Text() string    { return ls.s[ls.start:ls.end] }
func (ls *Scanner) Content() string { return ls.s[ls.start:ls.cut] }

func NewScanner(s string) Scanner { return Scanner{s: s} }

// Num returns the number of the current line, from 1.
func (ls *Scanner) Num() int { return ls.n }

// Blank reports whether the current line is blank or a comment alone.
func (ls *Scanner) Blank() bool { return ls.cut == ls.start }

// Next moves to the next line, and reports whether there is one.
func (ls *Scanner) Next() bool {
	s, start := ls.s, ls.off
	if start > len(s) {
		return false
	}
	cut := nextStop(s[:min(len(s), start+MaxLineLen)], start)
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

const (
	ones    = 0x0101010101010101       // 1 in each byte of a word
	stopLow = 1<<0 | 1<<'\n' | 1<<'\r' // bit c for each stop byte c below 0x0E
)

// nextStop returns the offset of the first LF, CR, NUL or '#' of s at or
// after i, or len(s) if there is none.
func nextStop(s string, i int) int {
	t, k := s[i:], 0
	for ; k < len(t)-7; k += 8 {
		w := Load64(t[k : k+8])
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
// len(s) if there is none.
func lineEnd(s string, i int) int {
	for i < len(s) && s[i] != '\n' && s[i] != '\r' {
		i++
	}
	return i
}

// SkipBOM drops a UTF-8 byte order mark at the start of s, or the part of
// it there is, as the reference does with files cut or mangled after it.
func SkipBOM(s string) string {
	i := 0
	for i < len(UTF8BOM) && i < len(s) && s[i] == UTF8BOM[i] {
		i++
	}
	return s[i:]
}

// SplitDirective splits the content of a line, cut at its first NUL or
// "#" and at MaxLineLen bytes, into its key and value, and says what kind
// of directive it is. The grammar, as Google's reference parser reads it:
//
//	line  = [ ws ] key [ ws ] sep [ ws ] value [ ws ] [ "#" comment ]
//	sep   = ":" | 1*( SP | HT )   ; whitespace only when the line has no ":"
//	ws    = 1*( SP | HT | LF | VT | FF | CR )
func SplitDirective(s string) (kind Kind, key, value string) {
	s = TrimSpace(s)
	if s == "" {
		return KindNone, "", "" // blank, or a comment alone
	}
	if kind, n := commonKey(s); n > 0 {
		return kind, s[:n], TrimSpace(s[n+1:])
	}
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return splitNoColon(s)
	}
	key = TrimSpace(s[:colon])
	if key == "" {
		return KindNone, "", ""
	}
	return KeyKind(key), key, TrimSpace(s[colon+1:])
}

// commonKey returns the kind and length of the common key ("Disallow:",
// "user-agent:", any case) that s starts with, before its colon, or a
// length of 0. Eight bytes compared as a word, faster than byte by byte
// (BenchmarkParseCorpus/op=parse+query; bench/RESULTS.md, "What each mechanism buys").
func commonKey(s string) (Kind, int) {
	if len(s) < 8 {
		return KindNone, 0
	}
	w := Load64(s)
	switch {
	case keyDisallow.in(w):
		if len(s) > 8 && s[8] == ':' {
			return KindDisallow, len("disallow")
		}
	case keyAllow.in(w):
		return KindAllow, len("allow")
	case keyUserAgent.in(w):
		// c|0x20 is 'n' for "n" and "N" only, as for any letter.
		if len(s) > 10 && s[8]|0x20 == 'n' && s[9]|0x20 == 't' && s[10] == ':' {
			return KindUserAgent, len("user-agent")
		}
	case keySitemap.in(w):
		return KindSitemap, len("sitemap")
	}
	return KindNone, 0
}

var (
	keyDisallow  = newKeyWord("disallow")
	keyAllow     = newKeyWord("allow:")
	keyUserAgent = newKeyWord("user-age")
	keySitemap   = newKeyWord("sitemap:")
)

// A keyWord is the start of a key, up to 8 bytes, as a little-endian word:
// its bytes, which bytes it has, and which are letters.
type keyWord struct{ want, mask, fold uint64 }

func newKeyWord(k string) keyWord {
	var kw keyWord
	for i := range len(k) {
		kw.want |= uint64(k[i]) << (8 * i)
		kw.mask |= 0xff << (8 * i)
		if 'a' <= k[i] && k[i] <= 'z' {
			kw.fold |= 0x20 << (8 * i)
		}
	}
	return kw
}

// in reports whether w, eight bytes as a little-endian word, starts with
// the key of kw in any case: setting bit 0x20 of a byte lower-cases a
// letter, and makes a lower-case letter of no other byte.
func (kw keyWord) in(w uint64) bool { return w&kw.mask|kw.fold == kw.want }

// splitNoColon splits a line s that has no colon ("Disallow /tmp"), with no
// whitespace around it: a space or tab separates the key and value only
// when the line is two runs of non-whitespace ("Disallow /a /b" is not).
func splitNoColon(s string) (kind Kind, key, value string) {
	sep := indexBlank(s)
	if sep < 0 || indexBlank(strings.TrimLeft(s[sep+1:], " \t")) >= 0 {
		return KindNone, "", ""
	}
	key = TrimSpace(s[:sep])
	return KeyKind(key), key, TrimSpace(s[sep+1:])
}

// indexBlank returns the index of the first space or tab of s, or -1: two
// IndexByte, not IndexAny, which reads a byte at a time (such lines are
// often long markup).
func indexBlank(s string) int {
	i, t := strings.IndexByte(s, ' '), s
	if i >= 0 {
		t = s[:i]
	}
	if j := strings.IndexByte(t, '\t'); j >= 0 {
		return j
	}
	return i
}

// The keys, as the reference matches them (case-insensitively, by
// prefix), with its misspellings; the first of each list is the key's name.
var (
	userAgentKeys = []string{"user-agent", "useragent", "user agent"}
	allowKeys     = []string{"allow"}
	disallowKeys  = []string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}
	sitemapKeys   = []string{"sitemap", "site-map"}
	Keys          = [...][]string{KindUserAgent: userAgentKeys, KindAllow: allowKeys, KindDisallow: disallowKeys, KindSitemap: sitemapKeys}
)

// KeyKind says which directive key names (each list starts with a letter
// of its own: at most one matches; testing it first makes KeyKind 2x faster).
func KeyKind(key string) Kind {
	for kind, keys := range Keys {
		if key == "" || len(keys) == 0 || Lower(key[0]) != keys[0][0] {
			continue
		}
		for _, k := range keys {
			if len(key) >= len(k) && EqualFold(key[:len(k)], k) {
				return Kind(kind)
			}
		}
	}
	return KindOther
}

const (
	// MaxLineLen is the bytes of a line that are kept: the reference reads
	// lines into 2083 × 8 bytes, of which the last holds the terminating
	// NUL and one more is lost to its end-of-buffer check.
	MaxLineLen = 2083*8 - 1
)

const UTF8BOM = "\xEF\xBB\xBF"

// highBits has the high bit of each byte of a word set.
const highBits = 0x8080808080808080

// Load64 returns the first eight bytes of s as a little-endian word.
func Load64(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// The character classes of the robots.txt grammar, as Google's reference
// parser reads bytes: ASCII only, C's isspace, case folded by ASCII rules.

// EqualFold reports whether s and t are equal under ASCII case folding.
// Unlike strings.EqualFold, it does not fold non-ASCII letters.
func EqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if Lower(s[i]) != Lower(t[i]) {
			return false
		}
	}
	return true
}

func Lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isSpace reports whether c is SP, HT, LF, VT, FF or CR, as C's isspace
// (a non-breaking space is data).
func isSpace(c byte) bool { return c == ' ' || '\t' <= c && c <= '\r' }

func TrimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

func IsTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

func LowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = Lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// Common moves past the next line if it is blank, a comment alone, or a
// common key's line (commonKey) of at most MaxLineLen bytes, and returns
// the key's kind (KindNone for the others) and the value; else it leaves
// the scanner before that line and reports !ok. A common line read as it
// is scanned for its end buys Parse + first question
// (BenchmarkParseCorpus/op=parse+query; bench/RESULTS.md, "What each mechanism buys").
func (ls *Scanner) Common() (kind Kind, value string, ok bool) {
	s, start := ls.s, ls.off
	if start >= len(s) {
		return KindNone, "", false
	}
	if isStop(s[start]) { // a blank line, or a comment alone
		ls.off = pastBreak(s, breakAt(s, start))
		ls.n++
		return KindNone, "", true
	}
	if start+8 > len(s) {
		return KindNone, "", false
	}
	kind, keyLen := commonKey(s[start:])
	if keyLen == 0 {
		return KindNone, "", false
	}
	// A longer line is left to Next without reading all of it.
	line := s[:min(len(s), start+MaxLineLen+1)]
	v := start + keyLen + 1 // past the colon
	for v < len(line) && isBlank(line[v]) {
		v++
	}
	cut := nextStop(line, v)
	if cut-start > MaxLineLen {
		return KindNone, "", false
	}
	ls.off = pastBreak(s, breakAt(s, cut))
	ls.n++
	vend := cut
	for vend > v && isSpace(s[vend-1]) {
		vend--
	}
	return kind, s[v:vend], true
}

// isBlank reports whether c is whitespace that does not end a line.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' }
