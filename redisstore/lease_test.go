package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// TestLeaseTakesOverForeignKey: a lease key with no TTL, or one longer than
// the lease term (set by a bug, a person or another program: every lease
// this package keeps is at most a term ahead), is taken over at once by the
// next Lease, which then holds it for a term.
func TestLeaseTakesOverForeignKey(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	for _, ttl := range []time.Duration{0, 31 * time.Second, 10 * time.Minute, 59 * time.Minute, 2 * time.Hour} {
		url := robotsURL + "?ttl=" + ttl.String()
		key := store.LeaseKey(url)
		if err := rdb.Set(ctx, key, "stray", ttl).Err(); err != nil {
			t.Fatal(err)
		}
		l, err := store.Lease(ctx, url, time.Minute)
		if err != nil {
			t.Errorf("Lease over a stray key of TTL %v: %v, want the lease at once", ttl, err)
			continue
		}
		v, _ := rdb.Get(ctx, key).Result()
		left, err := rdb.PTTL(ctx, key).Result()
		if v == "stray" || err != nil || left <= 0 || left > 2*time.Second {
			t.Errorf("stray key of TTL %v after Lease: value %q, PTTL %v, %v; want ours, at most the term (2s)", ttl, v, left, err)
		}
		if _, err := store.Lease(ctx, url, time.Minute); !errors.Is(err, fetch.ErrLeased) {
			t.Errorf("second Lease after taking over a key of TTL %v: %v, want %v (ours now)", ttl, err, fetch.ErrLeased)
		}
		l.Release(ctx)
	}
	// A lease of this fleet, a term ahead at most, is not taken over.
	other := redisstore.New(rdb, redisstore.Options{})
	l, err := other.Lease(ctx, robotsURL, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Release(ctx)
	if _, err := store.Lease(ctx, robotsURL, time.Minute); !errors.Is(err, fetch.ErrLeased) {
		t.Errorf("Lease over another Store's lease: %v, want %v", err, fetch.ErrLeased)
	}
}

// TestLeaseRenewed: a lease is kept in short terms that its holder's
// process renews: held for as long as asked, yet never more than a term
// (2 s) ahead, so that it ends soon after its holder dies.
func TestLeaseRenewed(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	l, err := store.Lease(ctx, robotsURL, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		time.Sleep(700 * time.Millisecond)
		if _, err := store.Lease(ctx, robotsURL, time.Minute); !errors.Is(err, fetch.ErrLeased) {
			t.Fatalf("Lease while the first is held: %v, want %v", err, fetch.ErrLeased)
		}
		ttl, err := rdb.PTTL(ctx, store.LeaseKey(robotsURL)).Result()
		if err != nil || ttl <= 0 || ttl > 2*time.Second {
			t.Fatalf("PTTL of a held lease = %v, %v; want at most the term (2s)", ttl, err)
		}
	}
	if err := l.Release(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Lease(ctx, robotsURL, time.Minute); err != nil {
		t.Errorf("Lease after Release: %v", err)
	}
}

// The environment of the worker process of TestFleetCrashedHolder.
const envHang = "REDISSTORE_HANG_WORKER_REDIS"

// TestFleetCrashedHolder: a worker process takes the lease of a host and
// fetches; the site is slow; the process is killed mid-fetch. Another
// worker must get the rules within a few seconds, not the whole fetch
// Timeout the dead worker's lease was good for.
func TestFleetCrashedHolder(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	var hang atomic.Bool
	hang.Store(true)
	var fetches atomic.Int64
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		if hang.Load() {
			<-r.Context().Done() // until the worker dies
			return
		}
		fmt.Fprint(w, rules)
	}))
	defer site.Close()

	var out strings.Builder
	cmd := exec.Command(os.Args[0], "-test.run=^TestFleetHangingWorker$", "-test.count=1")
	cmd.Env = append(os.Environ(), envHang+"="+srv.Addr(), envSite+"="+site.Listener.Addr().String())
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	key := store.LeaseKey("http://host0.example/robots.txt")
	for deadline := time.Now().Add(20 * time.Second); rdb.Exists(context.Background(), key).Val() == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("the worker took no lease in 20s:\n%s", out.String())
		}
	}
	time.Sleep(100 * time.Millisecond) // its fetch under way
	cmd.Process.Kill()
	cmd.Wait()
	killed := time.Now()
	// The dead worker's lease ends within a term of its last renewal, not
	// after the whole fetch (Timeout + StoreTimeout, 30.2 s) it was taken for.
	if left := rdb.PTTL(context.Background(), key).Val(); left > 2*time.Second {
		t.Errorf("the dead worker's lease has %v to run; want at most the lease term (2s)", left)
	}
	hang.Store(false)

	c := fetch.NewCache(siteClient(site.Listener.Addr().String()), userAgent, fetch.Options{Store: store})
	refusals := 0
	for {
		ok, err := c.Allowed(context.Background(), "FleetBot", page(0, "/public"))
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		refusals++
		if time.Since(killed) > 40*time.Second {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	took := time.Since(killed)
	t.Logf("holder killed mid-fetch: the next worker had the rules %v later, after %d refusals; %d fetches", took.Round(10*time.Millisecond), refusals, fetches.Load())
	// Without the term, the Cache would have waited for the dead lease, as
	// for a fetch of its own, 30.2 s, then fetched alone.
	if took > 15*time.Second || refusals != 0 {
		t.Errorf("rules %v after the holder died, %d refusals; want them at the first question, once the lease ran out (a term, 2 s), not after its whole ttl (30.2 s)", took, refusals)
	}
}

// TestFleetHangingWorker is the worker process of TestFleetCrashedHolder:
// it asks about a host whose site does not answer, until it is killed. Run
// by itself, it checks nothing and passes.
func TestFleetHangingWorker(t *testing.T) {
	addr := os.Getenv(envHang)
	if addr == "" {
		return
	}
	c := fetch.NewCache(siteClient(os.Getenv(envSite)), userAgent, fetch.Options{
		Store: redisstore.New(client(t, addr), redisstore.Options{}),
	})
	c.Allowed(context.Background(), "FleetBot", page(0, "/public"))
	t.Errorf("the fetch ended: the site should have hung until this process was killed")
}

// TestFleetSlowFetchUnderLoad: W workers ask about H hosts at once, and
// each fetch takes longer than LeaseWait. The workers that wait for another's
// fetch of a host they know nothing of must not answer "disallow all: not
// fetched yet" to a page the file allows: they wait for the fetch, as for
// one of their own; each host is still fetched once.
func TestFleetSlowFetchUnderLoad(t *testing.T) {
	const workers, hosts = 4, 20
	srv := startServer(t)
	s, clock := newSite(t), newClock()
	s.delay = 1500 * time.Millisecond // LeaseWait is 500ms
	var faults atomic.Int64
	caches := fleet(s, redisstore.New(client(t, srv.Addr()), redisstore.Options{}), clock, workers, &faults,
		fetch.Options{StoreTimeout: 2 * time.Second}) // a loaded machine, -race: no faults
	var refusals atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for _, c := range caches {
		for h := range hosts {
			wg.Go(func() {
				ok, err := c.Allowed(context.Background(), "FleetBot", page(h, "/public"))
				if err != nil {
					t.Errorf("Allowed(host%d/public): %v", h, err)
				}
				if !ok {
					refusals.Add(1)
				}
			})
		}
	}
	wg.Wait()
	var waits, timeouts uint64
	for _, c := range caches {
		waits += c.Stats().LeaseWaits
		timeouts += c.Stats().LeaseTimeouts
	}
	t.Logf("%d workers × %d hosts, fetches of 1.5s: %d refusals of an allowed page, %d fetches, %d lease waits, %d gave up, %d faults, in %v",
		workers, hosts, refusals.Load(), s.fetches.Load(), waits, timeouts, faults.Load(), time.Since(start).Round(10*time.Millisecond))
	if refusals.Load() != 0 || s.fetches.Load() != hosts || faults.Load() != 0 {
		t.Errorf("%d refusals, %d fetches, %d faults; want 0, %d, 0", refusals.Load(), s.fetches.Load(), faults.Load(), hosts)
	}
}

// TestFleetLeaseKeyWithoutTTL: with a lease key in Redis that no worker of
// the fleet set (no TTL, or one longer than the lease term), the first
// question fetches the file: no wait for the key to run out.
func TestFleetLeaseKeyWithoutTTL(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	s := newSite(t)
	c := fetch.NewCache(s.client(), userAgent, fetch.Options{Store: store})
	for i, ttl := range []time.Duration{0, 31 * time.Second, 10 * time.Minute} {
		if err := rdb.Set(context.Background(), store.LeaseKey(fmt.Sprintf("http://host%d.example/robots.txt", i)), "stray", ttl).Err(); err != nil {
			t.Fatal(err)
		}
		ok, err := c.Allowed(context.Background(), "FleetBot", page(i, "/public"))
		if err != nil || !ok || s.fetches.Load() != int64(i+1) {
			t.Errorf("stray lease key of TTL %v: Allowed(/public) = %t, %v after %d fetches; want true, nil after %d (fetched at once)",
				ttl, ok, err, s.fetches.Load(), i+1)
		}
	}
}
