package fetch

// Turns among MaxFetches, and refreshes that no caller waits for any more.

import "context"

// A run is a refresh in progress, as its callers and its turn see it. Its
// fields are guarded by Cache.mu.
type run struct {
	// waiters counts the callers waiting for it.
	waiters int
	// left is closed when the last of them leaves, so that the refresh
	// gives up waiting for a turn (see Cache.turn); a new one is made
	// when a caller comes after.
	left chan struct{}
	// abandoned is set, before the refresh ends, if it gave up: no fetch
	// was made, and a caller that waited for it asks again.
	abandoned bool
}

// runKey is the key of the context value of a refresh that holds its
// *run.
type runKey struct{}

// join counts a caller in; Cache.mu is held.
func (r *run) join() {
	if r.waiters == 0 {
		r.left = make(chan struct{})
	}
	r.waiters++
}

// leave records that a caller stopped waiting for r; the last to leave
// lets the refresh give up its wait for a turn.
func (c *Cache) leave(r *run) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r.waiters--; r.waiters == 0 {
		close(r.left)
	}
}

// turn takes a turn among MaxFetches for the refresh whose context is ctx,
// and reports whether it got one: false when every caller left first (it
// is then abandoned; the next question starts another refresh).
func (c *Cache) turn(ctx context.Context) bool {
	select {
	case c.fetching <- struct{}{}:
		return true
	default:
	}
	r, _ := ctx.Value(runKey{}).(*run)
	if r == nil {
		c.fetching <- struct{}{}
		return true
	}
	for {
		c.mu.Lock()
		left := r.left
		c.mu.Unlock()
		select {
		case c.fetching <- struct{}{}:
			return true
		case <-left:
		}
		c.mu.Lock()
		if r.waiters == 0 {
			r.abandoned = true
			c.mu.Unlock()
			return false
		}
		c.mu.Unlock() // a caller came since: wait on for it
	}
}
