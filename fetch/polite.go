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
// start. It is safe for concurrent use.
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
// taken.
func (p *Politeness) Wait(ctx context.Context, pageURL string) error {
	key, err := robots.URL(pageURL)
	if err != nil {
		return err
	}
	r, err := p.cache.Robots(ctx, key) // a robots.txt URL is shorter to parse again
	if err != nil {
		return err
	}
	return p.wait(ctx, key, r)
}

// wait is Wait for the host with robots.txt URL key, whose rules are r.
func (p *Politeness) wait(ctx context.Context, key string, r *robots.Robots) error {
	p.mu.Lock()
	now := p.opts.Now()
	h := p.slot(key, now)
	start := h.next
	if start.Before(now) {
		start = now
	}
	h.next = start.Add(p.delay(h, r, now))
	taken := h.next
	p.mu.Unlock()

	d := start.Sub(now)
	if d <= 0 {
		return nil
	}
	if err := p.opts.Sleep(ctx, d); err != nil {
		p.giveBack(key, taken, start)
		return err
	}
	p.waits.Add(1)
	p.waited.Add(int64(d))
	return nil
}

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
