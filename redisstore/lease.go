package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"sync"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/redis/go-redis/v9"
)

// defaultLeaseTerm is Options.LeaseTerm's default.
const defaultLeaseTerm = 2 * time.Second

// take sets a lease key to the token ARGV[1] for ARGV[2] ms if no one holds
// it, and returns 1. A key with no TTL, or one longer than ARGV[3] ms (the
// Store's lease term, which bounds every lease this package keeps), is no
// lease of this fleet's (left by a bug, a person or another program): it is
// taken over at once, and 1 returned, rather than waited for. Else 0.
var take = redis.NewScript(`
if redis.call("SET", KEYS[1], ARGV[1], "NX", "PX", ARGV[2]) then
	return 1
end
local ttl = redis.call("PTTL", KEYS[1])
if ttl == -1 or ttl > tonumber(ARGV[3]) then
	redis.call("SET", KEYS[1], ARGV[1], "PX", ARGV[2])
	return 1
end
return 0`)

// renew extends a lease key by ARGV[2] ms if it still holds the token
// ARGV[1], and returns 1; else 0.
var renew = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("PEXPIRE", KEYS[1], ARGV[2])
end
return 0`)

// release deletes a lease key if it still holds the token of the lease that
// set it, not one another Cache took after it expired.
var release = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// maxLease bounds the ttl a Lease accepts.
const maxLease = time.Hour

// Lease takes the lease of robotsURL for ttl (at most an hour) if no one
// holds it, and returns fetch.ErrLeased if someone does.
//
// The lease is kept in Redis for one lease term (Options.LeaseTerm, 2
// seconds) at a time, renewed every third of a term by this process until
// Release or ttl: a lease whose holder dies (a crashed or killed process)
// ends within a term, not after the whole fetch it was taken for. So a
// lease key that has no TTL, or one longer than the term, is not one this
// package set with this term: Lease takes it over at once. (A fleet whose
// Stores have different terms fetches a file twice now and then: use one.)
func (s *Store) Lease(ctx context.Context, robotsURL string, ttl time.Duration) (fetch.Lease, error) {
	ttl = min(max(ttl, time.Millisecond), maxLease)
	term := min(s.term, ttl)
	var token [16]byte
	rand.Read(token[:])
	l := &lease{s: s, key: s.LeaseKey(robotsURL), token: hex.EncodeToString(token[:]), stop: make(chan struct{})}
	n, err := take.Run(ctx, s.rdb, []string{l.key}, l.token, term.Milliseconds(), s.term.Milliseconds()).Int()
	if err != nil {
		return nil, s.failed(err)
	}
	if n != 1 {
		return nil, fetch.ErrLeased
	}
	if term < ttl {
		go l.keep(term, time.Now().Add(ttl))
	}
	return l, nil
}

// A lease is a lease key holding a random token.
type lease struct {
	s     *Store
	key   string
	token string
	stop  chan struct{} // closed by Release
	once  sync.Once
}

// keep renews the lease every third of term until it is released, lost, or
// its end comes.
func (l *lease) keep(term time.Duration, end time.Time) {
	tick := time.NewTicker(term / 3)
	defer tick.Stop()
	for {
		select {
		case <-l.stop:
			return
		case now := <-tick.C:
			left := end.Sub(now)
			if left <= 0 {
				return // the key expires within a term
			}
			ctx, cancel := context.WithTimeout(context.Background(), term/3)
			n, err := renew.Run(ctx, l.s.rdb, []string{l.key}, l.token, max(min(term, left).Milliseconds(), 1)).Int()
			cancel()
			if err == nil && n == 0 {
				return // lost: it expired, and someone else may hold it
			}
			// An error: tried again at the next tick, the term still
			// running.
		}
	}
}

// Release gives the lease up if it is still held, and stops renewing it.
func (l *lease) Release(ctx context.Context) error {
	l.once.Do(func() { close(l.stop) })
	return l.s.failed(release.Run(ctx, l.s.rdb, []string{l.key}, l.token).Err())
}
