package robots

// The part of a URL that rules are matched against.

import "strings"

// splitPath returns the part of url that rules are matched against: the path,
// parameters and query, without the fragment; when slash is true, that part
// is "/" followed by path. It follows Google's reference parser:
//
//   - a leading "//" is skipped;
//   - "://" ends a scheme only if it comes before the first "/", "?" or ";";
//   - after the scheme (or from the start when there is none) the authority
//     runs up to the first "/", "?" or ";", where the path begins, so
//     "example.com/a" gives "/a" but "/a" gives "/a";
//   - the first "#" ends it, and a "#" before the path gives "/";
//   - a result that starts with "?" or ";" gets a "/" in front, and no path
//     at all gives "/";
//   - the URL ends at its first NUL byte: the reference reads it as a C
//     string, so that "/a\x00b" is "/a".
//
// The URL is used as given: it must already be %-encoded (RFC 3986), and no
// other normalisation is done.
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
	// "://" comes before the first "/", "?" or ";" exactly when that is
	// the "/" of "://": any earlier "://" would hold a "/" before it.
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

// cutFragment returns s up to its first "#".
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

// pathStarts holds the bytes that end the authority of a URL: "/", "?" and
// ";" start the path, "#" the fragment.
var pathStarts = [256]bool{'/': true, '?': true, ';': true, '#': true}
