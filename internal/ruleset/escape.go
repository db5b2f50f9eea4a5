package ruleset

import (
	"math/bits"
	"math/rand/v2"
)

// The escaping of patterns, and matching against the escaped form of one
// kept as written (a raw rule) without building it. A part of a pattern
// between "*", "$", "/" or ends escapes to that part of the escaped one.

// appendEscaped appends to b the value s of an allow or disallow line as
// Google's reference normalises it: "%2f" becomes "%2F", "é" "%C3%A9";
// "%62" is not decoded and ASCII is never escaped.
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

// escapeChanges reports whether escaping changes s: a byte outside ASCII
// or a "%" and two hex digits, one lower-case.
func escapeChanges(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			return true
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			if s[i+1] >= 'a' || s[i+2] >= 'a' { // a lower-case hex digit
				return true
			}
			i += 2
		}
	}
	return false
}

// escapedLen returns the length of s escaped.
func escapedLen(s string) int {
	n := len(s)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			n += 2
		}
	}
	return n
}

// noLimit is the size of a pattern that ends where the string does.
const noLimit = 1<<31 - 1

// escapeStep returns the escaped form of the written pattern v at byte i,
// byte j of its escaped form: t, n bytes long, taking k bytes of v. v may
// run on past the pattern into the kept text: size is the length of the
// escaped pattern, which a triplet never crosses.
func escapeStep(v string, i, j, size int) (t [3]byte, n, k int) {
	switch c := v[i]; {
	case c >= 0x80:
		return [3]byte{'%', upperHex[c>>4], upperHex[c&0xF]}, 3, 1
	case c == '%' && i+2 < len(v) && j+3 <= size && isHex(v[i+1]) && isHex(v[i+2]):
		return [3]byte{'%', upper(v[i+1]), upper(v[i+2])}, 3, 3
	default:
		return [3]byte{c}, 1, 1
	}
}

// compareEscaped compares the first n bytes (not ending within a triplet)
// of the escaped form of the pattern written at the start of v, of size
// bytes escaped, with s: it returns the length of their common prefix and,
// if less than n, the byte of the escaped form that follows it.
func compareEscaped(v string, size, n int, s string) (int, byte) {
	j := 0
	for i := 0; j < n; {
		c := v[i]
		var d1, d2 byte // the digits of a triplet that c starts
		switch {
		case c >= 0x80:
			d1, d2, i = upperHex[c>>4], upperHex[c&0xF], i+1
		case c == '%' && i+2 < len(v) && j+3 <= size && isHex(v[i+1]) && isHex(v[i+2]):
			d1, d2, i = upper(v[i+1]), upper(v[i+2]), i+3
		default:
			// ASCII, a "%" too when no triplet, stands for itself.
			if j == len(s) || s[j] != c {
				return j, c
			}
			i, j = i+1, j+1
			continue
		}
		switch {
		case j == len(s) || s[j] != '%':
			return j, '%'
		case j+1 == len(s) || s[j+1] != d1:
			return j + 1, d1
		case j+2 == len(s) || s[j+2] != d2:
			return j + 2, d2
		}
		j += 3
	}
	return j, 0
}

// hasEscapedPrefix reports whether s starts with the first n bytes of the
// escaped form of the pattern written at the start of v.
func hasEscapedPrefix(s, v string, size, n int) bool {
	k, _ := compareEscaped(v, size, n, s)
	return k == n
}

// compareToEscaped is compareEscaped as strings.Compare, with the length
// of the common prefix.
func compareToEscaped(v string, size, n int, s string) (int, int) {
	k, c := compareEscaped(v, size, n, s)
	switch {
	case k == n && k == len(s):
		return 0, k
	case k == n || k < len(s) && c < s[k]:
		return -1, k
	}
	return 1, k
}

// writtenLen returns how many bytes written at the start of v, of size
// bytes escaped, make the first n bytes of the escaped form.
func writtenLen(v string, size, n int) int {
	i := 0
	for j := 0; j < n; {
		_, tn, k := escapeStep(v, i, j, size)
		i, j = i+k, j+tn
	}
	return i
}

// equalEscaped reports whether s is the escaped form of w.
func equalEscaped(s, w string) bool {
	n := escapedLen(w)
	return len(s) == n && hasEscapedPrefix(s, w, noLimit, n)
}

// hasEscapedSuffix reports whether s ends with the escaped form of w.
func hasEscapedSuffix(s, w string) bool {
	n := escapedLen(w)
	return len(s) >= n && equalEscaped(s[len(s)-n:], w)
}

// indexInEscaped returns the index of g, of one to three bytes, in the
// escaped form of w, or -1.
func indexInEscaped(w, g string) int {
	mask := uint32(1)<<(8*len(g)) - 1
	var want, last uint32
	for i := range len(g) {
		want = want<<8 | uint32(g[i])
	}
	j := 0
	for i := 0; i < len(w); {
		t, tn, k := escapeStep(w, i, j, noLimit)
		i += k
		for x := range tn {
			last = (last<<8 | uint32(t[x])) & mask
			j++
			if j >= len(g) && last == want {
				return j - len(g)
			}
		}
	}
	return -1
}

// indexEscaped returns the index of the escaped form of w in s, or -1,
// without building it: Rabin-Karp, modulo 2^61-1 with a base drawn at
// random at start, so that no input makes many windows collide (linear).
func indexEscaped(s, w string) int {
	n := escapedLen(w)
	if n == 0 {
		return 0
	}
	if n > len(s) {
		return -1
	}
	var hw, pow uint64 = 0, 1 // pow is rkBase^n
	for i, j := 0, 0; i < len(w); {
		t, tn, k := escapeStep(w, i, j, noLimit)
		i, j = i+k, j+tn
		for x := range tn {
			hw = rkAdd(rkMul(hw, rkBase), uint64(t[x]))
			pow = rkMul(pow, rkBase)
		}
	}
	var h uint64
	for i := range n {
		h = rkAdd(rkMul(h, rkBase), uint64(s[i]))
	}
	for i := n; ; i++ {
		if h == hw && equalEscaped(s[i-n:i], w) {
			return i - n
		}
		if i == len(s) {
			return -1
		}
		// Shift in s[i], and out s[i-n], whose weight is now pow.
		h = rkAdd(rkMul(h, rkBase), uint64(s[i]))
		h = rkAdd(h, rkPrime-rkMul(pow, uint64(s[i-n])))
	}
}

const rkPrime = 1<<61 - 1

var rkBase = 256 + rand.Uint64N(rkPrime-512)

// rkMul returns a*b modulo rkPrime, for a and b below it.
func rkMul(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	// a*b = hi*2^64 + lo, and 2^61 is 1 modulo rkPrime.
	return rkAdd(hi<<3|lo>>61, lo&rkPrime)
}

// rkAdd returns a+b modulo rkPrime, for a and b at most rkPrime.
func rkAdd(a, b uint64) uint64 {
	s := a + b
	if s >= rkPrime {
		s -= rkPrime
	}
	if s >= rkPrime {
		s -= rkPrime
	}
	return s
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

const upperHex = "0123456789ABCDEF"
