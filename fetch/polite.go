package fetch

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorep/robots"
)

// PoliteOptions tune a Politeness. A zero or negative field means its
// default.
type PoliteOptions struct {
	// DefaultDelay is the time between the starts of two requests to a
	// host whose robots.txt gives the crawler neither a crawl-delay nor a
	// request-rate (or gives a request-rate outside its window). Default:
	// none, requests to such a host go at once.
	DefaultDelay time.Duration
	// MaxDelay caps the delay a robots.txt file asks for, so that
	// "Crawl-delay: 86400" does not stop a crawler for a day on one host.
	// Default: 1 minute.
	MaxDelay time.Duration
	// MaxHosts is the number of hosts whose next slot is remembered. Hosts
	// whose slot has passed carry nothing to remember and are forgotten
	// first; beyond the bound with every host busy, the one due soonest is
	// forgotten. Default: 10,000.
	MaxHosts int
	// Now returns the current time. Default: time.Now.
	Now func() time.Time
	// Sleep waits for d or until ctx ends, and then returns ctx.Err().
	// Default: a timer.
	Sleep func(ctx context.Context, d time.Duration) error
}

// withDefaults returns o with each unset field set to its default.
func (o PoliteOptions) withDefaults() PoliteOptions {
	o.DefaultDelay = max(o.DefaultDelay, 0)
	if o.MaxDelay <= 0 {
		o.MaxDelay = time.Minute
	}
	if o.MaxHosts <= 0 {
		o.MaxHosts = 10_000
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	return o
}

// sleep waits for d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// A Politeness spaces the requests of one crawler to each host as the host's
// robots.txt asks: before each request, Wait returns when the request may
// start; or, without blocking, Next says when the host is next free and
// Reserve takes its next slot and says when it starts. It is safe for
// concurrent use.
//
// The delay between the starts of two requests to a host is the larger of
// the crawl-delay of the crawler's group and the interval of its
// request-rate ("1/5": 5 seconds), capped at MaxDelay; DefaultDelay when the
// file gives neither. A request-rate with a time window ("1/5 0800-1700")
// counts only inside its window. Visit-time is ignored: it names hours of
// the day, and waiting for them would hold a worker for up to a day; a
// crawler that honours it should skip the host outside its window
// (robots.Robots.VisitTime) rather than wait. Google ignores all three.
//
// Hosts are independent: each has its own next free slot, taken under a
// short lock and waited for outside it, so a slow host never delays
// another. No goroutine is started.
type Politeness struct {
	cache *Cache
	agent string
	opts  PoliteOptions // with defaults

	mu    sync.Mutex
	hosts map[string]*hostSlot // by robots.txt URL

	waits  atomic.Int64 // calls of Wait that slept
	waited atomic.Int64 // nanoseconds slept
}

// A hostSlot is the schedule of one host, guarded by Politeness.mu.
type hostSlot struct {
	// next is the earliest start of the next request.
	next time.Time
	// rules are the rules the delays below were read from; they are read
	// again when the cache hands out other rules.
	rules         *robots.Robots
	crawlDelay    time.Duration
	hasCrawlDelay bool
	rate          robots.RequestRate
	hasRate       bool
}

// WaitStats count the waits of a Politeness since it was made.
type WaitStats struct {
	// Waits is the number of calls of Wait that had to sleep.
	Waits int64
	// Waited is the total time they slept.
	Waited time.Duration
}

// NewPoliteness returns a Politeness for the crawler whose User-Agent header
// cache sends, reading the delays from the robots.txt files that cache
// holds. It returns an error if that header names no crawler (see
// robots.ProductToken).
func NewPoliteness(cache *Cache, opts PoliteOptions) (*Politeness, error) {
	agent, err := agentToken(cache.UserAgent())
	if err != nil {
		return nil, err
	}
	return &Politeness{
		cache: cache,
		agent: agent,
		opts:  opts.withDefaults(),
		hosts: make(map[string]*hostSlot),
	}, nil
}

// Wait returns when a request for pageURL may start, fetching the host's
// robots.txt first if the cache needs to. It returns an error if pageURL is
// not an absolute http or https URL, or ctx ended first; then no slot is
// taken. When the host's next slot comes after ctx's deadline, Wait does
// not sleep: it returns at once an error that names the host and its delay,
// and wraps context.DeadlineExceeded.
//
// Wait blocks its caller until the host is free: a worker pool whose
// workers Wait shares its workers among the hosts of its queue, and one
// host with a long crawl-delay can hold them all. Next and Reserve never
// wait on a host (see the example of Reserve).
func (p *Politeness) Wait(ctx context.Context, pageURL string) error {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return err
	}
	return p.wait(ctx, key, r)
}

