package fetch

// Which robots.txt governs a URL, and its rules now: a question's way in,
// past a memo of the robots.txt URL of each plain origin asked about, so
// that a question on a known host does not parse its URL again.

import (
	"context"
	"net/url"
	"strings"
	"time"

	"github.com/gorep/robots"
)

// Robots returns the rules that apply now to pageURL, a page URL or a
// robots.txt URL, fetching the robots.txt first if it has never been fetched
// or is due to be fetched again, or waiting for a fetch in progress. Errors
// are as for Allowed; the rules are never nil when the error is nil.
func (c *Cache) Robots(ctx context.Context, pageURL string) (*robots.Robots, error) {
	now := c.opts.Now()
	origin, plain := plainOrigin(pageURL)
	c.mu.Lock()
	robotsURL, known := c.origins[origin]
	if !plain || !known {
		c.mu.Unlock()
		var err error
		if robotsURL, err = c.learn(origin, plain, pageURL); err != nil {
			return nil, err
		}
		c.mu.Lock()
	}
	return c.rulesLocked(ctx, robotsURL, now)
}

// robotsOfURL is Robots for a parsed page URL, such as a request's, read in
// place rather than written out and parsed again: on a hit for a plain
// origin it allocates nothing. It returns the robots.txt URL too.
func (c *Cache) robotsOfURL(ctx context.Context, u *url.URL) (string, *robots.Robots, error) {
	now := c.opts.Now()
	var buf [originBuf]byte
	origin, plain := urlOrigin(&buf, u)
	c.mu.Lock()
	robotsURL, known := c.origins[string(origin)] // the compiler reads the bytes in place
	if !plain || !known {
		c.mu.Unlock()
		var err error
		if robotsURL, err = c.learn(string(origin), plain, u.String()); err != nil {
			return "", nil, err
		}
		c.mu.Lock()
	}
	r, err := c.rulesLocked(ctx, robotsURL, now)
	return robotsURL, r, err
}

// learn returns the robots.txt URL of pageURL, and remembers it for origin
// if plain.
func (c *Cache) learn(origin string, plain bool, pageURL string) (string, error) {
	robotsURL, err := fetchableURL(pageURL)
	if err == nil && plain {
		c.mu.Lock()
		c.remember(origin, robotsURL)
		c.mu.Unlock()
	}
	return robotsURL, err
}

// rulesLocked returns the rules of robotsURL that apply at now, as Robots
// does. It is called with c.mu held, and releases it.
func (c *Cache) rulesLocked(ctx context.Context, robotsURL string, now time.Time) (*robots.Robots, error) {
	k, err := c.knownLocked(ctx, robotsURL, nil, now)
	if err != nil {
		return nil, err
	}
	return rulesIn(c.opts.phaseOf(&k.st, k.now), k.good), nil
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
