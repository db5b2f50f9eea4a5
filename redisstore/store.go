// Package redisstore keeps the robots.txt state of a fleet of crawlers in
// Redis: a fetch.Store, so that many fetch.Caches, in many processes on many
// machines, fetch each robots.txt once between them and apply Google's
// caching and error policy alike.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "127.0.0.1:6379", ContextTimeoutEnabled: true})
//	cache := fetch.NewCache(nil, userAgent, fetch.Options{Store: redisstore.New(rdb, redisstore.Options{})})
//
// For each robots.txt URL, up to three keys under a prefix:
//
//	<prefix>{<robots.txt URL>}:state   the fetch.State, versioned and checked
//	<prefix>{<robots.txt URL>}:lease   the right to fetch, SET NX PX, expiring
//	<prefix>{<robots.txt URL>}:slot    the politeness slots (see slot.go)
//
// The braces are a Redis Cluster hash tag: the keys of a URL live in one
// slot, and no command touches more than one key (releasing a lease is a
// script over its one key), so the Store works on a single node and on a
// Cluster (redis.NewClusterClient) alike.
//
// Every key has a TTL: the state lives Options.TTL (32 days: the 30 days of
// Google's error policy and a margin) after it was last saved, so an
// abandoned host leaves Redis on its own; a lease is kept one term
// (Options.LeaseTerm, 2 seconds) at a time, renewed by its holder's process
// while it fetches, so that the lease of a worker that crashed ends within a
// term. A lease key without a TTL, or with one longer than a term, is not
// one this package set: the next Lease takes it over at once.
//
// A state key that does not hold a value this package wrote for that URL
// (another program's, of another type, truncated, oversized, corrupt) is
// read as a miss for that host alone, never a fault, and replaced by the
// Save after the fetch; Load reads at most about 510 KiB of a value.
//
// A Redis that is down, restarted empty or slow never fails a question: the
// Cache gives each call fetch.Options.StoreTimeout, reports the fault to
// fetch.Options.StoreFault, goes on alone with Google's policy, and shares
// again when Redis answers. Make the client honour those deadlines with
// redis.Options.ContextTimeoutEnabled, and keep its DialTimeout short and
// its DialerRetries low; redis.ClusterOptions alike (see cluster.go and the
// README for a Cluster). go-redis also writes each refused dial to stderr,
// through one logger per process: route its lines with
// redis.SetLogger(redisstore.NewLogger(log.Default(), time.Minute)), at most
// one a minute (see Logger).
package redisstore

import (
	"context"
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
	// LeaseTerm is how long a lease outlives the process that holds it: a
	// lease is kept in Redis one term at a time, renewed by its holder
	// every third of a term (see Store.Lease). Use one term across a fleet.
	// Default: 2 seconds; at least a millisecond.
	LeaseTerm time.Duration
}

// A Store is a fetch.Store on Redis. It is safe for concurrent use.
type Store struct {
	rdb     redis.UniversalClient
	cluster *redis.ClusterClient // rdb, if it is one
	prefix  string
	ttl     time.Duration
	term    time.Duration // of a lease
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
	if opts.LeaseTerm <= 0 {
		opts.LeaseTerm = defaultLeaseTerm
	}
	// Redis counts a key's TTL in whole milliseconds, and refuses 0.
	opts.LeaseTerm = max(opts.LeaseTerm, time.Millisecond)
	cluster, _ := rdb.(*redis.ClusterClient)
	return &Store{rdb: rdb, cluster: cluster, prefix: opts.Prefix, ttl: opts.TTL, term: opts.LeaseTerm}
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
//
// It reads at most one byte more than the largest value this package
// writes (about 510 KiB), however large the value under the key: a longer
// one is a miss, found without reading it whole. A key that holds another
// type than a string (a list, a hash) is a miss too, for that host alone,
// not an error that would set the Store aside for every host; the Cache
// then fetches the file and its Save replaces the key.
func (s *Store) Load(ctx context.Context, robotsURL string) (fetch.State, bool, error) {
	// GETRANGE rather than GET: the value is read up to maxValue+1 bytes.
	// A missing key reads as "", a miss.
	value, err := s.rdb.GetRange(ctx, s.StateKey(robotsURL), 0, maxValue).Bytes()
	if errors.Is(err, redis.Nil) || redis.HasErrorPrefix(err, "WRONGTYPE") {
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
