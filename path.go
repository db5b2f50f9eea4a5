package robots

// The part of a URL that rules are matched against.

import "strings"

// splitPath returns the part of url that rules are matched against: the
// path, parameters and query, without the fragment; when slash is true,
// that part is "/" followed by path. As Google's reference: a leading "//"
// is skipped; "://" ends a scheme only before the first "/", "?" or ";";
// the authority runs up to the first "/", "?" or ";"; the first "#" ends
// it ("/" if before the path); "?" or ";" first gets a "/" in front; no
// path gives "/"; the URL ends at its first NUL (a C string). No other
// normalisation: the URL must already be %-encoded.
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

// pathStarts holds the bytes that end the authority of a URL.
var pathStarts = [256]bool{'/': true, '?': true, ';': true, '#': true}
