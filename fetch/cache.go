package fetch

import (
	"container/list"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gorep/robots"
)

// Options tune a Cache. The zero value means Google's policy as described in
// the package documentation; a zero or negative field means its default.
type Options struct {
	// Lifetime is how long a good copy (a file, or the absence of one) is
	// used before it is fetched again, when the response has no
	// Cache-Control max-age. Default: 24 hours.
	Lifetime time.Duration
	// MinLifetime and MaxLifetime bound the lifetime that a Cache-Control
	// max-age sets. Default: 1 minute and 7 days.
	MinLifetime time.Duration
	MaxLifetime time.Duration

	// Retry is how long after a failed fetch (429, 5xx or network error)
	// the file is fetched again. Default: 1 hour.
	Retry time.Duration
	// Retry503 replaces Retry after a 503 Service Unavailable, which Google
	// retries "fairly frequently". Default: 10 minutes.
	Retry503 time.Duration
	// DisallowFor is how long, from the first of a run of failed fetches,
	// everything is disallowed. Default: 12 hours.
	DisallowFor time.Duration
	// StaleFor is how long, from the first of a run of failed fetches, the
	// last good copy is used once DisallowFor has passed. Default: 30 days.
	StaleFor time.Duration
	// Reachable reports whether the site whose robots.txt is at robotsURL
	// (as returned by robots.URL) is otherwise reachable. It is asked only
	// when fetches have failed for StaleFor: if it reports true, everything
	// is allowed, as if there were no robots.txt; if it is nil or reports
	// false, everything is disallowed. It must be safe for concurrent use.
	Reachable func(robotsURL string) bool

	// MaxHosts is the number of hosts (robots.txt URLs) kept; the least
	// recently used are forgotten beyond it. Default: 10,000.
	MaxHosts int
	// Timeout bounds one fetch: connection, redirects and body. The fetch
	// goes on when the caller that started it gives up, so that the callers
	// waiting with it get an answer. Default: 30 seconds.
	Timeout time.Duration
	// Now returns the current time. Default: time.Now.
	Now func() time.Time
	// Fetched, if not nil, is called after each fetch with what Robots
	// would have returned, before the callers waiting for the fetch go on;
	// for instance to log network errors. It must be safe for concurrent
	// use.
	Fetched func(res *Result, err error)
}

