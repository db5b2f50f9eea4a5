package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gorep/robots/signals"
)

// TDMRepCache keeps the tdmrep.json of each origin for as long as the
// robots.txt policy (Options) keeps a robots.txt: a file or its absence
// for its lifetime, a failed fetch for the retry interval. One fetch per
// origin at a time; concurrent callers wait for it. With Options.Store,
// the files are shared by a fleet as robots.txt files are: saved under
// the tdmrep.json URL as a State, and read from there before fetching
// (without a lease: at worst each process fetches a file once per
// lifetime). It is safe for concurrent use.
type TDMRepCache struct {
	// robots is the cache of the robots.txt files that say whether agent
	// may fetch each tdmrep.json.
	robots    *Cache
	agent     string
	client    *http.Client
	userAgent string
	opts      Options
	mu        sync.Mutex
	entries   map[string]*tdmEntry
}

// tdmEntry is one origin's file. ready is closed when the fetch is done;
// err is its error, for the callers that waited for it.
type tdmEntry struct {
	ready   chan struct{}
	file    *signals.TDMRep
	err     error
	expires time.Time
}

// maxTDMOrigins bounds the origins kept; past it, expired entries go, then
// an arbitrary one.
const maxTDMOrigins = 10000

// NewTDMRepCache returns a cache that fetches with client (nil: the
// default client, through a Guard unless opts.AllowPrivate, as NewCache's)
// and the User-Agent header userAgent, with the lifetimes
// of opts (its zero value: Google's robots.txt policy). A tdmrep.json is
// fetched only where the site's robots.txt (kept in a Cache of its own,
// with the same client and options) allows the crawler userAgent names.
func NewTDMRepCache(client *http.Client, userAgent string, opts Options) *TDMRepCache {
	return newTDMRepCache(NewCache(client, userAgent, opts), client, userAgent, opts)
}

// newTDMRepCache is NewTDMRepCache asking robots.txt of rc.
func newTDMRepCache(rc *Cache, client *http.Client, userAgent string, opts Options) *TDMRepCache {
	return &TDMRepCache{robots: rc, agent: wellKnownAgent(userAgent), client: client, userAgent: userAgent,
		opts: opts.withDefaults(), entries: map[string]*tdmEntry{}}
}

// Get returns the tdmrep.json of the origin of pageURL, nil if it has
// none or it could not be fetched or read; the error of a fetch goes to the
// callers that waited for it. Where the site's robots.txt does not allow
// the crawler to fetch the file (a Disallow, or a robots.txt that answered
// 429, 5xx or not at all), Get returns nil and a *DisallowedError, which
// matches ErrDisallowed, and nothing is fetched but robots.txt. A caller waits for a fetch, its
// own or one in progress, until ctx ends or for at most Options.Timeout +
// 2 × StoreTimeout, whatever the client's transport does with the
// request's context; the fetch goes on for the callers after it.
func (c *TDMRepCache) Get(ctx context.Context, pageURL string) (*signals.TDMRep, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	robotsURL, r, err := c.robots.robotsOfURL(ctx, u)
	if err != nil {
		return nil, err
	}
	tu := origin + "/.well-known/tdmrep.json"
	if d := r.Decide(c.agent, tu); !d.Allowed {
		return nil, c.robots.refusal(c.agent, tu, d, robotsURL, r)
	}
	now := c.opts.Now()
	c.mu.Lock()
	e, ok := c.entries[origin]
	if ok {
		select {
		case <-e.ready:
			if !now.After(e.expires) {
				// Known: the error of its fetch was its caller's.
				c.mu.Unlock()
				return e.file, nil
			}
			ok = false
		default:
		}
	}
	if !ok {
		c.evict(now)
		e = &tdmEntry{ready: make(chan struct{})}
		c.entries[origin] = e
		go func() {
			e.err = c.fill(context.WithoutCancel(ctx), e, origin, now)
			close(e.ready)
		}()
	}
	c.mu.Unlock()
	wait := time.NewTimer(c.maxWait())
	defer wait.Stop()
	select {
	case <-e.ready:
		return e.file, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-wait.C:
		return nil, fmt.Errorf("tdmrep: no answer for %s within %v (Options.Timeout and twice StoreTimeout): %w",
			origin, c.maxWait(), context.DeadlineExceeded)
	}
}

// maxWait is the longest a fill takes: two calls to the Store and a fetch.
func (c *TDMRepCache) maxWait() time.Duration {
	return c.opts.Timeout + 2*c.opts.StoreTimeout
}

// fill sets e from the shared Store if it holds a fresh copy, or else from
// a fetch, which it saves there.
func (c *TDMRepCache) fill(ctx context.Context, e *tdmEntry, origin string, now time.Time) error {
	tu := origin + "/.well-known/tdmrep.json"
	if c.opts.Store != nil {
		sctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
		st, ok, err := c.opts.Store.Load(sctx, tu)
		cancel()
		if ok {
			// Within the policy's bounds, as a robots.txt state is.
			st = c.opts.plausible(st, now)
		}
		if err == nil && ok && now.Before(st.NextFetch) {
			if 200 <= st.GoodStatus && st.GoodStatus <= 299 {
				e.file, _ = signals.ParseTDMRep(st.Body)
			}
			e.expires = st.NextFetch
			return nil
		}
	}
	fctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	res, err := c.getBounded(fctx, origin)
	cancel()
	if res == nil { // not an http or https origin
		e.expires = now.Add(c.opts.retry(0))
		return err
	}
	st := State{RobotsURL: tu, Outcome: outcome(res.StatusCode), StatusCode: res.StatusCode, FetchedAt: now}
	if err != nil || st.Outcome == Unreachable {
		// A network error, 429 or 5xx: no file is known; ask again after
		// the retry interval.
		st.Outcome, st.FailingSince = Unreachable, now
		e.file, e.expires = nil, now.Add(c.opts.retry(res.StatusCode))
	} else {
		e.file, e.expires = res.File, now.Add(res.TTL)
		st.GoodStatus, st.GoodAt, st.GoodUntil = res.StatusCode, now, e.expires
		if res.File != nil {
			st.Body = res.body
		}
	}
	st.NextFetch = e.expires
	if c.opts.Store != nil {
		sctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
		c.opts.Store.Save(sctx, st) // a fault only costs the fleet a fetch
		cancel()
	}
	return err
}

// getBounded is getTDMRep for origin, returning when ctx ends whatever the
// client does: a transport that loses the request's context (and so its
// deadline) cannot hold the fill; its fetch goes on alone, and its result
// is dropped.
func (c *TDMRepCache) getBounded(ctx context.Context, origin string) (*TDMRepResult, error) {
	client := c.client
	if client == nil && c.opts.AllowPrivate {
		client = openClient()
	}
	return untilDone(ctx, func() (*TDMRepResult, error) {
		return getTDMRep(ctx, client, c.userAgent, origin+"/", &c.opts)
	}, func() (*TDMRepResult, error) {
		tu := origin + "/.well-known/tdmrep.json"
		return &TDMRepResult{URL: tu, TTL: c.opts.retry(0)}, fmt.Errorf("tdmrep: fetching %s: %w", tu, context.Cause(ctx))
	})
}

// evict makes room for one entry; c.mu is held.
func (c *TDMRepCache) evict(now time.Time) {
	if len(c.entries) < maxTDMOrigins {
		return
	}
	for k, e := range c.entries {
		select {
		case <-e.ready:
			if now.After(e.expires) {
				delete(c.entries, k)
			}
		default:
		}
	}
	for k := range c.entries {
		if len(c.entries) < maxTDMOrigins {
			break
		}
		delete(c.entries, k)
	}
}
