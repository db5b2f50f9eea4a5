package redisstore_test

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// realisticRules is a robots.txt of about 18 KB: a few groups of many rules.
var realisticRules = func() string {
	var b strings.Builder
	for g, agent := range []string{"*", "Googlebot", "Bingbot", "FleetBot"} {
		fmt.Fprintf(&b, "User-agent: %s\n", agent)
		for i := range 60 {
			fmt.Fprintf(&b, "Disallow: /section-%d/private-%d/*.php$\nAllow: /section-%d/public-%d/\n", g, i, g, i)
		}
		b.WriteString("\n")
	}
	return b.String()
}()

// BenchmarkRedisHit measures a question that the Cache cannot answer from
// memory but Redis can: load the state, check it, parse the file, match.
// Each iteration is a new Cache, as a new worker process would be.
func BenchmarkRedisHit(b *testing.B) {
	srv := startServer(b)
	rdb := client(b, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	now := time.Now()
	for _, bb := range []struct {
		name, body, page string
	}{
		{"small", rules, "http://bench.example/private/x"},
		{"18KB", realisticRules, "http://bench.example/section-3/private-7/x.php"},
	} {
		b.Run(bb.name, func(b *testing.B) {
			const robotsURL = "http://bench.example/robots.txt"
			st := fetch.State{
				RobotsURL: robotsURL, GoodStatus: 200, Body: []byte(bb.body), GoodAt: now, GoodUntil: now.Add(time.Hour),
				Outcome: fetch.Success, StatusCode: 200, FetchedAt: now, NextFetch: now.Add(time.Hour),
			}
			if err := store.Save(ctx, st); err != nil {
				b.Fatal(err)
			}
			opts := fetch.Options{Store: store, Fetched: func(*fetch.Result, error) { b.Fatal("fetched") }}
			b.ReportAllocs()
			for b.Loop() {
				c := fetch.NewCache(nil, userAgent, opts)
				if ok, err := c.Allowed(ctx, "FleetBot", bb.page); ok || err != nil {
					b.Fatalf("Allowed = %t, %v; want false, nil", ok, err)
				}
			}
		})
	}
}

// BenchmarkFleet runs W Caches over H hosts sharing one Redis, with no
// bound in bytes to speak of and with a bound of 2 MiB, and reports the
// fetches per run (must be H), the bytes Redis holds per host, and the
// memory each Cache holds: per host kept, as it counts it (Stats.Bytes), and
// in all, as the Go heap grew, beside the bound.
func BenchmarkFleet(b *testing.B) {
	const workers, hosts = 8, 200
	srv := startServer(b)
	rdb := client(b, srv.Addr())
	s := newSite(b)
	s.body = realisticRules
	ctx := context.Background()
	for _, bound := range []int64{256 << 20, 2 << 20} {
		b.Run(fmt.Sprintf("bound=%dMiB", bound>>20), func(b *testing.B) {
			for b.Loop() {
				b.StopTimer()
				rdb.FlushAll(ctx)
				before := s.fetches.Load()
				var faults atomic.Int64
				runtime.GC()
				var m0 runtime.MemStats
				runtime.ReadMemStats(&m0)
				caches := fleet(s, redisstore.New(rdb, redisstore.Options{}), newClock(), workers, &faults,
					fetch.Options{StoreTimeout: 2 * time.Second, LeaseWait: 10 * time.Second, MaxBytes: bound})
				b.StartTimer()
				askAll(b, caches, hosts, time.Minute)
				b.StopTimer()
				runtime.GC()
				var m1 runtime.MemStats
				runtime.ReadMemStats(&m1)
				stats := caches[0].Stats()
				b.ReportMetric(float64(s.fetches.Load()-before), "fetches/run")
				b.ReportMetric(float64(faults.Load()), "faults/run")
				b.ReportMetric(float64(stats.Hosts), "hosts-kept/cache")
				b.ReportMetric(float64(stats.Bytes)/float64(stats.Hosts), "counted-B/host")
				b.ReportMetric(float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc))/workers, "heap-B/cache")
				b.ReportMetric(redisBytesPerHost(b, rdb, hosts), "redis-B/host")
				runtime.KeepAlive(caches)
				b.StartTimer()
			}
		})
	}
}

// redisBytesPerHost returns the MEMORY USAGE of the state keys, per host.
func redisBytesPerHost(b *testing.B, rdb *redis.Client, hosts int) float64 {
	srvKeys, err := rdb.Keys(context.Background(), "robots:*:state").Result()
	if err != nil || len(srvKeys) != hosts {
		b.Fatalf("%d state keys, %v; want %d", len(srvKeys), err, hosts)
	}
	var total int64
	for _, k := range srvKeys {
		n, err := rdb.MemoryUsage(context.Background(), k).Result()
		if err != nil {
			b.Fatal(err)
		}
		total += n
	}
	return float64(total) / float64(hosts)
}
