package fetch

// What a site says of all its pages: its robots.txt, and the well-known
// files a Cache keeps beside it (RFC 8615), such as a site's
// /.well-known/tdmrep.json, kept per origin by the same
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

	"github.com/gorep/robots"
)

// A WellKnown is a kind of file that a site keeps for all its pages under
// /.well-known/, which a Cache fetches and keeps as it does robots.txt
// (Cache.Site). Ask each path with one WellKnown: a Cache keeps one copy
// of a file, parsed by the first WellKnown asked about it.
type WellKnown struct {
	// Path is the file's path, such as "/.well-known/tdmrep.json".
	Path string
	// Parse reads the body of a 2xx answer (at most robots.MaxSize bytes),
	// once per copy the Cache gets, fetched or loaded from the Store; File
	// hands back what it returns (nil Parse: the body itself, a []byte).
	// It must be safe for concurrent use.
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
	// Err says why nothing is known of the file: a *DisallowedError where
	// robots.txt does not allow the crawler to fetch it, or the error of a
	// wait for its fetch (ctx's, or Options.Timeout's); nil otherwise.
	Err error
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
	switch {
	case st.GoodStatus < 200 || st.GoodStatus > 299:
	case kind.Parse == nil:
		f.parsed = st.Body
	default:
		f.parsed = kind.Parse(st.Body)
	}
	return f
}

// A Site is what a site says of all its pages to one crawler: the rules
// of its robots.txt and the well-known files asked about.
type Site struct {
	// Agent is the crawler's product tokens, as the rules were asked with
	// them: one, or several joined with commas.
	Agent string
	// Robots holds the rules that apply now (Cache.Robots); never nil.
	Robots *robots.Robots
	// Files holds a File for each kind asked about, in order.
	Files []*File
}

// Site returns what the origin of pageURL says of all its pages to the
// crawler whose product token is agent (several, for a crawler that obeys
// them, spelled with commas: "googlebot-news,googlebot"; their groups
// merged): its robots.txt rules, and each file of kinds, fetched first if
// need be, or once the fetch in progress ends. A file that robots.txt
// does not allow agent to fetch (a Disallow, or a robots.txt that answered
// 429, 5xx or not at all) is not fetched: its File.Err is a
// *DisallowedError, which matches ErrDisallowed. The errors are those of
// Allowed, and one for a kind whose Path is not under /.well-known/.
func (c *Cache) Site(ctx context.Context, agent, pageURL string, kinds ...*WellKnown) (*Site, error) {
	for _, kind := range kinds {
		if kind == nil {
			return nil, fmt.Errorf("robots: a nil WellKnown")
		}
		if !strings.HasPrefix(kind.Path, "/.well-known/") || strings.ContainsAny(kind.Path, "?#") {
			return nil, fmt.Errorf("robots: %q is not a well-known path", kind.Path)
		}
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
	s := &Site{Agent: strings.Join(tokens, ","), Robots: r, Files: make([]*File, len(kinds))}
	origin := strings.TrimSuffix(robotsURL, "/robots.txt")
	for i, kind := range kinds {
		f := &File{URL: origin + kind.Path}
		if d := r.Group(tokens...).Decide(f.URL); !d.Allowed {
			f.Err = c.refusal(s.Agent, f.URL, d, robotsURL, r)
		} else {
			c.wellKnown(ctx, f, kind)
		}
		s.Files[i] = f
	}
	return s, nil
}

// wellKnown fills f with what the Cache knows of the file of kind at
// f.URL, after the refresh it is due, or the one in progress.
func (c *Cache) wellKnown(ctx context.Context, f *File, kind *WellKnown) {
	c.mu.Lock()
	k, err := c.knownLocked(ctx, f.URL, kind, c.opts.Now())
	if err != nil {
		f.Err = err
		return
	}
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
}
