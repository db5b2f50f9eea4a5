package robots

import "strings"

// The character classes of the robots.txt grammar, as Google's reference
// parser reads bytes: ASCII only, C's isspace, case folded by ASCII rules.

// equalFoldASCII reports whether s and t are equal under ASCII case folding.
// Unlike strings.EqualFold, it does not fold non-ASCII letters.
func equalFoldASCII(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != lower(t[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isSpace reports whether c is SP, HT, LF, VT, FF or CR, as C's isspace
// (a non-breaking space is data).
func isSpace(c byte) bool {
	return c == ' ' || '\t' <= c && c <= '\r'
}

func trimSpace(s string) string {
	for len(s) > 0 && isSpace(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && isSpace(s[len(s)-1]) {
		s = s[:len(s)-1]
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

func isTokenChar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '-' || c == '_'
}

func lowerASCII(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lower(b[j])
			}
			return string(b)
		}
	}
	return s
}

const upperHex = "0123456789ABCDEF"

// splitPath returns the part of url that rules are matched against: the
// path, parameters and query, without the fragment; when slash is true,
// that part is "/" followed by path. As Google's reference: a leading "//"
// is skipped; "://" ends a scheme only before the first "/", "?" or ";";
// the authority runs up to the first "/", "?" or ";"; the first "#" ends
// it ("/" if before the path); "?" or ";" first gets a "/" in front; no
// path gives "/"; the URL ends at its first NUL; nothing else changes.
func splitPath(url string) (path string, slash bool) {
	if i := strings.IndexByte(url, 0); i >= 0 {
		url = url[:i]
	}
	start := 0
	if len(url) > 0 && url[0] == '/' {
		if len(url) == 1 || url[1] != '/' {
			return cutFragment(url), false // a path: "/" comes before any "://"
		}
		start = 2
	}
	// "://" comes first exactly when the first "/" is its "/".
	i := indexPathStart(url, start)
	if i > start && url[i] == '/' && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
		i = indexPathStart(url, i+2)
	}
	if i < 0 || url[i] == '#' {
		return "/", false // no path, or the fragment starts before it
	}
	path = cutFragment(url[i:])
	return path, path[0] != '/'
}

func cutFragment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// indexPathStart returns the index of the first "/", "?", ";" or "#" of
// url from start, or -1.
func indexPathStart(url string, start int) int {
	for i := start; i < len(url); i++ {
		if pathStarts[url[i]] {
			return i
		}
	}
	return -1
}

// pathStarts holds the bytes that end the authority of a URL.
var pathStarts = [256]bool{'/': true, '?': true, ';': true, '#': true}
