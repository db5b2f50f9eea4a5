package robots

import "strings"

// The escaping of patterns before they are matched.

// appendEscaped appends to b the value s of an allow or disallow line,
// normalised the way Google's reference parser does before matching: a
// "%" followed by two hex digits has the digits upper-cased ("%2f" becomes
// "%2F"), and every byte outside ASCII becomes a %XX triplet ("é" becomes
// "%C3%A9"). Nothing else changes: "%62" is not decoded and ASCII is never
// escaped.
func appendEscaped(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, '%', upper(s[i+1]), upper(s[i+2]))
			i += 2
		case c >= 0x80:
			b = append(b, '%', upperHex[c>>4], upperHex[c&0xF])
		default:
			b = append(b, c)
		}
	}
	return b
}

// escapeFree reports whether s holds no "%" and no byte outside ASCII, so
// that escaping leaves it unchanged (appendEscaped). It is the common
// case, checked fast: eight bytes at a time, in one pass.
func escapeFree(s string) bool {
	const (
		ones    = 0x0101010101010101
		highs   = 0x8080808080808080
		percent = '%' * ones
	)
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		// A byte of x is zero where s has a "%"; (x-ones)&^x has the high
		// bit of the first such byte set (of ASCII bytes only: bytes
		// outside ASCII are caught by w&highs).
		x := w ^ percent
		if (w|(x-ones)&^x)&highs != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '%' || s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// escapedLen returns the length of s escaped (appendEscaped), without
// building it.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n += 2
		}
	}
	return n
}

// unescapePattern undoes what escaping (appendEscaped) does to bytes
// outside ASCII:
// each "%XX" whose hex digits, upper-case, are 80 to FF becomes that byte.
// It gives back what was written only for patterns that held no such
// triplet and no lower-case hex digit after a "%" (keepRule checks).
func unescapePattern(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c, n := unescapeAt(s, i)
		b = append(b, c)
		i += n
	}
	return string(b)
}

// unescapeAt returns the byte that unescapePattern makes of s from i on,
// and how many more bytes of s it takes: 2 for a "%XX" triplet of 80 to
// FF, upper-case, else 0.
func unescapeAt[S string | []byte](s S, i int) (byte, int) {
	if c := s[i]; c != '%' || i+2 >= len(s) || s[i+1] < '8' || !isUpperHex(s[i+1]) || !isUpperHex(s[i+2]) {
		return c, 0
	}
	return fromHex(s[i+1])<<4 | fromHex(s[i+2]), 2
}

// unescapesTo reports whether unescapePattern(e) == v, without building it.
func unescapesTo(e []byte, v string) bool {
	j := 0
	for i := 0; i < len(e); i++ {
		c, n := unescapeAt(e, i)
		i += n
		if j == len(v) || v[j] != c {
			return false
		}
		j++
	}
	return j == len(v)
}

// isUpperHex reports whether c is a hex digit, with letters upper-case.
func isUpperHex(c byte) bool { return '0' <= c && c <= '9' || 'A' <= c && c <= 'F' }

// fromHex returns the value of the upper-case hex digit c.
func fromHex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c - 'A' + 10
}
