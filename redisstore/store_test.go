package redisstore_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

const robotsURL = "https://example.com/robots.txt"

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// states are the States the tests save and load back.
var states = []struct {
	name string
	st   fetch.State
}{
	{"good", fetch.State{
		RobotsURL: robotsURL, GoodStatus: 200, Body: []byte("User-agent: *\nDisallow: /private\n"),
		GoodAt: t0, GoodUntil: t0.Add(24 * time.Hour),
		Outcome: fetch.Success, StatusCode: 200, FetchedAt: t0, NextFetch: t0.Add(24 * time.Hour),
	}},
	{"404", fetch.State{
		RobotsURL: robotsURL, GoodStatus: 404, GoodAt: t0, GoodUntil: t0.Add(time.Hour),
		Outcome: fetch.Unavailable, StatusCode: 404, FetchedAt: t0, NextFetch: t0.Add(time.Hour),
	}},
	{"failing", fetch.State{
		RobotsURL: robotsURL, GoodStatus: 200, Body: []byte(strings.Repeat("Disallow: /x\n", 1000)),
		GoodAt: t0, GoodUntil: t0.Add(24 * time.Hour), FailingSince: t0.Add(25 * time.Hour),
		Outcome: fetch.Unreachable, StatusCode: 0, FetchedAt: t0.Add(26 * time.Hour), NextFetch: t0.Add(27 * time.Hour),
	}},
}

func TestSaveLoad(t *testing.T) {
	srv := startServer(t)
	store := redisstore.New(client(t, srv.Addr()), redisstore.Options{})
	ctx := context.Background()
	for _, tt := range states {
		t.Run(tt.name, func(t *testing.T) {
			if err := store.Save(ctx, tt.st); err != nil {
				t.Fatal(err)
			}
			got, ok, err := store.Load(ctx, robotsURL)
			if err != nil || !ok {
				t.Fatalf("Load = %t, %v; want the state", ok, err)
			}
			if diff := cmp.Diff(tt.st, got); diff != "" {
				t.Errorf("state mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestBadValues checks that what this package did not write, for this URL,
// is a miss: never an error, a panic or a wrong state.
func TestBadValues(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	if err := store.Save(ctx, states[2].st); err != nil {
		t.Fatal(err)
	}
	good, err := rdb.Get(ctx, store.StateKey(robotsURL)).Bytes()
	if err != nil {
		t.Fatal(err)
	}
	flipped := append([]byte(nil), good...)
	flipped[len(flipped)/2] ^= 1
	newer := append([]byte(nil), good...)
	newer[3] = 4
	tests := []struct {
		name  string
		value []byte
	}{
		{"empty", nil},
		{"foreign-text", []byte("User-agent: *\nDisallow: /\n")},
		{"foreign-json", []byte(`{"url":"https://example.com/robots.txt","body":""}`)},
		{"truncated-1", good[:len(good)-1]},
		{"truncated-half", good[:len(good)/2]},
		{"header-only", good[:4]},
		{"bit-flip", flipped},
		{"newer-version", newer},
		{"oversized", append(append([]byte(nil), good...), make([]byte, 600<<10)...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := rdb.Set(ctx, store.StateKey(robotsURL), tt.value, time.Minute).Err(); err != nil {
				t.Fatal(err)
			}
			if st, ok, err := store.Load(ctx, robotsURL); ok || err != nil {
				t.Errorf("Load = %+v, %t, %v; want a miss", st, ok, err)
			}
		})
	}
	t.Run("other-url", func(t *testing.T) {
		other := "https://other.example/robots.txt"
		if err := rdb.Set(ctx, store.StateKey(other), good, time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
		if st, ok, err := store.Load(ctx, other); ok || err != nil {
			t.Errorf("Load of another URL's value = %+v, %t, %v; want a miss", st, ok, err)
		}
	})
}

// TestKeys checks the layout of keys: under the prefix, one hash tag per
// robots.txt URL (so one Cluster slot), and a TTL on each.
func TestKeys(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{Prefix: "crawl:robots:"})
	ctx := context.Background()
	if err := store.Save(ctx, states[1].st); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Lease(ctx, robotsURL, time.Minute); err != nil {
		t.Fatal(err)
	}
	keys, err := rdb.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"crawl:robots:{" + robotsURL + "}:lease", "crawl:robots:{" + robotsURL + "}:state"}
	if diff := cmp.Diff(want, keys, cmpSorted); diff != "" {
		t.Errorf("keys mismatch (-want +got):\n%s", diff)
	}
	// The lease, taken for a minute, is kept one 2-second term at a time.
	ttls := map[string]time.Duration{want[0]: 2 * time.Second, want[1]: 32 * 24 * time.Hour}
	for key, max := range ttls {
		ttl, err := rdb.PTTL(ctx, key).Result()
		if err != nil || ttl <= max/2 || ttl > max {
			t.Errorf("PTTL %s = %v, %v; want about %v", key, ttl, err, max)
		}
	}
}

var cmpSorted = cmpopts.SortSlices(func(a, b string) bool { return a < b })

func TestLease(t *testing.T) {
	srv := startServer(t)
	store := redisstore.New(client(t, srv.Addr()), redisstore.Options{})
	ctx := context.Background()
	first, err := store.Lease(ctx, robotsURL, 100*time.Millisecond)
	if err != nil {
		t.Fatalf("first Lease: %v", err)
	}
	if _, err := store.Lease(ctx, robotsURL, time.Minute); !errors.Is(err, fetch.ErrLeased) {
		t.Errorf("second Lease: %v, want %v", err, fetch.ErrLeased)
	}
	time.Sleep(150 * time.Millisecond) // the first lease expires on its own
	second, err := store.Lease(ctx, robotsURL, time.Minute)
	if err != nil {
		t.Fatalf("Lease after expiry: %v", err)
	}
	// The first holder, late, must not release the second's lease.
	if err := first.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Lease(ctx, robotsURL, time.Minute); !errors.Is(err, fetch.ErrLeased) {
		t.Errorf("Lease after a stale Release: %v, want %v", err, fetch.ErrLeased)
	}
	if err := second.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Lease(ctx, robotsURL, time.Minute); err != nil {
		t.Errorf("Lease after Release: %v", err)
	}
}
