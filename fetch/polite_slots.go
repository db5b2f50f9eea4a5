package fetch

import (
	"context"
	"net/http"
	"time"

	"github.com/gorep/robots"
)

// The slots of a Politeness: taken in its SlotStore when it has one and the
// Store answers, in memory otherwise; and moved by the hosts' slow-downs.

// A hostSlot is what a Politeness keeps of one host, guarded by
// Politeness.mu: its slot as last seen (the only copy without a
// SlotStore), and its delays.
type hostSlot struct {
	v SlotValue
	// rules are the rules the delays below were read from; they are read
	// again when the cache hands out other rules.
	rules         *robots.Robots
	crawlDelay    time.Duration
	hasCrawlDelay bool
	rate          robots.RequestRate
	hasRate       bool
	// delay is the delay last computed.
	delay time.Duration
	// first reports that this Politeness took the host's first slot and
	// has not yet told the slots that the host answered.
	first bool
}

// apply applies req to the slot of the host with robots.txt URL key, whose
// rules are r, with the host's delay: in the SlotStore if there is one
// that answers, else in memory (with FleetSize times the delay, if the
// SlotStore failed). It returns the result and the time its Wait counts
// from.
func (p *Politeness) apply(ctx context.Context, key string, r *robots.Robots, req SlotRequest) (SlotResult, time.Time) {
	req.MaxBackoff = p.opts.MaxBackoff
	req.Horizon = p.horizon()
	if p.slots == nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		now := p.opts.Now()
		return p.applyHere(p.slot(key, now), r, req, now, false), now
	}
	p.mu.Lock()
	now := p.opts.Now()
	h := p.slot(key, now)
	req.Delay = p.delay(h, r, now)
	p.mu.Unlock()
	if p.cache.store(key) != nil {
		sctx, cancel := context.WithTimeout(ctx, p.cache.opts.StoreTimeout)
		res, err := p.slots.Slot(sctx, key, req)
		cancel()
		if err == nil {
			// The Wait counts from when the Store applied req: the
			// answer's way back makes this worker's start later by
			// that much, never earlier.
			p.mu.Lock()
			now = p.opts.Now()
			h = p.slot(key, now)
			next := res.Wait
			if res.Taken {
				next += max(req.Delay, res.Backoff)
			}
			v := SlotValue{Next: now.Add(next), Backoff: res.Backoff, Known: !res.First && !res.Held}
			if res.First {
				v.Held = now.Add(req.FirstHold)
				p.setFirst(h, true)
			} else if res.Held {
				v.Held = now.Add(res.Wait)
			}
			p.set(h, v)
			p.mu.Unlock()
			if res.Taken {
				p.stats.slots.Add(1)
				p.stats.shared.Add(1)
			}
			return res, now
		}
		if ctx.Err() == nil { // not the caller's own end
			p.stats.faults.Add(1)
			p.cache.fault(key, err)
		}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now = p.opts.Now()
	return p.applyHere(p.slot(key, now), r, req, now, true), now
}

// applyHere applies req to the slot of h, whose rules are r, in memory at
// now; alone, while the SlotStore fails, with FleetSize times the delay.
// p.mu must be held.
func (p *Politeness) applyHere(h *hostSlot, r *robots.Robots, req SlotRequest, now time.Time, alone bool) SlotResult {
	req.Delay = p.delay(h, r, now)
	if n := time.Duration(p.opts.FleetSize); alone && n > 1 {
		req.Delay = min(req.Delay, maxHorizon/n) * n // no overflow
	}
	v, res := req.Apply(h.v, now)
	p.set(h, v)
	if res.First {
		p.setFirst(h, true)
	}
	if res.Taken {
		p.stats.slots.Add(1)
		if alone {
			p.stats.alone.Add(1)
		}
	}
	return res
}

// maxHorizon bounds how far ahead a slot may be, whatever the options.
const maxHorizon = 30 * 24 * time.Hour

// horizon returns how far ahead of now a host's slot may be: past the
// longest hold and back-off, room for 1,024 slots at MaxDelay, so that
// queued reservations are not squeezed, within maxHorizon. A slot value
// further ahead (a poisoned one) is read as this far.
func (p *Politeness) horizon() time.Duration {
	o := &p.opts
	return min(max(o.MaxRetryAfter, o.MaxBackoff), maxHorizon) + min(o.MaxDelay, maxHorizon/1024)*1024
}

// Answered tells p how the host of pageURL answered a request for it, with
// status and header, so that a site that asks a crawler to slow down is
// obeyed, as Google's crawlers are: after a 429, 500 or 503 the host's next
// slot is moved to the answer's Retry-After (delay-seconds or an
// HTTP-date, at most MaxRetryAfter) if it gives one, or else by a back-off
// that doubles with each such answer, from twice the host's delay (a second
// at least) up to MaxBackoff, and spaces every request meanwhile. A 2xx or
// 3xx answer halves the back-off, down to none. Other answers change
// nothing. With a SlotStore, the whole fleet slows down together.
//
// The first answer of a host, whatever its status, also ends the hold of
// the host's first request (see PoliteOptions.FirstHold); report a request
// that failed with status 0.
//
// A Transport calls it for each response and each failed request; a
// caller that fetches otherwise calls it itself. It returns an error only if pageURL has no robots.txt
// URL or the cache cannot answer for it.
func (p *Politeness) Answered(ctx context.Context, pageURL string, status int, header http.Header) error {
	key, r, err := p.rules(ctx, pageURL)
	if err != nil {
		return err
	}
	p.answered(ctx, key, r, status, header)
	return nil
}

