package fetch

import (
	"context"
	"errors"
	"time"
)

// storeBackoff is how long a Cache goes on without its Store (or the shard
// of it that failed) after a fault, before it tries again: a Store that is
// down or slow costs a caller at most one StoreTimeout per storeBackoff and
// shard.
const storeBackoff = time.Second

// update brings st up to date: from the Store if another Cache fetched it
// and it is fresh, else by fetching it under the Store's lease, or waiting
// for the Cache that holds the lease. It returns when to look again,
// whether st changed, and the lease to release once st is published.
//
// While another Cache holds the lease, this one waits for its fetch to reach
// the Store, and takes the lease itself if it comes free first (its holder
// released it without saving, or died and the lease expired). A Cache that
// knows nothing of the file yet waits as long as a fetch of its own may
// take (Timeout and StoreTimeout), rather than answer "disallow all: not
// fetched yet" to a page the file may allow, and past that fetches the file
// itself: no lease keeps it from the file longer. A Cache that knows a copy
// (the last good one, or a run of failures) waits LeaseWait, then answers
// by the policy on that copy and looks again LeaseWait later.
func (c *Cache) update(ctx context.Context, st *State) (next time.Time, changed bool, lease Lease) {
	start := time.Now()
	if c.store(st.RobotsURL) != nil {
		if shared, ok := c.load(ctx, st); ok {
			*st, changed = shared, true
			if c.opts.Now().Before(st.NextFetch) {
				c.stats.shared.Add(1)
				return st.NextFetch, true, nil
			}
		}
	}
	// A turn among MaxFetches before the lease, so that the lease does not
	// run out while this Cache waits for a turn; none if every caller has
	// left meanwhile: the next question looks again.
	if !c.turn(ctx) {
		return time.Time{}, changed, nil
	}
	lease, leased := c.lease(ctx, st)
	if leased {
		<-c.fetching
		wait := c.opts.LeaseWait
		if st.FetchedAt.IsZero() {
			wait = max(wait, c.opts.Timeout+c.opts.StoreTimeout)
		}
		var arrived bool
		if arrived, lease = c.await(ctx, st, start.Add(wait)); arrived {
			return st.NextFetch, true, nil
		}
		if lease == nil && c.store(st.RobotsURL) != nil {
			c.stats.leaseTimeouts.Add(1)
			if !st.FetchedAt.IsZero() {
				// The other Cache is still fetching: the policy applies
				// to what this one knows, until it looks again.
				return c.opts.Now().Add(c.opts.LeaseWait), changed, nil
			}
			// Nothing known, and the lease held past a fetch's bound: this
			// Cache fetches the file itself, without the lease.
		}
		if lease == nil && !c.turn(ctx) {
			// Without the lease (the Store failed while this Cache
			// waited, or the lease was held too long), it fetches alone,
			// unless every caller has left meanwhile.
			return time.Time{}, changed, nil
		}
	}
	if lease != nil {
		// Another Cache may have published and released between the load
		// above and the lease.
		if shared, ok := c.load(ctx, st); ok && c.opts.Now().Before(shared.NextFetch) {
			<-c.fetching
			*st = shared
			c.stats.shared.Add(1)
			c.release(ctx, lease)
			return st.NextFetch, true, nil
		}
	}
	c.fetch(ctx, st)
	<-c.fetching
	return st.NextFetch, true, lease
}

// lease takes the Store's lease on st's URL. It returns nil and false when
// there is no Store to use or it failed, and nil and true when another
// Cache holds the lease.
func (c *Cache) lease(ctx context.Context, st *State) (Lease, bool) {
	store := c.store(st.RobotsURL)
	if store == nil {
		return nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
	defer cancel()
	lease, err := store.Lease(ctx, st.RobotsURL, c.opts.Timeout+c.opts.StoreTimeout)
	switch {
	case errors.Is(err, ErrLeased):
		return nil, true
	case err != nil:
		c.fault(st.RobotsURL, err)
		return nil, false
	}
	return lease, false
}

// await waits, until deadline, for another Cache's fetch of st to reach the
// Store, and reports whether it did: then st is the fetched state. If the
// lease comes free first, await takes it and returns it, with a turn among
// MaxFetches: the caller fetches. It stops early if the Store fails.
func (c *Cache) await(ctx context.Context, st *State, deadline time.Time) (bool, Lease) {
	c.stats.leaseWaits.Add(1)
	poll := max(min(c.opts.LeaseWait/10, 50*time.Millisecond), time.Millisecond)
	for time.Now().Add(poll).Before(deadline) && c.store(st.RobotsURL) != nil {
		time.Sleep(poll)
		if shared, ok := c.load(ctx, st); ok && c.opts.Now().Before(shared.NextFetch) {
			*st = shared
			c.stats.shared.Add(1)
			return true, nil
		}
		select {
		case c.fetching <- struct{}{}:
			if lease, leased := c.lease(ctx, st); lease != nil {
				return false, lease
			} else if !leased {
				<-c.fetching
				return false, nil // the Store failed
			}
			<-c.fetching
		default: // no turn free: the lease is tried at the next poll
		}
	}
	return false, nil
}

// publish saves st, which this Cache fetched, to the Store and releases
// the lease it fetched under.
func (c *Cache) publish(ctx context.Context, st State, lease Lease) {
	sctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
	defer cancel()
	// Even during storeBackoff: the lease is held.
	if err := c.opts.Store.Save(sctx, st); err != nil {
		c.fault(st.RobotsURL, err)
	}
	// Released even when the state could not be saved: the others then
	// fetch rather than wait for the lease to expire.
	c.release(ctx, lease)
}

// release gives up a lease that was not used.
func (c *Cache) release(ctx context.Context, lease Lease) {
	ctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
	defer cancel()
	lease.Release(ctx) // an error: the lease expires on its own
}

// load returns the State in the Store if it is newer than st, its times
// made plausible (see plausible).
func (c *Cache) load(ctx context.Context, st *State) (State, bool) {
	store := c.store(st.RobotsURL)
	if store == nil {
		return State{}, false
	}
	ctx, cancel := context.WithTimeout(ctx, c.opts.StoreTimeout)
	defer cancel()
	shared, ok, err := store.Load(ctx, st.RobotsURL)
	if err != nil {
		c.fault(st.RobotsURL, err)
		return State{}, false
	}
	if !ok || shared.RobotsURL != st.RobotsURL {
		return State{}, false
	}
	if shared = c.opts.plausible(shared, c.opts.Now()); !shared.FetchedAt.After(st.FetchedAt) {
		return State{}, false
	}
	return shared, true
}

// store returns the Store to use now for robotsURL: nil if there is none,
// or during storeBackoff after a fault of its shard.
func (c *Cache) store(robotsURL string) Store {
	if c.opts.Store == nil || c.aside.has(c.shard(robotsURL), time.Now().UnixNano()) {
		return nil
	}
	return c.opts.Store
}

// fault counts and reports a failed call to the Store, and sets aside the
// shard of robotsURL (the whole Store, unless it is a ShardedStore) for
// storeBackoff.
func (c *Cache) fault(robotsURL string, err error) {
	c.stats.storeFaults.Add(1)
	c.aside.add(c.shard(robotsURL), time.Now().Add(storeBackoff).UnixNano())
	if c.opts.StoreFault != nil {
		c.opts.StoreFault(robotsURL, err)
	}
}
