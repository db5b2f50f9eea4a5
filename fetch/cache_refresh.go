package fetch

// What a Cache knows of a file, brought up to date: one refresh per file
// at a time, from the Store or by fetching, which every caller asking
// meanwhile waits for, within a bound.

import (
	"context"
	"fmt"
	"time"

	"github.com/gorep/robots"
)

// known is what a Cache knows of one file at now: its State, its last good
// copy parsed (good for a robots.txt file, copy for a well-known file).
type known struct {
	st   State
	good *robots.Robots
	copy *wellKnownCopy
	now  time.Time
}

// knownLocked returns what the Cache knows of the file at robotsURL (a
// robots.txt URL, or the URL of a well-known file of that kind) at now,
// after the refresh it is due, or the one in progress, as Robots
// describes. It is called with c.mu held, and releases it.
func (c *Cache) knownLocked(ctx context.Context, robotsURL string, kind *WellKnown, now time.Time) (known, error) {
	e := c.lookup(robotsURL)
	if e.kind == nil && kind != nil {
		e.kind = kind
	}
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
	k := known{st: e.st, good: e.good, copy: e.copy, now: now}
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
			return known{}, fmt.Errorf("robots: no answer for %s within %v (a refresh's bound: Options.Timeout, LeaseWait, StoreTimeout): %w",
				robotsURL, c.opts.maxRefresh(), context.DeadlineExceeded)
		}
		c.mu.Lock()
		if run.abandoned {
			// Abandoned as this caller came: it asks again.
			return c.knownLocked(ctx, robotsURL, kind, c.opts.Now())
		}
		k = known{st: e.st, good: e.good, copy: e.copy}
		c.mu.Unlock()
		k.now = c.opts.Now()
	}
	return k, nil
}

// refresh brings e up to date, from the Store or by fetching, and records
// the result. ctx carries the values, not the cancellation, of the caller
// that started it.
func (c *Cache) refresh(ctx context.Context, e *entry) {
	c.mu.Lock()
	st, kind := e.st, e.kind
	c.mu.Unlock()
	// The error of a fetch comes back through ctx, past the Store's logic.
	var ferr error
	next, fresh, lease := c.update(context.WithValue(ctx, fetchErrKey{}, &ferr), &st)
	var good *robots.Robots
	var wk *wellKnownCopy
	switch {
	case fresh && kind != nil:
		wk = st.goodCopy(kind)
	case fresh:
		good = st.goodRules()
	}

	c.mu.Lock()
	if fresh {
		e.st, e.good, e.copy, e.err = st, good, wk, ferr
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
