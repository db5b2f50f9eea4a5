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
	// MaxRetryAfter caps the Retry-After of a page answered 429, 500 or
	// 503: the host gets no request for that long at most. Default: 1 hour.
	MaxRetryAfter time.Duration
	// MaxBackoff caps the back-off after pages answered 429, 500 or 503
	// without a Retry-After: it doubles with each such answer, from twice
	// the host's delay (a second at least), and halves with each good one.
	// Default: 10 minutes.
	MaxBackoff time.Duration
	// FleetSize is the number of processes sharing the Cache's SlotStore.
	// While this one cannot reach the Store (down, slow, failing over) it
	// takes its slots in memory, and each process then spaces its own
	// requests to a host by the delay: the fleet's rate would be FleetSize
	// times the host's. It spaces them by FleetSize times the delay
	// instead, so that the fleet stays within the host's rate. Default: 1.
	FleetSize int
	// FirstHold bounds how long the first request to a host holds it: no
	// second request to a host goes until it has answered the first (see
	// Answered), or FirstHold has passed since that was sent, so that a
	// first request that hangs, or whose answer is never reported, does
	// not hold the host for ever. Default: 30 seconds.
	FirstHold time.Duration
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
	if o.MaxRetryAfter <= 0 {
		o.MaxRetryAfter = time.Hour
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 10 * time.Minute
	}
	o.FleetSize = max(o.FleetSize, 1)
	if o.FirstHold <= 0 {
		o.FirstHold = 30 * time.Second
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
// robots.txt asks, and as the host itself asks when it answers 429, 500 or
// 503: before each request, Wait returns when the request may start; or,
// without blocking, Next says when the host is next free and Reserve takes
// its next slot and says when it starts. A Queue hands out URLs as their
// hosts come free. It is safe for concurrent use.
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
// A site's slow-down (see Answered) moves the host's next slot: to its
// Retry-After, or by a back-off that doubles with each such answer and
// halves with each good one.
//
// A crawler learns a host's state from its first answer, so the first
// request to a host goes alone: until the host has answered it (any
// status, or the request failed), or FirstHold has passed, no second slot
// is handed out for it, in this process or, with a SlotStore, in the
// fleet. Otherwise requests sent before a host's 503 arrives would reach it
// after its Retry-After. The slots a polite Transport waits for and those
// a Queue hands out hold a host so, as their answers are reported (the
// Transport reports them); those of Wait and Reserve do not, as their
// callers may never call Answered, but they too wait for the answer to a
// first request that holds the host. A Queue hands out other hosts' URLs
// meanwhile.
//
// When the Cache's Store is a SlotStore (redisstore on Redis or a Redis
// Cluster), the slots are kept there, one call per slot taken, and every
// Politeness of the fleet, in every process, spaces its requests to a host
// as one: the Store's clock sets the schedule, and the workers' clocks do
// not matter. A worker starts its request when the Store's answer arrives
// plus the wait it gives, so two requests to a host start the delay apart
// give or take the difference between the two workers' trips back from the
// Store and their connection set-up: under a millisecond on a LAN, within
// 5 % of a one-second delay as measured at the hosts (examples/fleet). Otherwise, and while the Store fails, they are kept in
// memory: hosts are independent, each with its own next free slot, taken
// under a short lock and waited for outside it, so a slow host never
// delays another. No goroutine is started.
type Politeness struct {
	cache *Cache
	agent string
	opts  PoliteOptions // with defaults
	slots SlotStore     // the Cache's Store, if it is one

	mu    sync.Mutex
	hosts map[string]*hostSlot // by robots.txt URL

	stats politeCounters
	// backingOff counts the hosts in hosts with a back-off, and firsts
	// those whose first answer p awaits, so that a good answer from any
	// host costs nothing while there are none.
	backingOff, firsts atomic.Int64
}

// WaitStats count what a Politeness did since it was made.
type WaitStats struct {
	// Waits is the number of calls of Wait that had to sleep.
	Waits int64
	// Waited is the total time they slept.
	Waited time.Duration
	// Slots counts the slots taken; Shared those taken in the SlotStore,
	// and Alone those taken in memory while it failed (see FleetSize).
	// Without a SlotStore, Slots alone counts.
	Slots, Shared, Alone int64
	// StoreFaults counts the calls to the SlotStore that failed.
	StoreFaults int64
	// SlowDowns counts the answers 429, 500 and 503 that moved a host's
	// next slot (Answered).
	SlowDowns int64
}

// politeCounters are the atomic counters behind WaitStats.
type politeCounters struct {
	waits, waited, slots, shared, alone, faults, slowDowns atomic.Int64
}

// NewPoliteness returns a Politeness for the crawler whose User-Agent header
// cache sends, reading the delays from the robots.txt files that cache
// holds, and keeping the slots in cache's Store if it is a SlotStore. It
// returns an error if that header names no crawler (see
// robots.ProductToken).
func NewPoliteness(cache *Cache, opts PoliteOptions) (*Politeness, error) {
	agent, err := agentToken(cache.UserAgent())
	if err != nil {
		return nil, err
	}
	slots, _ := cache.opts.Store.(SlotStore)
	return &Politeness{
		cache: cache,
		agent: agent,
		opts:  opts.withDefaults(),
		slots: slots,
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
// host with a long crawl-delay can hold them all. A Queue never waits on a
// host while another is ready.
func (p *Politeness) Wait(ctx context.Context, pageURL string) error {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return err
	}
	return p.wait(ctx, key, r, false)
}

// Next returns when a request for pageURL may start at the earliest: now,
// or the host's next free slot (while the host's first request is
// unanswered, the end of its hold, at the latest). It takes nothing, so
// another caller may take that slot first; Reserve takes it. It waits only
// for the host's robots.txt if the cache needs to fetch it, and for the
// SlotStore.
func (p *Politeness) Next(ctx context.Context, pageURL string) (time.Time, error) {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return time.Time{}, err
	}
	res, now := p.apply(ctx, key, r, SlotRequest{Op: SlotPeek})
	return now.Add(res.Wait), nil
}

// Reserve takes the next free slot of pageURL's host and returns when it
// starts: now, or later. The request must not start before then; the slot
// is the caller's whether it uses it or not (the one after it is a delay
// later). Unlike Wait, Reserve does not sleep until the slot: it waits
// only for the host's robots.txt if the cache needs to fetch it, for the
// SlotStore, and for the answer to the host's first request if one is
// out; it returns ctx's error if ctx ends first.
func (p *Politeness) Reserve(ctx context.Context, pageURL string) (time.Time, error) {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return time.Time{}, err
	}
	res, now, err := p.take(ctx, key, r, false, false)
	if err != nil {
		return time.Time{}, err
	}
	return now.Add(res.Wait), nil
}

