package semdiff

import (
	"slices"
	"strings"

	"github.com/gorep/robots"
)

// Witnesses returns the paths on which Compare asks both files for a
// verdict, sorted, and whether they are complete: whether every set of
// patterns that some path matches is matched by one of them.
//
// They are, for every allow and disallow pattern of every file given: its
// literal prefix at each "*" (the "*" taken as empty and as one byte), the
// whole pattern with a final "$" resolved (the path itself, and the path
// followed by "/"), each of those extended by one byte that no pattern
// holds, and the directory of an "Allow: .../index.html" (which Google
// allows too); and "/" with its one-byte extension. For "/a*b$" they are
// "/a", "/ax", "/ab", "/axb", "/ab/", "/abx", "/axbx" and the like; for
// "/a$", "/a", "/ax" and "/a/". Without a "*" inside a pattern, these are
// complete.
//
// When a pattern has a "*" inside, they also hold a path for each set of
// patterns that some path matches, found by following all the patterns at
// once over the bytes they hold; if that takes more than 100,000 states,
// the search stops and the witnesses are not complete.
func Witnesses(files ...*robots.Robots) (witnesses []string, complete bool) {
	var globs []glob
	var patterns []string
	for _, r := range files {
		for _, rec := range r.Records() {
			for _, rule := range rec.Rules {
				p := escapePattern(rule.Pattern)
				patterns = append(patterns, p)
				if p == "" || p[0] != '/' && p[0] != '*' {
					continue // never matches
				}
				text, anchored := trimPattern(p)
				globs = append(globs, glob{text, anchored})
				if dir, ok := indexDir(p, rule.Allow); ok {
					globs = append(globs, glob{dir, true})
				}
			}
		}
	}
	fresh := freshByte(patterns)
	set := map[string]bool{"/": true, "/" + fresh: true}
	add := func(w string) {
		if !strings.HasPrefix(w, "/") {
			w = "/" + w // after a leading "*", which matches the "/"
		}
		set[w] = true
		set[w+fresh] = true
	}
	inner := false
	for _, g := range globs {
		pieces := strings.Split(g.text, "*")
		inner = inner || len(pieces) > 1
		for j := range pieces {
			add(strings.Join(pieces[:j+1], ""))
			add(strings.Join(pieces[:j+1], fresh))
		}
		if g.anchored {
			add(strings.Join(pieces, "") + "/")
		}
	}
	complete = true
	if inner {
		var explored []string
		explored, complete = explore(globs, fresh)
		for _, w := range explored {
			set[w] = true
		}
	}
	witnesses = make([]string, 0, len(set))
	for w := range set {
		witnesses = append(witnesses, w)
	}
	slices.Sort(witnesses)
	return witnesses, complete
}

// trimPattern returns the escaped pattern p without a final "$" and without
// trailing "*", and whether it is anchored at the end of the path: "/a$"
// gives "/a", true; "/a*" and "/a*$" both give "/a", false, since a trailing
// "*" matches whatever follows.
func trimPattern(p string) (literal string, anchored bool) {
	if strings.HasSuffix(p, "$") {
		p, anchored = p[:len(p)-1], true
	}
	if strings.HasSuffix(p, "*") {
		p, anchored = strings.TrimRight(p, "*"), false
	}
	return p, anchored
}

// indexDir returns the directory that an allow of ".../index.htm..." also
// allows, as Google's reference does: "Allow: /d/index.html" allows "/d/".
func indexDir(p string, allow bool) (string, bool) {
	if !allow {
		return "", false
	}
	if j := strings.LastIndexByte(p, '/'); j >= 0 && strings.HasPrefix(p[j:], "/index.htm") {
		return p[:j+1], true
	}
	return "", false
}

// freshByte returns a printable byte, as a string, that occurs in none of
// patterns, preferring ones that read well in a path. With every printable
// byte taken, it returns a byte outside ASCII, which escaped patterns never
// hold.
func freshByte(patterns []string) string {
	var used [256]bool
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			used[p[i]] = true
		}
	}
	for _, c := range []byte("xzq0~_-.") {
		if !used[c] {
			return string(c)
		}
	}
	for c := byte('!'); c <= '~'; c++ {
		if !used[c] && c != '#' && c != '%' {
			return string(c)
		}
	}
	return "\xff"
}

// escapePattern normalises a pattern as Google's reference does before
// matching (and as package robots does): a "%" and two hex digits get the
// digits upper-cased, and every byte outside ASCII becomes a %XX triplet.
func escapePattern(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte('%')
			b.WriteByte(upper(s[i+1]))
			b.WriteByte(upper(s[i+2]))
			i += 2
		case c >= 0x80:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isHex reports whether c is an ASCII hex digit.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// upper returns the ASCII upper case of c.
func upper(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
