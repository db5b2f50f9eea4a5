package fetch

import (
	"container/list"
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gorep/robots"
)

// A Cache fetches and keeps the robots.txt files of many hosts and applies
// Google's caching and error policy to them (see the package documentation).
// It is safe for concurrent use.
type Cache struct {
	client    *http.Client
	userAgent string
	opts      Options       // with defaults
	fetching  chan struct{} // a token per fetch in progress, MaxFetches at most
	stats     counters
	// aside holds the shards of the Store set aside after a fault.
	aside aside

	mu      sync.Mutex
	entries map[string]*list.Element // by robots.txt URL; each holds an *entry
	lru     list.List                // of *entry, most recently used first
	held    int64                    // the sum of the sizes of the entries
	// inFlight is the number of entries in lru with a refresh in progress.
	inFlight int
	// origins holds the robots.txt URLs of the plain origins asked about
	// (see plainOrigin), so that a question on a known host does not parse
	// its URL again; memoBytes is what it holds (see remember).
	origins   map[string]string
	memoBytes int64
	// refreshes counts the refreshes running, publish included; idle is
	// closed when the count falls to zero (see Flush).
	refreshes int
	idle      chan struct{}
}

// An entry is what a Cache knows of one robots.txt URL. Its fields are
// guarded by Cache.mu, and written only by the refresh in progress.
type entry struct {
	st   State
	good *robots.Robots // st's last good copy, parsed; nil if none
	copy *wellKnownCopy // the same for a well-known file; good is nil then
	kind *WellKnown     // of a well-known file; nil for a robots.txt
	// next is when to look again (in the Store, then by fetching): zero
	// before the first look.
	next time.Time
	// done is closed when the refresh in progress ends; nil when none is.
	done chan struct{}
	// run is the refresh in progress, nil when none is.
	run *run
	// err is the error of the last fetch if this Cache made it and it
	// failed on the network; nil otherwise.
	err  error
	size int64 // bytes held, as counted in Cache.held
	// el is the entry's place in Cache.lru, nil once forgotten.
	el *list.Element
}

// NewCache returns a Cache that fetches with client (nil: one with a
// 30-second timeout, a 64 KiB bound on response headers and a Guard, unless
// opts.AllowPrivate; see Get) and sends
// userAgent as the User-Agent header, as Get does, and that follows the
// policy opts sets.
func NewCache(client *http.Client, userAgent string, opts Options) *Cache {
	opts = opts.withDefaults()
	return &Cache{
		client:    client,
		userAgent: userAgent,
		opts:      opts,
		fetching:  make(chan struct{}, opts.MaxFetches),
		entries:   make(map[string]*list.Element),
		origins:   make(map[string]string),
	}
}

// UserAgent returns the User-Agent header that the Cache sends.
func (c *Cache) UserAgent() string { return c.userAgent }

// Now returns the current time by the Cache's clock (Options.Now).
func (c *Cache) Now() time.Time { return c.opts.Now() }

// Allowed reports whether the crawler agent may fetch pageURL under the
// rules that apply now, fetching the robots.txt first if need be.
//
// agent is a product token such as "ExampleBot", read as every front end
// of this module reads it (robots.CrawlerToken): a full User-Agent header
// such as "ExampleBot/1.0 (+https://example.com/bot)" is reduced to its
// token, so that it never silently falls to the "*" group; an empty agent,
// or one that names no crawler ("  ", a browser's header), is an error that
// quotes it.
//
// Allowed returns an error only when it cannot decide: agent has no token,
// pageURL is not an absolute http or https URL, or ctx ended while waiting
// for the fetch, or the fetch did not end in time (see Options.Timeout). A failed fetch is not an error here: its rules apply (see
// Options.Fetched to log it, and State to ask why).
func (c *Cache) Allowed(ctx context.Context, agent, pageURL string) (bool, error) {
	d, err := c.Decide(ctx, agent, pageURL)
	return d.Allowed, err
}

// Decide is Allowed, with what decided. When the error policy rather than a
// rule decided (a failed fetch, no file), Decision.Reason is
// robots.ReasonDisallowAll or robots.ReasonAllowAll, and State says which
// part of the policy applies and why.
func (c *Cache) Decide(ctx context.Context, agent, pageURL string) (robots.Decision, error) {
	token, err := productToken(agent)
	if err != nil {
		return robots.Decision{}, err
	}
	r, err := c.Robots(ctx, pageURL)
	if err != nil {
		return robots.Decision{}, err
	}
	return r.Decide(token, pageURL), nil
}

// productToken returns the token to ask the rules with for agent, by the
// rule every front end of this module follows (robots.CrawlerToken): a
// product token as given, a User-Agent header reduced to its token, and an
// error that quotes agent if it is empty or names no crawler.
func productToken(agent string) (string, error) {
	token, _, err := robots.CrawlerToken(agent)
	return token, err
}

// crawlerTokens returns the product tokens of agent, each by productToken's
// rule: agent's own, or, for a crawler that obeys several, spelled with
// commas (robots.SplitAgents), each of them.
func crawlerTokens(agent string) ([]string, error) {
	tokens := robots.SplitAgents(agent)
	for i, t := range tokens {
		var err error
		if tokens[i], err = productToken(t); err != nil {
			return nil, err
		}
	}
	return tokens, nil
}

// goodURL returns the URL the file of r came from, if r is the last good
// copy the Cache holds for robotsURL and a redirect led there (State.GoodURL);
// "" otherwise.
func (c *Cache) goodURL(robotsURL string, r *robots.Robots) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.entries[robotsURL]; ok {
		if e := el.Value.(*entry); e.good == r && r != nil {
			return e.st.GoodURL
		}
	}
	return ""
}

// refusal returns the error that refuses page to agent for decision d of
// the rules r of robotsURL.
func (c *Cache) refusal(agent, page string, d robots.Decision, robotsURL string, r *robots.Robots) *DisallowedError {
	e := &DisallowedError{URL: page, Agent: agent, Decision: d}
	if d.Reason == robots.ReasonRule {
		e.File = c.goodURL(robotsURL, r)
	} else if s, ok := c.State(page); ok { // the cache's policy decided
		e.State = s
	}
	return e
}

// State returns what the Cache knows now of the robots.txt URL that governs
// pageURL, without fetching it; false if the Cache does not hold it or
// pageURL is not a valid URL.
func (c *Cache) State(pageURL string) (HostState, bool) {
	robotsURL, err := fetchableURL(pageURL)
	if err != nil {
		return HostState{}, false
	}
	c.mu.Lock()
	el, ok := c.entries[robotsURL]
	var st State
	var next time.Time
	var ferr error
	if ok {
		e := el.Value.(*entry)
		st, next, ferr = e.st, e.next, e.err
	}
	c.mu.Unlock()
	if !ok {
		return HostState{}, false
	}
	p := c.opts.phaseOf(&st, c.opts.Now())
	return HostState{
		RobotsURL:    robotsURL,
		Outcome:      st.Outcome,
		StatusCode:   st.StatusCode,
		FetchedAt:    st.FetchedAt,
		GoodUntil:    st.GoodUntil,
		FailingSince: st.FailingSince,
		NextFetch:    next,
		Err:          ferr,
		Policy:       describe(p, &st, ferr),
	}, true
}
