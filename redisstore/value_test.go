package redisstore_test

import (
	"bytes"
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// TestLoadOversizedValue: a 64 MiB value under a state key is a miss,
// found without reading it whole: Load allocates a bounded amount, however
// large the value.
func TestLoadOversizedValue(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	if err := rdb.Set(ctx, store.StateKey(robotsURL), bytes.Repeat([]byte("x"), 64<<20), 0).Err(); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	st, ok, err := store.Load(ctx, robotsURL)
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("Load of a 64 MiB value: %v, %d bytes allocated", took.Round(time.Millisecond), alloc)
	if ok || err != nil {
		t.Errorf("Load = %+v, %t, %v; want a miss", st, ok, err)
	}
	if alloc > 4<<20 {
		t.Errorf("Load allocated %d bytes; want at most 4 MiB (a value is at most about 510 KiB)", alloc)
	}
}

// TestFleetForeignStateKey: a state key holding a value of the wrong type
// (a list, a hash) or an oversized string is a miss for that host alone:
// no fault, so the Store is not set aside for every other host, and the
// Cache's fetch replaces it with a good state.
func TestFleetForeignStateKey(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	puts := map[string]func(key string) error{
		"list":      func(key string) error { return rdb.RPush(ctx, key, "a", "b").Err() },
		"hash":      func(key string) error { return rdb.HSet(ctx, key, "f", "v").Err() },
		"oversized": func(key string) error { return rdb.Set(ctx, key, bytes.Repeat([]byte("x"), 8<<20), 0).Err() },
	}
	h := 0
	for name, put := range puts {
		t.Run(name, func(t *testing.T) {
			h++
			robotsURL := "http://host" + string(rune('0'+h)) + ".example/robots.txt"
			other := "http://other" + string(rune('0'+h)) + ".example/robots.txt"
			if err := put(store.StateKey(robotsURL)); err != nil {
				t.Fatal(err)
			}
			// Another host's state, shared: the Cache must read it after
			// meeting the foreign key.
			now := t0
			good := fetch.State{RobotsURL: other, GoodStatus: 200, Body: []byte("User-agent: *\nDisallow: /\n"),
				GoodAt: now, GoodUntil: now.Add(time.Hour), Outcome: fetch.Success, StatusCode: 200,
				FetchedAt: now, NextFetch: now.Add(time.Hour)}
			if err := store.Save(ctx, good); err != nil {
				t.Fatal(err)
			}
			s, clock := newSite(t), newClock()
			var faults atomic.Int64
			c := fleet(s, store, clock, 1, &faults, fetch.Options{})[0]
			if ok, err := c.Allowed(ctx, "FleetBot", robotsURL[:len(robotsURL)-len("robots.txt")]+"private/x"); ok || err != nil {
				t.Errorf("Allowed(private) = %t, %v; want false, nil", ok, err)
			}
			if ok, err := c.Allowed(ctx, "FleetBot", other[:len(other)-len("robots.txt")]+"x"); ok || err != nil {
				t.Errorf("Allowed(the other host, shared Disallow: /) = %t, %v; want false, nil", ok, err)
			}
			if faults.Load() != 0 || s.fetches.Load() != 1 {
				t.Errorf("%d faults, %d fetches; want 0, 1 (the other host from Redis)", faults.Load(), s.fetches.Load())
			}
			// The Cache publishes after its callers have their answer.
			for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				_, ok, err := store.Load(ctx, robotsURL)
				if ok && err == nil {
					break
				}
				if time.Now().After(deadline) {
					t.Errorf("Load 5s after the Cache's fetch = %t, %v; want the state it saved over the foreign key", ok, err)
					break
				}
			}
		})
	}
}
