package fetch

import (
	"sync"
	"sync/atomic"
	"time"
)

// A ShardedStore is a Store spread over shards that fail apart, such as the
// masters of a Redis Cluster. After a fault, a Cache sets aside for a second
// only the shard that failed, and goes on sharing the hosts of the others;
// a plain Store is set aside whole.
type ShardedStore interface {
	Store
	// Shard names the shard that holds the state of robotsURL now; "" for
	// the whole Store. It must be safe for concurrent use and return at
	// once, without a call to the shard.
	Shard(robotsURL string) string
}

// maxAside bounds the shards set aside at once; beyond it (a Store naming a
// shard per host, say), the whole Store is set aside.
const maxAside = 64

// An aside holds the shards of a Store set aside after a fault, and until
// when (Unix nanoseconds of the real clock). The shard "" is the whole
// Store.
type aside struct {
	n     atomic.Int32 // len(until), read without the lock
	mu    sync.Mutex
	until map[string]int64
}

// has reports whether shard, or the whole Store, is set aside at now.
func (a *aside) has(shard string, now int64) bool {
	if a.n.Load() == 0 {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return now < a.until[shard] || now < a.until[""]
}

// add sets shard aside until the given time, and forgets the shards whose
// time has passed.
func (a *aside) add(shard string, until int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	now := time.Now().UnixNano()
	for s, u := range a.until {
		if u <= now {
			delete(a.until, s)
		}
	}
	if a.until == nil {
		a.until = make(map[string]int64)
	}
	if len(a.until) >= maxAside {
		shard = ""
	}
	a.until[shard] = max(a.until[shard], until)
	a.n.Store(int32(len(a.until)))
}

// shard returns the shard of the Store that holds robotsURL.
func (c *Cache) shard(robotsURL string) string {
	if s, ok := c.opts.Store.(ShardedStore); ok {
		return s.Shard(robotsURL)
	}
	return ""
}