// answered is Answered for the host with robots.txt URL key, whose rules
// are r; status 0 for a request that failed. A good answer from a host
// that is known and without a back-off, the common case, costs two atomic
// loads; the first answer of a host one more call to the slots, that ends
// its hold (SlotAnswered), unless a slow-down ends it.
func (p *Politeness) answered(ctx context.Context, key string, r *robots.Robots, status int, header http.Header) {
	first := false
	if p.firsts.Load() > 0 {
		p.mu.Lock()
		if h, ok := p.hosts[key]; ok && h.first {
			p.setFirst(h, false)
			first = true
		}
		p.mu.Unlock()
		// The host's hold ends even if the request's context has.
		ctx = context.WithoutCancel(ctx)
	}
	switch {
	case slowsDown(status):
		req := SlotRequest{Op: SlotSlowDown}
		if after, ok := retryAfter(header, p.opts.Now()); ok {
			req.Hold = max(min(after, p.opts.MaxRetryAfter), time.Nanosecond)
		}
		p.stats.slowDowns.Add(1)
		p.apply(ctx, key, r, req)
		return
	case status >= 200 && status < 400 && p.backingOff.Load() > 0:
		p.mu.Lock()
		h, ok := p.hosts[key]
		relax := ok && h.v.Backoff > 0
		p.mu.Unlock()
		if relax {
			p.apply(ctx, key, r, SlotRequest{Op: SlotRelax})
			return
		}
	}
	if first {
		p.apply(ctx, key, r, SlotRequest{Op: SlotAnswered})
	}
}

// slowsDown reports whether an answer with status asks the crawler to slow
// down, as Google reads them: 429 Too Many Requests, 500 Internal Server
// Error and 503 Service Unavailable.
func slowsDown(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusInternalServerError ||
		status == http.StatusServiceUnavailable
}

// spacing returns the delay last computed for the host with robots.txt URL
// key.
func (p *Politeness) spacing(key string) time.Duration {
	p.mu.Lock()
	defer p.mu.Unlock()
	if h, ok := p.hosts[key]; ok {
		return h.delay
	}
	return 0
}

// setFirst sets h.first, counting the hosts whose first answer p awaits.
// p.mu must be held.
func (p *Politeness) setFirst(h *hostSlot, first bool) {
	if h.first != first {
		h.first = first
		if first {
			p.firsts.Add(1)
		} else {
			p.firsts.Add(-1)
		}
	}
}

// set sets the slot of h to v, counting the hosts with a back-off. p.mu
// must be held.
func (p *Politeness) set(h *hostSlot, v SlotValue) {
	if was, is := h.v.Backoff > 0, v.Backoff > 0; was != is {
		if is {
			p.backingOff.Add(1)
		} else {
			p.backingOff.Add(-1)
		}
	}
	h.v = v
}

// slot returns what p keeps of the host with robots.txt URL key, made if
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

// forget drops the hosts whose next slot has passed and that have no
// back-off nor a first request out; if none has, the one due soonest. p.mu
// must be held.
func (p *Politeness) forget(now time.Time) {
	var soonest string
	var soonestAt time.Time
	for key, h := range p.hosts {
		if !h.v.Next.After(now) && h.v.Backoff == 0 && !h.first && !h.v.Held.After(now) {
			delete(p.hosts, key)
		} else if soonest == "" || h.v.Next.Before(soonestAt) {
			soonest, soonestAt = key, h.v.Next
		}
	}
	if len(p.hosts) >= p.opts.MaxHosts {
		p.set(p.hosts[soonest], SlotValue{})
		p.setFirst(p.hosts[soonest], false)
		delete(p.hosts, soonest)
	}
}

// giveBack returns the slot that starts at start to the host with robots.txt
// URL key, after a Wait that took it in memory was cancelled, unless a later
// call has taken the next one already; if it was the host's first, the
// host is free of its hold. A slot taken in a SlotStore stays taken.
func (p *Politeness) giveBack(key string, start time.Time, first bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	h, ok := p.hosts[key]
	if !ok || p.slots != nil && p.cache.store(key) != nil {
		return
	}
	if h.v.Next.Equal(start.Add(max(h.delay, h.v.Backoff))) {
		h.v.Next = start
		if first && h.first {
			p.setFirst(h, false)
			h.v.Held = time.Time{}
		}
	}
}

// delay returns the time between two requests to the host of h, whose rules
// are r, at time now, and keeps it in h. p.mu must be held.
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
	h.delay = min(d, p.opts.MaxDelay)
	return h.delay
}
