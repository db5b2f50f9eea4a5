package fetch_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// A shardedStore is a memStore spread over named shards, some of which can
// be down: every call on the hosts of a shard that is down fails.
type shardedStore struct {
	*memStore
	shards map[string]string // robots URL -> shard
	down   sync.Map          // shard -> true
}

var errShardDown = errors.New("shard down")

func (s *shardedStore) Shard(robotsURL string) string { return s.shards[robotsURL] }

func (s *shardedStore) failing(robotsURL string) bool {
	_, down := s.down.Load(s.Shard(robotsURL))
	return down
}

func (s *shardedStore) Load(ctx context.Context, robotsURL string) (fetch.State, bool, error) {
	if s.failing(robotsURL) {
		return fetch.State{}, false, errShardDown
	}
	return s.memStore.Load(ctx, robotsURL)
}

func (s *shardedStore) Save(ctx context.Context, st fetch.State) error {
	if s.failing(st.RobotsURL) {
		return errShardDown
	}
	return s.memStore.Save(ctx, st)
}

func (s *shardedStore) Lease(ctx context.Context, robotsURL string, ttl time.Duration) (fetch.Lease, error) {
	if s.failing(robotsURL) {
		return nil, errShardDown
	}
	return s.memStore.Lease(ctx, robotsURL, ttl)
}

// TestCacheShardFault checks that a fault of one shard of a ShardedStore
// sets aside that shard alone: the hosts of the other shards are still
// shared, fetched once by the whole fleet.
func TestCacheShardFault(t *testing.T) {
	hDown := &handler{status: 200, body: privateRules}
	hUp := &handler{status: 200, body: privateRules}
	srvDown, srvUp := serve(t, hDown.ServeHTTP), serve(t, hUp.ServeHTTP)
	store := &shardedStore{memStore: newMemStore(), shards: map[string]string{
		srvDown.URL + "/robots.txt": "down",
		srvUp.URL + "/robots.txt":   "up",
	}}
	store.down.Store("down", true)
	var faults atomic.Int32
	var caches []*fetch.Cache
	for range 3 {
		caches = append(caches, fetch.NewCache(nil, testUserAgent, fetch.Options{
			Store: store, StoreFault: func(string, error) { faults.Add(1) },
		}))
	}
	ask := func(pageURL string) {
		t.Helper()
		for _, c := range caches {
			if ok, err := c.Allowed(context.Background(), testAgent, pageURL); ok || err != nil {
				t.Errorf("Allowed(%s) = %t, %v; want false, nil", pageURL, ok, err)
			}
		}
	}
	// Each Cache meets the failed shard first, then asks about a host of
	// the healthy one.
	ask(srvDown.URL + "/private")
	ask(srvUp.URL + "/private")
	if got, want := hDown.requests.Load(), int32(len(caches)); got != want || faults.Load() == 0 {
		t.Errorf("host of the failed shard: %d requests, %d faults; want %d (each Cache alone), some faults", got, faults.Load(), want)
	}
	if got := hUp.requests.Load(); got != 1 {
		t.Errorf("host of the healthy shard: %d requests, want 1 (shared)", got)
	}
}
