package fetch

// Turns among MaxFetches, and refreshes that no caller waits for any more.

import "context"

// leave records that a caller stopped waiting for the refresh of e whose
// done channel is done; the last to leave abandons it.
func (c *Cache) leave(e *entry, done chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e.done != done {
		return // that refresh has ended
	}
	if e.waiters--; e.waiters == 0 {
		close(e.abandon)
	}
}

// abandonKey is the key of the context value of a refresh that is closed
// when no caller waits for it any more: a chan struct{}.
type abandonKey struct{}

// turn takes a turn among MaxFetches for the refresh whose context is ctx,
// and reports whether it got one: false when the refresh was abandoned
// first (no caller waits for it; the next question starts another).
func (c *Cache) turn(ctx context.Context) bool {
	abandon, _ := ctx.Value(abandonKey{}).(chan struct{})
	select {
	case c.fetching <- struct{}{}:
		return true
	default:
	}
	select {
	case c.fetching <- struct{}{}:
		return true
	case <-abandon:
		return false
	}
}
