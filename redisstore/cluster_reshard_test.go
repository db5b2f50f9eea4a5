package redisstore_test

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// TestClusterReshard moves the slots of a master's hosts to another master,
// key by key (CLUSTER SETSLOT IMPORTING and MIGRATING, MIGRATE, SETSLOT
// NODE), while the fleet asks about every host, round after round, each
// round after the files expired: the Caches follow the MOVED and ASK
// redirections, answer right, report no fault, and fetch each host once a
// round, as without a move.
func TestClusterReshard(t *testing.T) {
	const workers, hosts = 4, 30
	start := time.Now()
	c := startCluster(t, 5*time.Second)
	s, clock := newSite(t), newClock()
	var faults atomic.Int64
	redirects := &redirectCount{}
	opts := fetch.Options{StoreTimeout: clusterStoreTimeout, LeaseWait: 10 * time.Second}
	caches := clusterFleet(t, c, s, clock, workers, &faults, redirects, opts)
	admin := clusterClient(t, c, nil)
	ctx := context.Background()

	// The slots of the hosts of the master of host 0, to move to another.
	from := masterOf(t, admin, page(0, "/"))
	var to string
	slots := map[int64]bool{}
	for h := range hosts {
		switch m := masterOf(t, admin, page(h, "/")); {
		case m == from:
			key := redisstore.New(admin, redisstore.Options{}).StateKey(fmt.Sprintf("http://%s/robots.txt", fmtHost(h)))
			slot, err := admin.ClusterKeySlot(ctx, key).Result()
			if err != nil {
				t.Fatal(err)
			}
			slots[slot] = true
		case to == "":
			to = m
		}
	}
	top := topology(t, from)
	fromID, toID := top[from].id, top[to].id

	round := 0
	ask := func() {
		t.Helper()
		round++
		clock.Add(25 * time.Hour) // every file expired: a load, a lease, a fetch, a save
		before := s.fetches.Load()
		askHosts(t, caches, 0, hosts, opts.StoreTimeout+opts.LeaseWait+time.Second)
		if got := s.fetches.Load() - before; got != hosts {
			t.Errorf("round %d: %d fetches, want %d", round, got, hosts)
		}
	}
	ask()

	moved := make(chan error, 1)
	go func() { moved <- moveSlots(c, slots, from, to, fromID, toID) }()
	for done := false; !done; {
		select {
		case err := <-moved:
			if err != nil {
				t.Fatal(err)
			}
			done = true
		default:
		}
		ask()
	}
	ask() // after the move: MOVED, then the new map
	fresh := clusterClient(t, c, nil)
	for h := range hosts {
		if m := masterOf(t, fresh, page(h, "/")); m == from {
			t.Errorf("host%d still on %s after the move", h, from)
		}
	}
	if faults.Load() != 0 || redirects.moved.Load() == 0 || redirects.ask.Load() == 0 {
		t.Errorf("%d faults, %v; want no fault, some MOVED and ASK followed", faults.Load(), redirects)
	}
	t.Logf("%d slots moved during %d rounds of %d workers × %d hosts: %d fetches, %v, %d faults; test took %v",
		len(slots), round, workers, hosts, s.fetches.Load(), redirects, faults.Load(), time.Since(start).Round(time.Millisecond))
}

// moveSlots moves slots from the master at from to the master at to, as
// redis-cli --cluster reshard does, a key at a time, pausing between the
// steps so that questions meet each state of the move.
func moveSlots(c *cluster, slots map[int64]bool, from, to, fromID, toID string) error {
	ctx := context.Background()
	src := redis.NewClient(&redis.Options{Addr: from})
	defer src.Close()
	dst := redis.NewClient(&redis.Options{Addr: to})
	defer dst.Close()
	host, port, _ := net.SplitHostPort(to)
	pause := func() { time.Sleep(30 * time.Millisecond) }
	for slot := range slots {
		if err := dst.Do(ctx, "CLUSTER", "SETSLOT", slot, "IMPORTING", fromID).Err(); err != nil {
			return fmt.Errorf("SETSLOT %d IMPORTING: %v", slot, err)
		}
		if err := src.Do(ctx, "CLUSTER", "SETSLOT", slot, "MIGRATING", toID).Err(); err != nil {
			return fmt.Errorf("SETSLOT %d MIGRATING: %v", slot, err)
		}
		pause()
		for {
			keys, err := src.ClusterGetKeysInSlot(ctx, int(slot), 10).Result()
			if err != nil {
				return fmt.Errorf("GETKEYSINSLOT %d: %v", slot, err)
			}
			if len(keys) == 0 {
				break
			}
			for _, k := range keys {
				if err := src.Migrate(ctx, host, port, k, 0, 5*time.Second).Err(); err != nil && err.Error() != "NOKEY" {
					return fmt.Errorf("MIGRATE %s: %v", k, err)
				}
				pause()
			}
		}
		// The new owner first, then the old one, then the others.
		order := []string{to, from}
		for _, s := range c.nodes {
			if s.cmd != nil && s.Addr() != to && s.Addr() != from {
				order = append(order, s.Addr())
			}
		}
		for i, addr := range order {
			n := redis.NewClient(&redis.Options{Addr: addr})
			err := n.Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", toID).Err()
			n.Close()
			if err != nil && i < 2 { // a replica may refuse; it learns by gossip
				return fmt.Errorf("SETSLOT %d NODE on %s: %v", slot, addr, err)
			}
		}
		pause()
	}
	return nil
}