// withDefaults returns o with each unset field set to its default.
func (o Options) withDefaults() Options {
	orDefault := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	orDefault(&o.Lifetime, 24*time.Hour)
	orDefault(&o.MinLifetime, time.Minute)
	orDefault(&o.MaxLifetime, 7*24*time.Hour)
	orDefault(&o.Retry, time.Hour)
	orDefault(&o.Retry503, 10*time.Minute)
	orDefault(&o.DisallowFor, 12*time.Hour)
	orDefault(&o.StaleFor, 30*24*time.Hour)
	orDefault(&o.Timeout, 30*time.Second)
	if o.MaxHosts <= 0 {
		o.MaxHosts = 10_000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// lifetime returns how long a good copy fetched with response header h is
// used: its max-age kept within bounds, or the default lifetime.
func (o *Options) lifetime(h http.Header) time.Duration {
	if age, ok := maxAge(h); ok {
		return min(max(age, o.MinLifetime), o.MaxLifetime)
	}
	return o.Lifetime
}

// retry returns the delay before fetching again after a failure with HTTP
// status code (0 for a network error).
func (o *Options) retry(code int) time.Duration {
	if code == http.StatusServiceUnavailable {
		return o.Retry503
	}
	return o.Retry
}

// A Cache fetches and keeps the robots.txt files of many hosts and applies
// Google's caching and error policy to them (see the package documentation).
// It is safe for concurrent use.
type Cache struct {
	client    *http.Client
	userAgent string
	opts      Options // with defaults

	mu      sync.Mutex
	entries map[string]*list.Element // by robots.txt URL; each holds an *entry
	lru     list.List                // of *entry, most recently used first
}

// An entry is what a Cache knows of one robots.txt URL. Its fields are
// guarded by Cache.mu.
type entry struct {
	robotsURL string
	// good holds the rules of the last fetch that succeeded (Success or
	// Unavailable), or nil if none has.
	good *robots.Robots
	// failingSince is the time of the first of the fetches that have failed
	// since the last that succeeded, or zero if the last fetch succeeded.
	failingSince time.Time
	// next is when to fetch again, zero before the first fetch.
	next time.Time
	// done is closed when the fetch in progress ends; nil when none is.
	done chan struct{}
}

// NewCache returns a Cache that fetches with client (nil: one with a
// 30-second timeout) and sends userAgent as the User-Agent header, as Robots
// does, and that follows the policy opts sets.
func NewCache(client *http.Client, userAgent string, opts Options) *Cache {
	return &Cache{
		client:    client,
		userAgent: userAgent,
		opts:      opts.withDefaults(),
		entries:   make(map[string]*list.Element),
	}
}

// Allowed reports whether the crawler agent (a product token such as
// "ExampleBot", see robots.ProductToken) may fetch pageURL under the rules
// that apply now, fetching the robots.txt first if need be. It returns an
// error only when it cannot decide: pageURL is not an absolute http or https
// URL, or ctx ended while waiting for the fetch. A failed fetch is not an
// error here: its rules apply (see Options.Fetched to log it).
func (c *Cache) Allowed(ctx context.Context, agent, pageURL string) (bool, error) {
	r, err := c.Robots(ctx, pageURL)
	if err != nil {
		return false, err
	}
	return r.Allowed(agent, pageURL), nil
}

// Robots returns the rules that apply now to pageURL, a page URL or a
// robots.txt URL, fetching the robots.txt first if it has never been fetched
// or is due to be fetched again, or waiting for a fetch in progress. Errors
// are as for Allowed; the rules are never nil when the error is nil.
func (c *Cache) Robots(ctx context.Context, pageURL string) (*robots.Robots, error) {
	robotsURL, err := fetchableURL(pageURL)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	e := c.lookup(robotsURL)
	if e.done == nil && (e.next.IsZero() || !c.opts.Now().Before(e.next)) {
		e.done = make(chan struct{})
		go c.refresh(context.WithoutCancel(ctx), e)
	}
	done := e.done
	c.mu.Unlock()

	if done != nil {
		select {
		case <-done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return c.rules(e), nil
}

// lookup returns the entry of robotsURL, made if need be, and marks it as the
// most recently used, forgetting the least recently used beyond MaxHosts.
// c.mu must be held.
func (c *Cache) lookup(robotsURL string) *entry {
	if el, ok := c.entries[robotsURL]; ok {
		c.lru.MoveToFront(el)
		return el.Value.(*entry)
	}
	e := &entry{robotsURL: robotsURL}
	c.entries[robotsURL] = c.lru.PushFront(e)
	if c.lru.Len() > c.opts.MaxHosts {
		oldest := c.lru.Remove(c.lru.Back()).(*entry)
		delete(c.entries, oldest.robotsURL)
	}
	return e
}

// refresh fetches the robots.txt of e and records the result. ctx carries
// the values, not the cancellation, of the caller that started it.
func (c *Cache) refresh(ctx context.Context, e *entry) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	res, err := get(ctx, c.client, c.userAgent, e.robotsURL, &c.opts)
	if c.opts.Fetched != nil {
		c.opts.Fetched(res, err)
	}

	now := c.opts.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if res.Outcome == Unreachable {
		if e.failingSince.IsZero() {
			e.failingSince = now
		}
	} else {
		e.good, e.failingSince = res.Robots, time.Time{}
	}
	e.next = now.Add(res.TTL)
	close(e.done)
	e.done = nil
}

// rules returns the rules that apply now to the host of e, which has been
// fetched at least once. This is where Google's policy for server errors
// lives:
//
//	"1. For the first 12 hours, Google stops crawling the site but keeps
//	trying to fetch the robots.txt file.
//	2. If Google can't fetch a new version, for the next 30 days Google will
//	use the last good version, while still trying to fetch a new version.
//	[...] If there's no cached version available Google assumes there's no
//	crawl restrictions.
//	3. If the errors are still not fixed after 30 days:
//	- If the site is generally available to Google, Google will behave as if
//	there is no robots.txt file (but still keep checking for a new version).
//	- If the site has general availability problems, Google will stop
//	crawling the site, while still periodically requesting a robots.txt
//	file."
func (c *Cache) rules(e *entry) *robots.Robots {
	c.mu.Lock()
	good, failingSince := e.good, e.failingSince
	c.mu.Unlock()
	if failingSince.IsZero() {
		return good
	}
	switch failing := c.opts.Now().Sub(failingSince); {
	case failing < c.opts.DisallowFor:
		return robots.DisallowAll()
	case failing < c.opts.StaleFor:
		if good != nil {
			return good
		}
		return robots.AllowAll()
	case c.opts.Reachable != nil && c.opts.Reachable(e.robotsURL):
		return robots.AllowAll()
	}
	return robots.DisallowAll()
}
