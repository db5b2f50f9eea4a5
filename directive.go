package robots

// The directives of a line: its key and value, and the kind of directive
// its key names.

import "strings"

// splitDirective splits the content of a line (see lineScanner) into its
// key and value, and says what kind of directive it is. The grammar, as
// Google's reference parser reads it:
//
//	line  = [ ws ] key [ ws ] sep [ ws ] value [ ws ] [ "#" comment ]
//	sep   = ":" | 1*( SP | HT )   ; whitespace only when the line has no ":"
//	ws    = 1*( SP | HT | LF | VT | FF | CR )
//
// The line ends at its first NUL byte and at most maxLineLen bytes are kept:
// the content s is cut there, and at the comment, already.
func splitDirective(s string) (kind lineKind, key, value string) {
	start := 0
	for start < len(s) && isSpace(s[start]) {
		start++
	}
	if kind, n := commonKey(s[start:]); n > 0 {
		return kind, s[start : start+n], trimSpace(s[start+n+1:])
	}
	colon := strings.IndexByte(s[start:], ':')
	if colon < 0 {
		return splitNoColon(trimSpace(s[start:]))
	}
	key = trimSpace(s[start : start+colon])
	if key == "" {
		return kindNone, "", ""
	}
	return keyKind(key), key, trimSpace(s[start+colon+1:])
}

// commonKey returns the kind and length of the key that s starts with, if
// it is one of the keys most lines are written with, whole and right before
// the colon ("Disallow:", "user-agent:"), or else a length of 0. Such a
// line's first colon is the one after its key, and keyKind would say the
// same of the key: what the grammar reads (splitDirective) is read here
// without looking for the colon.
func commonKey(s string) (lineKind, int) {
	if len(s) < len("allow:") {
		return kindNone, 0
	}
	var tail string
	var kind lineKind
	// c|0x20 is c in lower case for letters, and a byte other than these
	// for any byte but a letter.
	switch s[0] | 0x20 {
	case 'd':
		tail, kind = "isallow", kindDisallow
	case 'a':
		tail, kind = "llow", kindAllow
	case 'u':
		tail, kind = "ser-agent", kindUserAgent
	case 's':
		tail, kind = "itemap", kindSitemap
	default:
		return kindNone, 0
	}
	n := 1 + len(tail)
	if len(s) <= n || s[n] != ':' || s[1:n] != tail {
		return kindNone, 0
	}
	return kind, n
}

// splitNoColon splits a line s that has no colon, with no whitespace around
// it. Some people forget the colon: "Disallow /tmp". Whitespace serves as
// the separator, but only when the line is exactly two runs of
// non-whitespace, so that "Disallow /a /b" is still ignored.
func splitNoColon(s string) (kind lineKind, key, value string) {
	sep := strings.IndexAny(s, " \t")
	if sep < 0 {
		return kindNone, "", ""
	}
	if rest := strings.TrimLeft(s[sep:], " \t"); strings.ContainsAny(rest, " \t") {
		return kindNone, "", ""
	}
	// s starts with the key, which is not empty.
	key = trimSpace(s[:sep])
	return keyKind(key), key, trimSpace(s[sep+1:])
}

// Keys are recognised case-insensitively by prefix ("Disallowed:" is a
// disallow, "Sitemaps:" a sitemap), with the misspellings Google's reference
// parser accepts because they are frequent in real files.
var (
	userAgentKeys = []string{"user-agent", "useragent", "user agent"}
	allowKeys     = []string{"allow"}
	disallowKeys  = []string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}
	sitemapKeys   = []string{"sitemap", "site-map"}
)

// keyKind says which directive key names. The reference tests the lists
// of keys in the order above; as each list starts with its own letter, at
// most one can match, and the first byte of key picks it. Keys are most
// often written as the first of their list, with or without a capital:
// those are recognised before any case folding.
func keyKind(key string) lineKind {
	if key == "" {
		return kindOther
	}
	var keys []string
	var kind lineKind
	switch lower(key[0]) {
	case 'u':
		if len(key) >= 10 && key[1:10] == "ser-agent" {
			return kindUserAgent
		}
		keys, kind = userAgentKeys, kindUserAgent
	case 'a':
		if len(key) >= 5 && key[1:5] == "llow" {
			return kindAllow
		}
		keys, kind = allowKeys, kindAllow
	case 'd':
		if len(key) >= 8 && key[1:8] == "isallow" {
			return kindDisallow
		}
		keys, kind = disallowKeys, kindDisallow
	case 's':
		if len(key) >= 7 && key[1:7] == "itemap" {
			return kindSitemap
		}
		keys, kind = sitemapKeys, kindSitemap
	default:
		return kindOther
	}
	if hasAnyPrefixFold(key, keys) {
		return kind
	}
	return kindOther
}
