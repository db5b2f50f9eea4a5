// Package redisstore keeps the robots.txt state of a fleet of crawlers in
// Redis: a fetch.Store, so that many fetch.Caches, in many processes on many
// machines, fetch each robots.txt once between them and apply Google's
// caching and error policy alike.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379", ContextTimeoutEnabled: true})
//	cache := fetch.NewCache(nil, userAgent, fetch.Options{Store: redisstore.New(rdb, redisstore.Options{})})
//
// For each robots.txt URL, two keys under a prefix:
//
//	<prefix>{<robots.txt URL>}:state   the fetch.State, versioned and checked
//	<prefix>{<robots.txt URL>}:lease   the right to fetch, SET NX PX, expiring
//
// The braces are a Redis Cluster hash tag: both keys of a URL live in one
// slot, and no command touches more than one key (releasing a lease is a
// script over its one key), so the Store works on a single node and on a
// Cluster (redis.NewClusterClient) alike.
//
// Every key has a TTL: the state lives Options.TTL (32 days: the 30 days of
// Google's error policy and a margin) after it was last saved, so an
// abandoned host leaves Redis on its own; a lease lives as long as a fetch
// may take. A value that is not one this package wrote for that URL
// (another program's, truncated, oversized, corrupt) is read as a miss.
//
// A Redis that is down, restarted empty or slow never fails a question: the
// Cache gives each call fetch.Options.StoreTimeout, reports the fault to
// fetch.Options.StoreFault, goes on alone with Google's policy, and shares
// again when Redis answers. Make the client honour those deadlines with
// redis.Options.ContextTimeoutEnabled, and keep its DialTimeout short and
// its DialerRetries low.
package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"strings"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/redis/go-redis/v9"
)

// Options tune a Store; the zero value means the defaults.
type Options struct {
	// Prefix starts every key. It must not contain braces, which would
	// change the hash tag. Default: "robots:".
	Prefix string
	// TTL is how long the state of a host is kept after it was last saved.
	// Default: 32 days.
	TTL time.Duration
}

// A Store is a fetch.Store on Redis. It is safe for concurrent use.
type Store struct {
	rdb     redis.UniversalClient
	cluster *redis.ClusterClient // rdb, if it is one
	prefix  string
	ttl     time.Duration
}

// New returns a Store that keeps its keys in rdb, a *redis.Client or a
// *redis.ClusterClient. It panics if opts.Prefix contains a brace.
func New(rdb redis.UniversalClient, opts Options) *Store {
	if strings.ContainsAny(opts.Prefix, "{}") {
		panic("redisstore: the prefix " + opts.Prefix + " contains a brace")
	}
	if opts.Prefix == "" {
		opts.Prefix = "robots:"
	}
	if opts.TTL <= 0 {
		opts.TTL = 32 * 24 * time.Hour
	}
	cluster, _ := rdb.(*redis.ClusterClient)
	return &Store{rdb: rdb, cluster: cluster, prefix: opts.Prefix, ttl: opts.TTL}
}

// StateKey returns the key of the state of robotsURL.
func (s *Store) StateKey(robotsURL string) string {
	return s.prefix + "{" + robotsURL + "}:state"
}

// LeaseKey returns the key of the lease of robotsURL.
func (s *Store) LeaseKey(robotsURL string) string {
	return s.prefix + "{" + robotsURL + "}:lease"
}

// Load returns the state of robotsURL; false if there is none or it cannot
// be read as one.
func (s *Store) Load(ctx context.Context, robotsURL string) (fetch.State, bool, error) {
	value, err := s.rdb.Get(ctx, s.StateKey(robotsURL)).Bytes()
	if errors.Is(err, redis.Nil) {
		return fetch.State{}, false, nil
	}
	if err != nil {
		return fetch.State{}, false, s.failed(err)
	}
	st, err := decode(value, robotsURL)
	if err != nil {
		return fetch.State{}, false, nil
	}
	return st, true, nil
}

// Save records st, to expire after the Store's TTL.
func (s *Store) Save(ctx context.Context, st fetch.State) error {
	return s.failed(s.rdb.Set(ctx, s.StateKey(st.RobotsURL), encode(&st), s.ttl).Err())
}

// Lease takes the lease of robotsURL for ttl if no one holds it, and returns
// fetch.ErrLeased if someone does.
func (s *Store) Lease(ctx context.Context, robotsURL string, ttl time.Duration) (fetch.Lease, error) {
	var token [16]byte
	rand.Read(token[:])
	l := &lease{s: s, key: s.LeaseKey(robotsURL), token: hex.EncodeToString(token[:])}
	ok, err := s.rdb.SetNX(ctx, l.key, l.token, ttl).Result()
	if err != nil {
		return nil, s.failed(err)
	}
	if !ok {
		return nil, fetch.ErrLeased
	}
	return l, nil
}

// A lease is a lease key holding a random token.
type lease struct {
	s     *Store
	key   string
	token string
}

// release deletes a lease key if it still holds the token of the lease that
// set it, not one another Cache took after it expired.
var release = redis.NewScript(`
if redis.call("GET", KEYS[1]) == ARGV[1] then
	return redis.call("DEL", KEYS[1])
end
return 0`)

// Release gives the lease up if it is still held.
func (l *lease) Release(ctx context.Context) error {
	return l.s.failed(release.Run(ctx, l.s.rdb, []string{l.key}, l.token).Err())
}
