package fetch

// The well-known files a Cache keeps beside robots.txt (RFC 8615), such
// as a site's /.well-known/tdmrep.json: kept per origin by the same
// mechanism as robots.txt (entries keyed by the file's URL, one fetch per
// file at a time, a Store shared by a fleet, the byte and host bounds) and
// the same failure policy: 429 and 5xx retried after the retry interval or
// Retry-After, the last good copy kept meanwhile. A well-known file is
// fetched only where the site's robots.txt allows the crawler to fetch it
// (RFC 9309 exempts /robots.txt alone).

import (
	"context"
	"fmt"
	"net/url"
	"strings"
)

// A WellKnown is a kind of file that a site keeps for all its pages under
// /.well-known/, which a Cache fetches and keeps as it does robots.txt.
// Ask each path with one WellKnown: a Cache keeps one copy of a file,
// parsed by the first WellKnown asked about it.
type WellKnown struct {
	// Path is the file's path, such as "/.well-known/tdmrep.json".
	Path string
	// Parse reads the body of a 2xx answer (at most robots.MaxSize bytes),
	// once per copy the Cache gets, fetched or loaded from the Store; File
	// hands back what it returns. It must be safe for concurrent use.
	Parse func(body []byte) any
}

// A File is what a Cache knows of a site's well-known file.
type File struct {
	// URL is the file's URL.
	URL string
	// Parsed is what WellKnown.Parse returned for the last good copy if
	// that was a 2xx; nil if the site has none (3xx, 4xx), or no fetch has
	// been good.
	Parsed any
	// Problem says, while the file is not fresh, why: "not fetched yet",
	// or since when its fetches fail and whether a last good copy is used;
	// "" when it is fresh.
	Problem string
}

// isRobotsURL reports whether fileURL, a URL a Cache keeps, is a
// robots.txt's rather than a well-known file's.
func isRobotsURL(fileURL string) bool { return strings.HasSuffix(fileURL, "/robots.txt") }

// A wellKnownCopy is the last good copy of a well-known file, parsed.
type wellKnownCopy struct {
	parsed any // WellKnown.Parse's, for a 2xx
	bytes  int // of the body
}

// memSize returns the bytes f keeps, about twice its body's, as the rules
// of a robots.txt do.
func (f *wellKnownCopy) memSize() int64 {
	if f == nil {
		return 0
	}
	return 2 * int64(f.bytes)
}

// goodCopy returns the last good copy of st, a well-known file's State,
// parsed by kind; nil if no fetch has been good.
func (st *State) goodCopy(kind *WellKnown) *wellKnownCopy {
	if st.GoodStatus == 0 || kind == nil {
		return nil
	}
	f := &wellKnownCopy{bytes: len(st.Body)}
	if 200 <= st.GoodStatus && st.GoodStatus <= 299 {
		f.parsed = kind.Parse(st.Body)
	}
	return f
}

// WellKnown returns what the Cache knows of the file kind of the origin of
// pageURL for the crawler whose product token is agent (several, spelled
// with commas, as Page reads them), fetching it first if need be, or
// waiting for the fetch in progress.
//
// Where robots.txt does not allow agent to fetch the file (a Disallow, or
// a robots.txt that answered 429, 5xx or not at all), WellKnown returns a
// *DisallowedError, which matches ErrDisallowed, and fetches nothing but
// robots.txt. Its other errors are those of Allowed, and one for a Path
// not under /.well-known/.
func (c *Cache) WellKnown(ctx context.Context, agent, pageURL string, kind *WellKnown) (*File, error) {
	if !strings.HasPrefix(kind.Path, "/.well-known/") || strings.ContainsAny(kind.Path, "?#") {
		return nil, fmt.Errorf("robots: %q is not a well-known path", kind.Path)
	}
	tokens, err := crawlerTokens(agent)
	if err != nil {
		return nil, err
	}
	u, err := url.Parse(pageURL)
	if err != nil {
		return nil, err
	}
	robotsURL, r, err := c.robotsOfURL(ctx, u)
	if err != nil {
		return nil, err
	}
	fu := strings.TrimSuffix(robotsURL, "/robots.txt") + kind.Path
	if d := r.Group(tokens...).Decide(fu); !d.Allowed {
		return nil, c.refusal(strings.Join(tokens, ","), fu, d, robotsURL, r)
	}
	c.mu.Lock()
	k, err := c.knownLocked(ctx, fu, kind, c.opts.Now())
	if err != nil {
		return nil, err
	}
	f := &File{URL: fu}
	if k.copy != nil {
		f.Parsed = k.copy.parsed
	}
	switch p := c.opts.phaseOf(&k.st, k.now); p {
	case phaseUnknown:
		f.Problem = "not fetched yet"
	case phaseGood:
	default:
		copyUsed := "the last good copy is used"
		if k.copy == nil {
			copyUsed = "no copy is known"
		}
		f.Problem = failure(&k.st, nil) + ": " + copyUsed
	}
	return f, nil
}
