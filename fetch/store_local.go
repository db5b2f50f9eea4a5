package fetch

import (
	"net/url"
	"strings"
)

// The local store of a Cache: its entries in least recently used order,
// bounded in bytes and in hosts. The functions here are called with
// Cache.mu held.

// entryOverhead is what an entry keeps beside its URL, body and parsed
// rules: the entry, its list element and its map slot, rounded up.
const entryOverhead = 512

// lookup returns the entry of robotsURL, made if need be, and marks it as the
// most recently used.
func (c *Cache) lookup(robotsURL string) *entry {
	if el, ok := c.entries[robotsURL]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*entry)
	}
	e := &entry{st: State{RobotsURL: robotsURL}}
	e.el = c.lru.PushFront(e)
	c.entries[robotsURL] = e.el
	c.resize(e)
	c.evict()
	return e
}

// resize counts again the bytes e holds: its URL (twice: in the entry and
// as the map key), its last good body, the URL it came from and the parsed
// rules. An entry larger
// than MaxBytes alone is kept all the same: evict forgets it once it is no
// longer the most recently used, so that the questions about that one host
// do not fetch its file again every time.
func (c *Cache) resize(e *entry) {
	if e.el == nil {
		return
	}
	size := entryOverhead + 2*int64(len(e.st.RobotsURL)) +
		int64(len(e.st.Body)) + int64(len(e.st.GoodURL)) + int64(memSize(e.good)) + e.copy.memSize()
	c.held += size - e.size
	e.size = size
}

// evict forgets the least recently used entries beyond the bounds, except
// the most recently used and those with a refresh in progress: their
// callers wait on them, and a new entry would start a second fetch of the
// same file. Entries in flight do not count against MaxHosts (they cannot
// be forgotten), so that more hosts in flight than MaxHosts do not make
// each result forgotten as it arrives; their bytes count against MaxBytes.
func (c *Cache) evict() {
	el := c.lru.Back()
	for el != nil && el != c.lru.Front() &&
		(c.held+c.memoBytes > c.opts.MaxBytes || c.lru.Len()-c.inFlight > c.opts.MaxHosts) {
		e, prev := el.Value.(*entry), el.Prev()
		if e.done == nil {
			c.forget(e)
		}
		el = prev
	}
}

// forget removes e from the Cache.
func (c *Cache) forget(e *entry) {
	c.lru.Remove(e.el)
	delete(c.entries, e.st.RobotsURL)
	c.held -= e.size
	e.el, e.size = nil, 0
	c.stats.evictions.Add(1)
}

// memoOverhead is what one origin in Cache.origins keeps beside the bytes of
// the origin and of its robots.txt URL: the map slot and two string
// allocations, rounded up.
const memoOverhead = 64

// remember records that the page URLs of origin have the robots.txt URL
// robotsURL. The memo is counted in MaxBytes, and forgotten whole (a new
// map, so that its slots are freed) when it reaches MaxHosts origins or a
// quarter of MaxBytes: it only spares parsing URLs.
func (c *Cache) remember(origin, robotsURL string) {
	size := memoOverhead + int64(len(origin)+len(robotsURL))
	if len(c.origins) >= c.opts.MaxHosts || c.memoBytes+size > c.opts.MaxBytes/4 {
		c.origins = make(map[string]string)
		c.memoBytes = 0
	}
	c.origins[strings.Clone(origin)] = robotsURL
	c.memoBytes += size
	c.evict()
}

// plainOrigin returns the scheme://authority of pageURL and true if the
// robots.txt URL of pageURL depends on nothing else, and url.Parse cannot
// fail on the rest: a lower-case http or https scheme, an authority of
// lower-case letters, digits, dots, hyphens and colons only (no user
// information, IPv6 literal, escape or non-ASCII name), and a rest without
// control characters, spaces or bad %-escapes. Otherwise it returns false,
// and the URL is parsed.
func plainOrigin(pageURL string) (string, bool) {
	rest, ok := strings.CutPrefix(pageURL, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(pageURL, "http://"); !ok {
			return "", false
		}
	}
	n := 0
	for n < len(rest) && isPlainAuthority(rest[n]) {
		n++
	}
	if n == 0 || n < len(rest) && rest[n] != '/' && rest[n] != '?' && rest[n] != '#' {
		return "", false
	}
	for i := n; i < len(rest); i++ {
		switch b := rest[i]; {
		case b <= ' ' || b == 0x7f:
			return "", false
		case b == '%' && (i+2 >= len(rest) || !isHex(rest[i+1]) || !isHex(rest[i+2])):
			return "", false
		}
	}
	return pageURL[:len(pageURL)-len(rest)+n], true
}

// originBuf is the size of the buffer in which urlOrigin writes an origin;
// a longer one is not plain.
const originBuf = 256

// urlOrigin is plainOrigin for a parsed URL: it writes the scheme://authority
// of u in buf and reports whether the robots.txt URL of u depends on nothing
// else, and url.Parse cannot fail on u.String(): a scheme of "http" or
// "https", a plain authority, no opaque part, and a query without control
// characters, spaces or "#" (u.String writes the query as it is, and the
// user information, path and fragment escaped).
func urlOrigin(buf *[originBuf]byte, u *url.URL) ([]byte, bool) {
	if u.Scheme != "http" && u.Scheme != "https" || u.Opaque != "" ||
		u.Host == "" || len(u.Scheme)+len("://")+len(u.Host) > len(buf) {
		return nil, false
	}
	for i := 0; i < len(u.Host); i++ {
		if !isPlainAuthority(u.Host[i]) {
			return nil, false
		}
	}
	for i := 0; i < len(u.RawQuery); i++ {
		if b := u.RawQuery[i]; b <= ' ' || b == 0x7f || b == '#' {
			return nil, false
		}
	}
	return append(append(append(buf[:0], u.Scheme...), "://"...), u.Host...), true
}

// isPlainAuthority reports whether b may be part of a plain authority.
func isPlainAuthority(b byte) bool {
	return 'a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '.' || b == '-' || b == ':'
}

// isHex reports whether b is a hexadecimal digit.
func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}
