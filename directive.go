package robots

// The directive of a line: its key, its value and the kind its key names.

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
	if start == len(s) {
		return kindNone, "", "" // blank, or a comment alone
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
// the colon ("Disallow:", "user-agent:", in any case), or else a length of
// 0. The first eight bytes of s are compared at once, as a word: byte by
// byte (hasLowerPrefixFold), Parse + first question over the real-world
// corpus took 13% more (18.84 -> 21.29 ms of CPU a pass,
// BenchmarkParseCorpus/op=parse+query, 5 rounds alternating).
func commonKey(s string) (lineKind, int) {
	if len(s) < 8 {
		return kindNone, 0
	}
	w := load64(s)
	switch {
	case keyDisallow.in(w):
		if len(s) > 8 && s[8] == ':' {
			return kindDisallow, len("disallow")
		}
	case keyAllow.in(w):
		return kindAllow, len("allow")
	case keyUserAgent.in(w):
		// c|0x20 is 'n' for "n" and "N" only, as for any letter.
		if len(s) > 10 && s[8]|0x20 == 'n' && s[9]|0x20 == 't' && s[10] == ':' {
			return kindUserAgent, len("user-agent")
		}
	case keySitemap.in(w):
		return kindSitemap, len("sitemap")
	}
	return kindNone, 0
}

// The first eight bytes of the common keys, or fewer with their colon.
var (
	keyDisallow  = newKeyWord("disallow")
	keyAllow     = newKeyWord("allow:")
	keyUserAgent = newKeyWord("user-age")
	keySitemap   = newKeyWord("sitemap:")
)

// A keyWord is the start of a key, of up to 8 bytes, as a little-endian
// word: its bytes, which bytes it has, and which are letters.
type keyWord struct{ want, mask, fold uint64 }

// newKeyWord returns the keyWord of k, in lower case.
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
func splitNoColon(s string) (kind lineKind, key, value string) {
	sep := indexBlank(s)
	if sep < 0 || indexBlank(strings.TrimLeft(s[sep+1:], " \t")) >= 0 {
		return kindNone, "", ""
	}
	key = trimSpace(s[:sep])
	return keyKind(key), key, trimSpace(s[sep+1:])
}

// indexBlank returns the index of the first space or tab of s, or -1: two
// strings.IndexByte read many bytes at a time, strings.IndexAny one (lines
// without a colon are often long: text or markup served as robots.txt).
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

// Keys are recognised case-insensitively by prefix ("Disallowed:" is a
// disallow, "Sitemaps:" a sitemap), with the misspellings Google's reference
// parser accepts because they are frequent in real files; the first of each
// list is the key's name.
var (
	userAgentKeys = []string{"user-agent", "useragent", "user agent"}
	allowKeys     = []string{"allow"}
	disallowKeys  = []string{"disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}
	sitemapKeys   = []string{"sitemap", "site-map"}
	keysOf        = [...][]string{kindUserAgent: userAgentKeys, kindAllow: allowKeys, kindDisallow: disallowKeys, kindSitemap: sitemapKeys}
)

// keyKind says which directive key names. The reference tries the lists in
// order; as each starts with a letter of its own, at most one matches.
func keyKind(key string) lineKind {
	for kind, keys := range keysOf {
		if key != "" && len(keys) > 0 && lower(key[0]) == keys[0][0] && hasAnyPrefixFold(key, keys) {
			return lineKind(kind)
		}
	}
	return kindOther
}
