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
//     at all gives "/".
//
// The URL is used as given: it must already be %-encoded (RFC 3986), and no
// other normalisation is done.
func splitPath(url string) (path string, slash bool) {
	if len(url) > 0 && url[0] == '/' && (len(url) == 1 || url[1] != '/') {
		// A path: "/" comes before any "://".
		if i := strings.IndexByte(url, '#'); i >= 0 {
			return url[:i], false
		}
		return url, false
	}
	start := 0
	if strings.HasPrefix(url, "//") {
		start = 2
	}
	rest := url[start:]
	early := indexPathStart(rest)
	if p := strings.Index(rest, "://"); p >= 0 && (early < 0 || p < early) {
		rest = rest[p+3:]
		early = indexPathStart(rest)
	}
	if early < 0 {
		return "/", false
	}
	path = url[len(url)-len(rest)+early:]
	if hash := strings.IndexByte(url[start:], '#'); hash >= 0 {
		if start+hash < len(url)-len(path) {
			return "/", false // the fragment starts before the path
		}
		path = path[:start+hash-(len(url)-len(path))]
	}
	return path, path[0] != '/'
}

// indexPathStart returns the index of the first "/", "?" or ";" in s, or -1.
func indexPathStart(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '/' || c == '?' || c == ';' {
			return i
		}
	}
	return -1
}
