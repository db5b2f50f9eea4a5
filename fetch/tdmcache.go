package fetch

import (
	"context"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/gorep/robots/signals"
)

// TDMRepCache keeps the tdmrep.json of each origin for as long as the
// robots.txt policy (Options) keeps a robots.txt: a file or its absence
// for its lifetime, a failed fetch for the retry interval. One fetch per
// origin at a time; concurrent callers wait for it. It is safe for
// concurrent use.
type TDMRepCache struct {
	client    *http.Client
	userAgent string
	opts      Options
	mu        sync.Mutex
	entries   map[string]*tdmEntry
}

// tdmEntry is one origin's file. ready is closed when the fetch is done.
type tdmEntry struct {
	ready   chan struct{}
	file    *signals.TDMRep
	expires time.Time
}

// maxTDMOrigins bounds the origins kept; past it, expired entries go, then
// an arbitrary one.
const maxTDMOrigins = 10000

// NewTDMRepCache returns a cache that fetches with client (nil: the
// default client) and the User-Agent header userAgent, with the lifetimes
// of opts (its zero value: Google's robots.txt policy).
func NewTDMRepCache(client *http.Client, userAgent string, opts Options) *TDMRepCache {
	return &TDMRepCache{client: client, userAgent: userAgent, opts: opts.withDefaults(), entries: map[string]*tdmEntry{}}
}

// Get returns the tdmrep.json of the origin of pageURL, nil if it has
// none or it could not be fetched or read.
func (c *TDMRepCache) Get(ctx context.Context, pageURL string) (*signals.TDMRep, error) {
	u, err := url.Parse(pageURL)
	if err != nil || u.Host == "" {
		return nil, err
	}
	origin := u.Scheme + "://" + u.Host
	now := c.opts.Now()
	c.mu.Lock()
	e, ok := c.entries[origin]
	if ok {
		select {
		case <-e.ready:
			if now.After(e.expires) {
				ok = false
			}
		default:
		}
	}
	if !ok {
		c.evict(now)
		e = &tdmEntry{ready: make(chan struct{})}
		c.entries[origin] = e
		c.mu.Unlock()
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.opts.Timeout)
		res, err := getTDMRep(fctx, c.client, c.userAgent, origin+"/", &c.opts)
		cancel()
		if res != nil {
			e.file, e.expires = res.File, now.Add(res.TTL)
		}
		if err != nil && res == nil {
			e.expires = now.Add(c.opts.retry(0))
		}
		close(e.ready)
		return e.file, err
	}
	c.mu.Unlock()
	select {
	case <-e.ready:
		return e.file, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
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
