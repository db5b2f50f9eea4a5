package fetch

import (
	"container/heap"
	"context"
	"errors"
	"net/url"
	"sync"
	"time"

	"github.com/gorep/robots"
)

// ErrQueueDone is returned by Queue.Next once the queue is closed and every
// URL pushed has been handed out.
var ErrQueueDone = errors.New("robots: queue closed and empty")

// queueLead is how soon a host's slot must start for Queue.Next to take
// it; Next then sleeps until the slot starts. It saves a call to the
// SlotStore when a worker's timer fires a little before the Store's clock.
const queueLead = 5 * time.Millisecond

// QueueOptions tune a Queue. A zero field means its default.
type QueueOptions struct {
	// MaxURLs bounds the URLs waiting in the queue; Push waits for room.
	// Default: 100,000.
	MaxURLs int
}

// A Queue hands a crawler's workers the URLs pushed to it, each as soon as
// its host is free, so that no worker waits on a host while another host is
// ready: a worker calls Next, which returns a URL whose slot it has taken
// (the request may start at once), or waits until a host comes free. The
// slots are those of a Politeness (that of a Transport shares its answers'
// slow-downs; with a SlotStore, those of the whole fleet). URLs of one host
// come out in the order pushed; hosts free at once take turns, the one
// served longest ago first. Fetch them with a Transport that is not Polite:
// a Polite one would take a second slot for each, and wait for it.
//
// A Queue keeps at most MaxURLs URLs, and what it knows of their hosts. It
// is safe for concurrent use, and starts no goroutine.
type Queue struct {
	p   *Politeness
	max int

	mu      sync.Mutex
	hosts   map[string]*queueHost // by robots.txt URL, those with URLs
	free    hostHeap              // the hosts with URLs that no Next is taking
	n       int                   // the URLs not yet handed out
	served  uint64                // counts the URLs handed out
	closed  bool
	changed chan struct{} // closed, and replaced, when the above change
}

// A queueHost is the URLs of one host waiting in a Queue.
type queueHost struct {
	key    string
	urls   []string // urls[head:] wait, in the order pushed
	head   int
	free   time.Time // when the host is next free, as last seen
	served uint64    // Queue.served when a URL of it was last handed out
	index  int       // in Queue.free; -1 if not there
	taking bool      // a Next is taking a slot for urls[head]
}

// NewQueue returns an empty Queue over the slots of p.
func NewQueue(p *Politeness, opts QueueOptions) *Queue {
	if opts.MaxURLs <= 0 {
		opts.MaxURLs = 100_000
	}
	return &Queue{p: p, max: opts.MaxURLs, hosts: make(map[string]*queueHost), changed: make(chan struct{})}
}

// Push adds pageURL to the queue, waiting while it is full until ctx ends.
// It returns an error if pageURL is not an absolute http or https URL, if
// ctx ended, or if the queue is closed.
func (q *Queue) Push(ctx context.Context, pageURL string) error {
	key, err := robots.URL(pageURL)
	if err != nil {
		return err
	}
	q.mu.Lock()
	for q.n >= q.max && !q.closed {
		changed := q.changed
		q.mu.Unlock()
		select {
		case <-changed:
		case <-ctx.Done():
			return ctx.Err()
		}
		q.mu.Lock()
	}
	defer q.mu.Unlock()
	if q.closed {
		return errors.New("robots: push to a closed queue")
	}
	h, ok := q.hosts[key]
	if !ok {
		h = &queueHost{key: key, index: -1}
		q.hosts[key] = h
	}
	h.urls = append(h.urls, pageURL)
	q.n++
	if h.index < 0 && !h.taking {
		heap.Push(&q.free, h)
	}
	q.signal()
	return nil
}

// Close says that no more URLs will be pushed: Next returns ErrQueueDone
// once the queue is empty.
func (q *Queue) Close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.signal()
}

// Len returns the number of URLs not yet handed out.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

