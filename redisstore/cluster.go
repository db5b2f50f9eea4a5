package redisstore

import (
	"context"
	"errors"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/redis/go-redis/v9"
)

// On a Redis Cluster, the Store is a fetch.ShardedStore: a Cache that sees
// one master fail sets aside the hosts of that master alone, and goes on
// sharing the others. And a failed call makes the Cluster client reload its
// map of slots at once: go-redis reloads it only on a MOVED or ASK answer,
// or every ClusterOptions.ClusterStateReloadInterval (a minute), so that
// after a failover its workers would go on dialling the dead master, which
// answers nothing, for up to a minute after its replica took over.

var _ fetch.ShardedStore = (*Store)(nil)

// shardTimeout bounds the load of the Cluster's map of slots by Shard, the
// first time only: afterwards it is in memory.
const shardTimeout = 100 * time.Millisecond

// Shard names the master that holds the keys of robotsURL now, as the
// Cluster client sees it: its address. It is "" for a single Redis (one
// shard), and the state key itself (a shard of one host) while the client
// does not know the map of slots.
func (s *Store) Shard(robotsURL string) string {
	if s.cluster == nil {
		return ""
	}
	key := s.StateKey(robotsURL)
	ctx, cancel := context.WithTimeout(context.Background(), shardTimeout)
	defer cancel()
	node, err := s.cluster.MasterForKey(ctx, key)
	if err != nil {
		return key
	}
	return node.Options().Addr
}

// failed returns err, the error of a call to Redis, after asking a Cluster
// client to reload its map of slots if err is not an answer from Redis that
// the call was right to get. go-redis reloads at most one at a time, and
// waits 200 ms before the next.
func (s *Store) failed(err error) error {
	if s.cluster != nil && err != nil && !errors.Is(err, redis.Nil) {
		s.cluster.ReloadState(context.Background())
	}
	return err
}
