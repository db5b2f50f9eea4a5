package fetch

// The well-known files a Cache keeps beside robots.txt: a site's
// /.well-known/tdmrep.json (TDMRep, package signals), kept per origin by
// the same mechanism as robots.txt (entries keyed by the file's URL, one
// fetch per file at a time, a Store shared by a fleet, the byte and host
// bounds) and the same failure policy: 429 and 5xx retried after the retry
// interval or Retry-After, the last good copy kept meanwhile. A well-known
// file is fetched only where the site's robots.txt allows the crawler to
// fetch it (RFC 9309 exempts /robots.txt alone).

import (
	"context"
	"net/url"
	"strings"

	"github.com/gorep/robots/signals"
)

// tdmRepPath is the path of a site's tdmrep.json.
const tdmRepPath = "/.well-known/tdmrep.json"

// isTDMRepURL reports whether fileURL, a URL a Cache keeps, is a
// tdmrep.json's rather than a robots.txt's.
func isTDMRepURL(fileURL string) bool { return strings.HasSuffix(fileURL, tdmRepPath) }

// A tdmFile is the last good copy of a tdmrep.json, parsed.
type tdmFile struct {
	file    *signals.TDMRep // nil when there is none (a 3xx or 4xx) or it was not read
	problem error           // why a 2xx body was not read (too large, not JSON)
	bytes   int             // of the body
}

// memSize returns the bytes f keeps, about twice its body's, as the rules
// of a robots.txt do.
func (f *tdmFile) memSize() int64 {
	if f == nil {
		return 0
	}
	return 2 * int64(f.bytes)
}

// goodTDMRep returns the last good copy of st, a tdmrep.json's State,
// parsed; nil if no fetch has been good.
func (st *State) goodTDMRep() *tdmFile {
	if st.GoodStatus == 0 {
		return nil
	}
	f := &tdmFile{bytes: len(st.Body)}
	if 200 <= st.GoodStatus && st.GoodStatus <= 299 {
		f.file, f.problem = signals.ParseTDMRep(st.Body)
		if f.problem != nil && len(st.Body) >= signals.MaxTDMRepSize {
			f.problem = signals.ErrTDMRepTooLarge // its first MaxSize bytes were read
		}
	}
	return f
}

// TDMRep returns the tdmrep.json of the origin of pageURL for the crawler
// whose product token is agent, fetching it first if need be, with the
// problems that bear on it: the file's own (rules skipped), why it was not
// read (too large, not JSON), and, while its fetches fail, since when and
// that the last good copy (nil if none) is used. The file is nil when the
// site has none: any status but 2xx ("failure to provide access to such a
// representation implies that the origin server does not implement this
// protocol", TDMRep).
//
// Where robots.txt does not allow agent to fetch the file (a Disallow, or
// a robots.txt that answered 429, 5xx or not at all), TDMRep returns nil
// and a *DisallowedError, which matches ErrDisallowed, and fetches nothing
// but robots.txt. Its other errors are those of Allowed.
func (c *Cache) TDMRep(ctx context.Context, agent, pageURL string) (*signals.TDMRep, []string, error) {
	tokens, err := crawlerTokens(agent)
	if err != nil {
		return nil, nil, err
	}
	u, err := url.Parse(pageURL)
	if err != nil {
		return nil, nil, err
	}
	robotsURL, r, err := c.robotsOfURL(ctx, u)
	if err != nil {
		return nil, nil, err
	}
	tu := strings.TrimSuffix(robotsURL, "/robots.txt") + tdmRepPath
	if d := r.Group(tokens...).Decide(tu); !d.Allowed {
		return nil, nil, c.refusal(strings.Join(tokens, ","), tu, d, robotsURL, r)
	}
	c.mu.Lock()
	k, err := c.knownLocked(ctx, tu, c.opts.Now())
	if err != nil {
		return nil, nil, err
	}
	var problems []string
	switch p := c.opts.phaseOf(&k.st, k.now); p {
	case phaseUnknown:
		problems = append(problems, tu+": not fetched yet")
	case phaseGood:
	default:
		copyUsed := "the last good copy is used"
		if k.tdm == nil {
			copyUsed = "no copy is known"
		}
		problems = append(problems, tu+": "+failure(&k.st, nil)+": "+copyUsed)
	}
	if k.tdm == nil {
		return nil, problems, nil
	}
	if k.tdm.problem != nil {
		problems = append(problems, tu+": "+k.tdm.problem.Error())
	}
	if k.tdm.file != nil {
		for _, p := range k.tdm.file.Problems {
			problems = append(problems, tu+": "+p)
		}
	}
	return k.tdm.file, problems, nil
}