// Next returns the next URL whose host is free, after taking its slot: the
// request may start at once. It waits until a host comes free, or a URL is
// pushed, or ctx ends (then it returns "" and ctx's error); it returns ""
// and ErrQueueDone once the queue is closed and empty.
//
// A URL that will not be fetched comes out at once, with its error and no
// slot taken: a *DisallowedError (errors.Is ErrDisallowed) when the rules
// disallow it, or the error of its robots.txt when the cache cannot answer.
// The first URL of a host waits for its robots.txt, holding that host only;
// its next URL comes out once the first has been answered (see
// PoliteOptions.FirstHold), so fetch them with a Transport over the same
// Politeness, or report each answer with Politeness.Answered.
func (q *Queue) Next(ctx context.Context) (string, error) {
	for {
		q.mu.Lock()
		if q.closed && q.n == 0 {
			q.mu.Unlock()
			return "", ErrQueueDone
		}
		var wait time.Duration
		var h *queueHost
		if len(q.free) > 0 {
			h = q.free[0]
			wait = h.free.Sub(q.p.opts.Now())
		}
		if h == nil || wait > 0 {
			changed := q.changed
			q.mu.Unlock()
			if err := q.await(ctx, changed, h != nil, wait); err != nil {
				return "", err
			}
			continue
		}
		heap.Pop(&q.free)
		h.taking = true
		page := h.urls[h.head]
		q.mu.Unlock()

		key, res, now, err := q.p.try(ctx, page, queueLead)
		if ctx.Err() != nil {
			q.requeue(h, time.Time{}, false)
			return "", ctx.Err()
		}
		if err != nil || res.Taken {
			q.requeue(h, q.p.nextFree(key, now), true)
			if err == nil && res.Wait > 0 {
				q.p.opts.Sleep(ctx, res.Wait) // at most queueLead
			}
			return page, err
		}
		if res.Held { // ask again soon: the first answer may come any time
			res.Wait = min(res.Wait, firstPoll)
		}
		q.requeue(h, now.Add(res.Wait), false)
	}
}

// await waits until the queue changes, ctx ends, or (if timed) wait has
// passed.
func (q *Queue) await(ctx context.Context, changed chan struct{}, timed bool, wait time.Duration) error {
	var timer <-chan time.Time
	if timed {
		t := time.NewTimer(wait)
		defer t.Stop()
		timer = t.C
	}
	select {
	case <-changed:
	case <-timer:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// requeue puts h back among the free hosts after a Next, with its next free
// time if it is known, having handed out its first URL if served.
func (q *Queue) requeue(h *queueHost, free time.Time, served bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	h.taking = false
	if !free.IsZero() {
		h.free = free
	}
	if served {
		h.urls[h.head] = ""
		h.head++
		q.n--
		q.served++
		h.served = q.served
		if h.head > len(h.urls)/2 {
			h.urls = append(h.urls[:0], h.urls[h.head:]...)
			h.head = 0
		}
	}
	if h.head == len(h.urls) {
		delete(q.hosts, h.key)
	} else {
		heap.Push(&q.free, h)
	}
	q.signal()
}

// signal wakes the callers waiting for a change. q.mu must be held.
func (q *Queue) signal() {
	close(q.changed)
	q.changed = make(chan struct{})
}

// try takes the slot of pageURL's host if the rules allow the URL and the
// slot starts within lead. It returns the host's robots.txt URL, the result
// and the time its Wait counts from; a *DisallowedError, or the error of
// the robots.txt, and no slot when the URL is not to be fetched.
func (p *Politeness) try(ctx context.Context, pageURL string, lead time.Duration) (string, SlotResult, time.Time, error) {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return key, SlotResult{}, p.opts.Now(), err
	}
	u, err := url.Parse(pageURL)
	if err != nil {
		return key, SlotResult{}, p.opts.Now(), err
	}
	if d := decide(r, p.agent, u); !d.Allowed {
		e := &DisallowedError{URL: pageURL, Agent: p.agent, Decision: d}
		if d.Reason == robots.ReasonRule {
			e.File = p.cache.goodURL(key, r)
		} else if st, ok := p.cache.State(pageURL); ok { // the policy decided
			e.State = st
		}
		return key, SlotResult{}, p.opts.Now(), e
	}
	res, now := p.apply(ctx, key, r, SlotRequest{Op: SlotTry, Within: lead, FirstHold: p.opts.FirstHold})
	return key, res, now, nil
}

// nextFree returns when the host with robots.txt URL key is next free, as
// p last saw it; now if p knows nothing of it.
func (p *Politeness) nextFree(key string, now time.Time) time.Time {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.hosts[key]; ok && h.v.Next.After(now) {
		return h.v.Next
	}
	return now
}

// A hostHeap orders the free hosts of a Queue: the one free soonest first,
// and among those free at once, the one served longest ago.
type hostHeap []*queueHost

func (hh hostHeap) Len() int { return len(hh) }
func (hh hostHeap) Less(i, j int) bool {
	if !hh[i].free.Equal(hh[j].free) {
		return hh[i].free.Before(hh[j].free)
	}
	return hh[i].served < hh[j].served
}
func (hh hostHeap) Swap(i, j int) {
	hh[i], hh[j] = hh[j], hh[i]
	hh[i].index, hh[j].index = i, j
}
func (hh *hostHeap) Push(x any) {
	h := x.(*queueHost)
	h.index = len(*hh)
	*hh = append(*hh, h)
}
func (hh *hostHeap) Pop() any {
	old := *hh
	h := old[len(old)-1]
	old[len(old)-1] = nil
	h.index = -1
	*hh = old[:len(old)-1]
	return h
}