// Next returns when a request for pageURL may start at the earliest: now,
// or the host's next free slot. It takes nothing, so another caller may
// take that slot first; Reserve takes it. It waits only for the host's
// robots.txt if the cache needs to fetch it.
func (p *Politeness) Next(ctx context.Context, pageURL string) (time.Time, error) {
	key, _, err := p.rules(ctx, pageURL)
	if err != nil {
		return time.Time{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.opts.Now()
	if h, ok := p.hosts[key]; ok && h.next.After(now) {
		return h.next, nil
	}
	return now, nil
}

// Reserve takes the next free slot of pageURL's host and returns when it
// starts: now, or later. The request must not start before then; the slot
// is the caller's whether it uses it or not (the one after it is a delay
// later). Unlike Wait, Reserve never sleeps: it waits only for the host's
// robots.txt if the cache needs to fetch it. A worker pool reserves, sets
// a page whose slot is later aside until then, and goes on with other
// hosts, so that no host holds up the others.
func (p *Politeness) Reserve(ctx context.Context, pageURL string) (time.Time, error) {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return time.Time{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	start, _, _ := p.take(key, r, p.opts.Now())
	return start, nil
}

// rules returns the robots.txt URL of pageURL and the rules that apply to
// it now.
func (p *Politeness) rules(ctx context.Context, pageURL string) (string, *robots.Robots, error) {
	key, err := robots.URL(pageURL)
	if err != nil {
		return "", nil, err
	}
	r, err := p.cache.Robots(ctx, key) // a robots.txt URL is shorter to parse again
	if err != nil {
		return "", nil, err
	}
	return key, r, nil
}

// take takes the next free slot of the host with robots.txt URL key, whose
// rules are r, at time now. It returns when the slot starts, the host's next
// slot after it, and the delay between the two. p.mu must be held.
func (p *Politeness) take(key string, r *robots.Robots, now time.Time) (start, taken time.Time, delay time.Duration) {
	h := p.slot(key, now)
	start = h.next
	if start.Before(now) {
		start = now
	}
	delay = p.delay(h, r, now)
	h.next = start.Add(delay)
	return start, h.next, delay
}

// wait is Wait for the host with robots.txt URL key, whose rules are r.
func (p *Politeness) wait(ctx context.Context, key string, r *robots.Robots) error {
	p.mu.Lock()
	now := p.opts.Now()
	start, taken, delay := p.take(key, r, now)
	p.mu.Unlock()

	d := start.Sub(now)
	if d <= 0 {
		return nil
	}
	if deadline, ok := ctx.Deadline(); ok && d > time.Until(deadline) {
		p.giveBack(key, taken, start)
		return &delayError{robotsURL: key, delay: delay, wait: d, err: context.DeadlineExceeded}
	}
	if err := p.opts.Sleep(ctx, d); err != nil {
		p.giveBack(key, taken, start)
		return &delayError{robotsURL: key, delay: delay, wait: d, err: err, during: true}
	}
	p.waits.Add(1)
	p.waited.Add(int64(d))
	return nil
}

// A delayError says that a Wait for a host's crawl-delay could not end
// before its context did.
type delayError struct {
	robotsURL   string
	delay, wait time.Duration
	err         error // the context's
	during      bool  // the context ended while sleeping
}

func (e *delayError) Error() string {
	what := "the crawl-delay of " + e.robotsURL + " (" + e.delay.String() + " between requests)"
	if e.during {
		return "robots: waiting " + e.wait.String() + " for " + what + ": " + e.err.Error()
	}
	return "robots: " + what + " puts this request " + e.wait.String() + " away, past its deadline: " + e.err.Error()
}

func (e *delayError) Unwrap() error { return e.err }

// Stats returns the counts of waits so far; it takes no lock.
func (p *Politeness) Stats() WaitStats {
	return WaitStats{Waits: p.waits.Load(), Waited: time.Duration(p.waited.Load())}
}

// slot returns the schedule of the host with robots.txt URL key, made if
// need be, forgetting hosts beyond MaxHosts. p.mu must be held.
func (p *Politeness) slot(key string, now time.Time) *hostSlot {
	if h, ok := p.hosts[key]; ok {
		return h
	}
	if len(p.hosts) >= p.opts.MaxHosts {
		p.forget(now)
	}
	h := &hostSlot{}
	p.hosts[key] = h
	return h
}

// forget drops the hosts whose next slot has passed; if none has, the one
// due soonest. p.mu must be held.
func (p *Politeness) forget(now time.Time) {
	var soonest string
	var soonestAt time.Time
	for key, h := range p.hosts {
		if !h.next.After(now) {
			delete(p.hosts, key)
		} else if soonest == "" || h.next.Before(soonestAt) {
			soonest, soonestAt = key, h.next
		}
	}
	if len(p.hosts) >= p.opts.MaxHosts {
		delete(p.hosts, soonest)
	}
}

// giveBack returns the slot that starts at start to the host with robots.txt
// URL key, after a Wait that took it was cancelled, unless a later call
// has taken the next one already.
func (p *Politeness) giveBack(key string, taken, start time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.hosts[key]; ok && h.next.Equal(taken) {
		h.next = start
	}
}

// delay returns the time between two requests to the host of h, whose rules
// are r, at time now. p.mu must be held.
func (p *Politeness) delay(h *hostSlot, r *robots.Robots, now time.Time) time.Duration {
	if h.rules != r {
		h.rules = r
		h.crawlDelay, h.hasCrawlDelay = r.CrawlDelay(p.agent)
		h.rate, h.hasRate = r.RequestRate(p.agent)
		h.hasRate = h.hasRate && h.rate.Requests > 0
	}
	d, ok := h.crawlDelay, h.hasCrawlDelay
	if h.hasRate && (h.rate.Window == robots.VisitTime{} || h.rate.Window.Contains(now)) {
		d, ok = max(d, h.rate.Per/time.Duration(h.rate.Requests)), true
	}
	if !ok {
		d = p.opts.DefaultDelay
	}
	return min(d, p.opts.MaxDelay)
}