// firstPoll is how often a worker that waits for a host's first answer
// asks the slots again: the answer may come from another process.
const firstPoll = 50 * time.Millisecond

// take takes a slot of the host with robots.txt URL key, whose rules are
// r (SlotTake; SlotTry within ctx's deadline if byDeadline and ctx has
// one), asking again every firstPoll while the host's first request is
// unanswered, until ctx ends (then it returns ctx's error and the last
// result). If first, a host's first slot holds it until its answer.
func (p *Politeness) take(ctx context.Context, key string, r *robots.Robots, byDeadline, first bool) (SlotResult, time.Time, error) {
	for {
		req := SlotRequest{Op: SlotTake}
		if deadline, ok := ctx.Deadline(); ok && byDeadline {
			req = SlotRequest{Op: SlotTry, Within: max(time.Until(deadline), 0)}
		}
		if first {
			req.FirstHold = p.opts.FirstHold
		}
		res, now := p.apply(ctx, key, r, req)
		if !res.Held {
			return res, now, nil
		}
		d := min(res.Wait, firstPoll)
		if err := p.opts.Sleep(ctx, d); err != nil {
			return res, now, err
		}
		p.stats.waited.Add(int64(d))
	}
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

// wait is Wait for the host with robots.txt URL key, whose rules are r;
// the slot it takes holds the host if first and it is the host's first. A
// slot after ctx's deadline is not taken (SlotTry); a slot taken in memory
// is given back if ctx ends during the sleep (one taken in a SlotStore is
// not: the host then waits one delay more, and if it was the host's first,
// until FirstHold has passed).
func (p *Politeness) wait(ctx context.Context, key string, r *robots.Robots, first bool) error {
	res, now, err := p.take(ctx, key, r, true, first)
	d := res.Wait
	if err != nil {
		return &delayError{robotsURL: key, delay: p.spacing(key), wait: d, err: err, during: true}
	}
	if !res.Taken {
		return &delayError{robotsURL: key, delay: p.spacing(key), wait: d, err: context.DeadlineExceeded}
	}
	if d <= 0 {
		return nil
	}
	if err := p.opts.Sleep(ctx, d); err != nil {
		p.giveBack(key, now.Add(d), res.First)
		return &delayError{robotsURL: key, delay: p.spacing(key), wait: d, err: err, during: true}
	}
	p.stats.waits.Add(1)
	p.stats.waited.Add(int64(d))
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

// Stats returns the counts so far; it takes no lock. A nil Politeness has
// done nothing.
func (p *Politeness) Stats() WaitStats {
	if p == nil {
		return WaitStats{}
	}
	s := &p.stats
	return WaitStats{
		Waits: s.waits.Load(), Waited: time.Duration(s.waited.Load()),
		Slots: s.slots.Load(), Shared: s.shared.Load(), Alone: s.alone.Load(),
		StoreFaults: s.faults.Load(), SlowDowns: s.slowDowns.Load(),
	}
}
