package fetch

import (
	"container/list"
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
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

	// MaxBytes bounds the memory, in bytes, of what the Cache keeps: for
	// each host its state, its last good file and the parsed rules, and
	// the index from the origins of page URLs to robots.txt URLs (at most
	// a quarter of MaxBytes). The least recently used hosts are forgotten
	// beyond it. A host whose file alone takes more is kept while it is
	// the most recently used, and forgotten once another host is asked
	// about: the bound is then exceeded by that one host. Default: 256 MiB.
	MaxBytes int64
	// MaxHosts is the number of files (robots.txt URLs, and the
	// tdmrep.json URLs that Cache.TDMRep and Cache.Page ask about) kept;
	// the least recently used are forgotten beyond it. Hosts whose file is being
	// fetched do not count, and are never forgotten: more callers asking
	// about more hosts at once than MaxHosts each get their answer, and
	// the bound holds again once the fetches end. Default: 10,000.
	MaxHosts int
	// MaxFetches bounds the fetches in progress at once; more wait for
	// their turn. A fetch still waiting for its turn when every caller
	// waiting for it has left (its context ended, or Timeout passed) is
	// dropped, so that the queue holds no more than the callers: the next
	// question about the host starts another. Default: 64.
	MaxFetches int
	// Timeout bounds one fetch: connection, redirects and body. The fetch
	// goes on when the caller that started it gives up, so that the callers
	// waiting with it get an answer. It holds whatever the client's
	// transport does with the request's context (which carries the
	// deadline; a transport must keep req.Context() for the fetch itself
	// to stop): the Cache stops waiting, records a network error, and
	// drops what comes later. A caller waits for a fetch, its own or one
	// in progress (its turn among MaxFetches included), at most Timeout +
	// LeaseWait + 2 × StoreTimeout, and then gets an error; the fetch goes
	// on for the callers after it. Default: 30 seconds.
	Timeout time.Duration
	// AllowPrivate, if true, lets the Cache's default client (when
	// NewCache is given none) connect to every address, those of the
	// crawler's own network included: for an intranet crawler whose hosts
	// have names. Without it, a Guard refuses them (see Guard).
	AllowPrivate bool
	// Now returns the current time. Default: time.Now.
	Now func() time.Time
	// Fetched, if not nil, is called after each fetch with what Robots
	// would have returned, before the callers waiting for the fetch go on;
	// for instance to log network errors. A tdmrep.json fetch is reported
	// too: its Result.URL ends in /.well-known/tdmrep.json. It must be safe
	// for concurrent use.
	Fetched func(res *Result, err error)

	// Store, if not nil, is where the state of each host is shared with
	// other Caches (in other processes, on other machines): they fetch
	// each file once between them and answer alike. Nil: the state lives
	// in this Cache alone.
	Store Store
	// StoreTimeout bounds each call to Store; past it, the call is a
	// fault. Default: 200 milliseconds.
	StoreTimeout time.Duration
	// LeaseWait bounds how long a Cache that knows a copy of a file (the
	// last good one, or a run of failures) waits for another Cache's fetch
	// of it before it answers by the policy on that copy and looks again.
	// A Cache that knows nothing of the file waits for the other's fetch as
	// for one of its own, up to Timeout and StoreTimeout, rather than
	// answer "disallow all: not fetched yet" to a page the file may allow;
	// past that, or as soon as the lease comes free, it fetches the file
	// itself. Default: 500 milliseconds.
	LeaseWait time.Duration
	// StoreFault, if not nil, is called when a call to Store fails (an
	// error, or no answer within StoreTimeout). The Cache then goes on as
	// if it had no Store, applying the policy to what it knows itself, and
	// tries the Store again a second later: a Store that is down or slow
	// delays a question by at most StoreTimeout, and LeaseWait bounds the
	// wait for another Cache's fetch of a file this one knows. A
	// ShardedStore (a Redis Cluster) is set aside only in the shard that
	// failed. It must be safe for concurrent use.
	StoreFault func(robotsURL string, err error)
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
	orDefault(&o.StoreTimeout, 200*time.Millisecond)
	orDefault(&o.LeaseWait, 500*time.Millisecond)
	if o.MaxBytes <= 0 {
		o.MaxBytes = 256 << 20
	}
	if o.MaxHosts <= 0 {
		o.MaxHosts = 10_000
	}
	if o.MaxFetches <= 0 {
		o.MaxFetches = 64
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// maxRefresh returns the longest a refresh takes once its turn among the
// MaxFetches has come: two calls to the Store, then a fetch or a wait for
// another Cache's. A caller waits no longer for a refresh.
func (o *Options) maxRefresh() time.Duration {
	return o.Timeout + o.LeaseWait + 2*o.StoreTimeout
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
	tdm  *tdmFile       // the same for a tdmrep.json; good is nil then
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
// commas as signals.Decide reads them ("googlebot-news,googlebot"), each of
// them. A value with "/", ";", "(" or ")" is a User-Agent header: one
// agent, whatever its commas.
func crawlerTokens(agent string) ([]string, error) {
	tokens := []string{agent}
	if !strings.ContainsAny(agent, "/;()") {
		tokens = strings.Split(agent, ",")
	}
	for i, t := range tokens {
		var err error
		if tokens[i], err = productToken(strings.TrimSpace(t)); err != nil {
			return nil, err
		}
	}
	return tokens, nil
}

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
	k, err := c.knownLocked(ctx, robotsURL, now)
	if err != nil {
		return nil, err
	}
	return rulesIn(c.opts.phaseOf(&k.st, k.now), k.good), nil
}

// known is what a Cache knows of one file at now: its State, its last good
// copy parsed (good for a robots.txt file, tdm for a tdmrep.json).
type known struct {
	st   State
	good *robots.Robots
	tdm  *tdmFile
	now  time.Time
}

// knownLocked returns what the Cache knows of the file at robotsURL (a
// robots.txt URL, or a well-known file's) at now, after the refresh it is
// due, or the one in progress, as Robots describes. It is called with c.mu
// held, and releases it.
func (c *Cache) knownLocked(ctx context.Context, robotsURL string, now time.Time) (known, error) {
	e := c.lookup(robotsURL)
	switch {
	case e.done != nil:
		c.stats.waits.Add(1)
	case e.next.IsZero() || !now.Before(e.next):
		c.stats.misses.Add(1)
		e.done, e.run = make(chan struct{}), &run{}
		c.inFlight++
		if c.refreshes++; c.refreshes == 1 {
			c.idle = make(chan struct{})
		}
		go c.refresh(context.WithValue(context.WithoutCancel(ctx), runKey{}, e.run), e)
	default:
		c.stats.hits.Add(1)
	}
	done, run := e.done, e.run
	k := known{st: e.st, good: e.good, tdm: e.tdm, now: now}
	if done != nil {
		run.join()
	}
	c.mu.Unlock()

	if done != nil {
		// Bounded whatever ctx holds: a transport that loses the fetch's
		// context could otherwise keep this caller for ever.
		wait := time.NewTimer(c.opts.maxRefresh())
		defer wait.Stop()
		select {
		case <-done:
		case <-ctx.Done():
			c.leave(run)
			return known{}, ctx.Err()
		case <-wait.C:
			c.leave(run)
			return known{}, fmt.Errorf("robots: no answer for %s within %v (Options.Timeout, LeaseWait and twice StoreTimeout): %w",
				robotsURL, c.opts.maxRefresh(), context.DeadlineExceeded)
		}
		c.mu.Lock()
		if run.abandoned {
			// Abandoned as this caller came: it asks again.
			return c.knownLocked(ctx, robotsURL, c.opts.Now())
		}
		k = known{st: e.st, good: e.good, tdm: e.tdm}
		c.mu.Unlock()
		k.now = c.opts.Now()
	}
	return k, nil
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

// refresh brings e up to date, from the Store or by fetching, and records
// the result. ctx carries the values, not the cancellation, of the caller
// that started it.
func (c *Cache) refresh(ctx context.Context, e *entry) {
	c.mu.Lock()
	st := e.st
	c.mu.Unlock()
	// The error of a fetch comes back through ctx, past the Store's logic.
	var ferr error
	next, fresh, lease := c.update(context.WithValue(ctx, fetchErrKey{}, &ferr), &st)
	var good *robots.Robots
	var tdm *tdmFile
	switch {
	case fresh && isTDMRepURL(st.RobotsURL):
		tdm = st.goodTDMRep()
	case fresh:
		good = st.goodRules()
	}

	c.mu.Lock()
	if fresh {
		e.st, e.good, e.tdm, e.err = st, good, tdm, ferr
	}
	e.next = next
	close(e.done)
	e.done, e.run = nil, nil
	c.inFlight--
	if e.el != nil {
		// Just used by the callers that waited for it: the most recently
		// used, not the next to go.
		c.lru.MoveToFront(e.el)
		c.resize(e)
	}
	c.evict()
	c.mu.Unlock()

	if lease != nil {
		// After the callers have their answer: a slow Store does not
		// keep them waiting.
		c.publish(ctx, st, lease)
	}
	c.mu.Lock()
	if c.refreshes--; c.refreshes == 0 {
		close(c.idle)
	}
	c.mu.Unlock()
}

// Flush waits until every fetch the Cache has started has ended and, with
// a Store, has been saved there and its lease released; it returns ctx's
// error if ctx ends first. An answer does not wait for the Store (the
// fetch is saved after the callers have it), so a process that exits
// right after its last question should Flush first: otherwise its last
// fetches never reach the fleet, and the others wait a lease term
// (redisstore: 2 seconds) before they fetch those files again.
func (c *Cache) Flush(ctx context.Context) error {
	c.mu.Lock()
	idle := c.idle
	busy := c.refreshes > 0
	c.mu.Unlock()
	if !busy {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fetch fetches the robots.txt of st and updates st with the result. The
// caller holds a turn (c.fetching).
func (c *Cache) fetch(ctx context.Context, st *State) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.Timeout)
	defer cancel()
	client := c.client
	if client == nil && c.opts.AllowPrivate {
		client = openClient()
	}
	res, err := get(ctx, client, c.userAgent, st.RobotsURL, &c.opts)
	if p, ok := ctx.Value(fetchErrKey{}).(*error); ok {
		*p = err
	}
	c.stats.fetches[res.Outcome].Add(1)
	if c.opts.Fetched != nil {
		c.opts.Fetched(res, err)
	}
	*st = st.after(res, c.opts.Now())
}

// fetchErrKey is the key of the context value through which fetch hands the
// error of a fetch to the refresh that made it: a *error.
type fetchErrKey struct{}
