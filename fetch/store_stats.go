package fetch

import "sync/atomic"

// Stats are counters of what a Cache did since it was made, cheap to read
// (atomics, no lock but for Hosts and Bytes) for export to expvar or
// Prometheus.
type Stats struct {
	// Hits counts the questions answered from memory; Misses those that
	// started a refresh (from the Store or by fetching); Waits those that
	// waited for a refresh in progress.
	Hits, Misses, Waits uint64
	// Fetches counts the fetches by outcome: Fetches[Success] and so on.
	Fetches map[Outcome]uint64
	// Shared counts the refreshes answered from the Store, without fetching.
	Shared uint64
	// LeaseWaits counts the waits for another Cache's fetch; LeaseTimeouts
	// those that gave up: after Options.LeaseWait, or for a file the Cache
	// knew nothing of, after Timeout and StoreTimeout.
	LeaseWaits, LeaseTimeouts uint64
	// StoreFaults counts the calls to the Store that failed.
	StoreFaults uint64
	// Evictions counts the hosts forgotten, by the bounds or for being too
	// large to keep.
	Evictions uint64
	// Hosts and Bytes are the hosts kept now and the bytes they hold, the
	// index from origins to robots.txt URLs included.
	Hosts int
	Bytes int64
}

// counters are the atomic counters behind Stats.
type counters struct {
	hits, misses, waits       atomic.Uint64
	fetches                   [Unreachable + 1]atomic.Uint64
	shared                    atomic.Uint64
	leaseWaits, leaseTimeouts atomic.Uint64
	storeFaults, evictions    atomic.Uint64
}

// Stats returns the counters of c.
func (c *Cache) Stats() Stats {
	s := Stats{
		Hits:          c.stats.hits.Load(),
		Misses:        c.stats.misses.Load(),
		Waits:         c.stats.waits.Load(),
		Fetches:       make(map[Outcome]uint64, 3),
		Shared:        c.stats.shared.Load(),
		LeaseWaits:    c.stats.leaseWaits.Load(),
		LeaseTimeouts: c.stats.leaseTimeouts.Load(),
		StoreFaults:   c.stats.storeFaults.Load(),
		Evictions:     c.stats.evictions.Load(),
	}
	for o := Success; o <= Unreachable; o++ {
		s.Fetches[o] = c.stats.fetches[o].Load()
	}
	c.mu.Lock()
	s.Hosts, s.Bytes = c.lru.Len(), c.held+c.memoBytes
	c.mu.Unlock()
	return s
}
