package redisstore_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

const (
	userAgent = "FleetBot/1.0 (+https://example.com/bot)"
	rules     = "User-agent: *\nDisallow: /private\n"
)

// A site serves the robots.txt of any number of hosts (told apart by the
// Host header) and counts the fetches.
type site struct {
	body    string        // the robots.txt of every host; rules if empty
	delay   time.Duration // before each answer
	srv     *httptest.Server
	fetches atomic.Int64
	mu      sync.Mutex
	byHost  map[string]int
}

func newSite(t testing.TB) *site {
	s := &site{byHost: map[string]int{}}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(s.delay)
		if r.URL.Path == "/robots.txt" {
			s.fetches.Add(1)
			s.mu.Lock()
			s.byHost[r.Host]++
			s.mu.Unlock()
		}
		if s.body != "" {
			fmt.Fprint(w, s.body)
			return
		}
		fmt.Fprint(w, rules)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// client returns an HTTP client that reaches the site for every host name.
func (s *site) client() *http.Client {
	return siteClient(s.srv.Listener.Addr().String())
}

// siteClient returns an HTTP client that reaches addr for every host name,
// dialing only addr, which must be on 127.0.0.1, and resolving nothing.
func siteClient(addr string) *http.Client {
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		if !strings.HasPrefix(addr, "127.0.0.1:") {
			return nil, fmt.Errorf("refusing to dial %s", addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}, MaxIdleConns: 16} // one host name per host: without a bound, an idle connection per host
	return &http.Client{Transport: tr}
}

// page returns the URL of a page of host number i.
func page(i int, path string) string {
	return fmt.Sprintf("http://host%d.example%s", i, path)
}

// A fakeClock is a clock that moves only when told to.
type fakeClock struct{ ns atomic.Int64 }

func (c *fakeClock) Now() time.Time      { return time.Unix(0, c.ns.Load()).UTC() }
func (c *fakeClock) Add(d time.Duration) { c.ns.Add(int64(d)) }
func newClock() *fakeClock               { c := &fakeClock{}; c.ns.Store(t0.UnixNano()); return c }

// fleet makes w Caches sharing store, with clock and opts, counting the
// faults.
func fleet(s *site, store fetch.Store, clock *fakeClock, w int, faults *atomic.Int64, opts fetch.Options) []*fetch.Cache {
	caches := make([]*fetch.Cache, w)
	opts.Store, opts.Now = store, clock.Now
	opts.StoreFault = func(string, error) { faults.Add(1) }
	for i := range caches {
		caches[i] = fetch.NewCache(s.client(), userAgent, opts)
	}
	return caches
}

// askAll asks every cache about every host at once, and fails the test on
// an error, a wrong answer, or an answer slower than bound.
func askAll(t testing.TB, caches []*fetch.Cache, hosts int, bound time.Duration) {
	t.Helper()
	var wg sync.WaitGroup
	for _, c := range caches {
		for h := range hosts {
			wg.Go(func() {
				start := time.Now()
				ok, err := c.Allowed(context.Background(), "FleetBot", page(h, "/private/x"))
				if took := time.Since(start); err != nil || took > bound {
					t.Errorf("Allowed(host%d) = %t, %v after %v; want no error within %v", h, ok, err, took, bound)
				}
			})
		}
	}
	wg.Wait()
}

// keysHook records the commands sent, for check.
type keysHook struct {
	mu   sync.Mutex
	cmds [][]any
}

func (h *keysHook) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *keysHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.record(cmd.Args())
		return next(ctx, cmd)
	}
}

func (h *keysHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		for _, cmd := range cmds {
			h.record(cmd.Args())
		}
		return next(ctx, cmds)
	}
}

func (h *keysHook) record(args []any) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cmds = append(h.cmds, args)
}

// check checks that no command recorded touches keys in two hash slots:
// each command's keys share one hash tag. It returns the number of commands
// with keys.
func (h *keysHook) check(t *testing.T, admin *redis.Client) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, args := range h.cmds {
		keys, err := admin.CommandGetKeys(context.Background(), args...).Result()
		if err != nil {
			continue // a command without keys
		}
		n++
		for _, k := range keys {
			if tag(k) != tag(keys[0]) {
				t.Errorf("command %v touches keys of two hash tags: %q", args[0], keys)
			}
		}
	}
	return n
}

// tag returns the hash tag of a key as Redis Cluster reads it.
func tag(key string) string {
	if i := strings.IndexByte(key, '{'); i >= 0 {
		if j := strings.IndexByte(key[i+1:], '}'); j > 0 {
			return key[i+1 : i+1+j]
		}
	}
	return key
}

// TestFleetOneFetchPerHost runs W Caches over H hosts at once, twice (the
// second time after the files expired): each host is fetched once per
// round, and no command spans two hash slots.
func TestFleetOneFetchPerHost(t *testing.T) {
	const workers, hosts = 8, 20
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	hook := &keysHook{}
	rdb.AddHook(hook)
	s, clock := newSite(t), newClock()
	var faults atomic.Int64
	// Generous bounds: this test counts fetches, on a loaded machine and
	// with -race (see clusterStoreTimeout and clusterLeaseTerm).
	opts := fetch.Options{StoreTimeout: clusterStoreTimeout, LeaseWait: 10 * time.Second}
	caches := fleet(s, redisstore.New(rdb, redisstore.Options{LeaseTerm: clusterLeaseTerm}), clock, workers, &faults, opts)
	for round := 1; round <= 2; round++ {
		askAll(t, caches, hosts, time.Minute)
		if got := s.fetches.Load(); got != int64(round*hosts) {
			t.Errorf("round %d: %d fetches in all, want %d", round, got, round*hosts)
		}
		clock.Add(25 * time.Hour)
	}
	if n := hook.check(t, client(t, srv.Addr())); faults.Load() != 0 || n == 0 {
		t.Errorf("%d faults, %d commands with keys checked; want 0 faults, some commands", faults.Load(), n)
	}
}

// TestFleetFaults breaks Redis in each way, and checks that no caller gets
// an error or waits beyond a bound, that the faults are reported, and that
// the fleet shares again once Redis is back.
func TestFleetFaults(t *testing.T) {
	const workers, hosts = 4, 3
	// The default bounds ten times over, so that a loaded machine's delays
	// (tens to hundreds of ms) stay far inside them, yet far from what a
	// question would wait without them (the slow Redis's 30 s, or the
	// 40 s of a lease never published). A question waits at most LeaseWait
	// and three calls to the Store, then fetches alone (the fetch is local).
	opts := fetch.Options{StoreTimeout: 2 * time.Second, LeaseWait: 5 * time.Second, Timeout: 40 * time.Second}
	bound := opts.LeaseWait + 3*opts.StoreTimeout + 2*time.Second
	tests := []struct {
		name string
		// setup returns the address the Caches use, and break and mend,
		// which put Redis out of order and back.
		setup func(t *testing.T) (addr string, breakIt, mend func())
		// brokenAtStart: Redis is out of order from the first question.
		brokenAtStart bool
	}{
		{
			name: "down-at-start",
			setup: func(t *testing.T) (string, func(), func()) {
				srv := startServer(t)
				srv.kill()
				return srv.Addr(), srv.kill, func() { srv.start(t) }
			},
			brokenAtStart: true,
		},
		{
			name: "killed-then-restarted-empty",
			setup: func(t *testing.T) (string, func(), func()) {
				srv := startServer(t)
				return srv.Addr(), srv.kill, func() { srv.start(t) }
			},
		},
		{
			name: "slow",
			setup: func(t *testing.T) (string, func(), func()) {
				srv := startServer(t)
				p := startProxy(t, srv.Addr())
				return p.Addr(), func() { p.delay.Store(int64(30 * time.Second)) }, func() { p.delay.Store(0) }
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, breakIt, mend := tt.setup(t)
			s, clock := newSite(t), newClock()
			var faults atomic.Int64
			caches := fleet(s, redisstore.New(client(t, addr), redisstore.Options{}), clock, workers, &faults, opts)
			if !tt.brokenAtStart {
				askAll(t, caches, hosts, bound)
				if got := s.fetches.Load(); got != hosts || faults.Load() != 0 {
					t.Fatalf("sharing: %d fetches, %d faults; want %d, 0", got, faults.Load(), hosts)
				}
				breakIt()
				clock.Add(25 * time.Hour)
			}
			before := s.fetches.Load()
			start := time.Now()
			askAll(t, caches, hosts, bound)
			t.Logf("broken: %d workers × %d hosts answered in %v; %d fetches, %d faults reported",
				workers, hosts, time.Since(start).Round(time.Millisecond), s.fetches.Load()-before, faults.Load())
			if faults.Load() == 0 {
				t.Errorf("broken: no fault reported")
			}
			if got := s.fetches.Load() - before; got < hosts || got > workers*hosts {
				t.Errorf("broken: %d fetches, want each cache alone (%d to %d)", got, hosts, workers*hosts)
			}

			mend()
			time.Sleep(1100 * time.Millisecond) // the caches leave a faulty Store aside for a second
			clock.Add(25 * time.Hour)
			before, faultsBefore := s.fetches.Load(), faults.Load()
			askAll(t, caches, hosts, bound)
			t.Logf("mended: %d fetches, %d new faults", s.fetches.Load()-before, faults.Load()-faultsBefore)
			if got := s.fetches.Load() - before; got != hosts || faults.Load() != faultsBefore {
				t.Errorf("mended: %d fetches, %d new faults; want %d, 0 (shared again)", got, faults.Load()-faultsBefore, hosts)
			}
		})
	}
}

// TestFleetDeadLeaseHolder checks that a lease whose worker died expires on
// its own, and that a worker that knows nothing of the file waits for it
// rather than refuse, then takes the lease and fetches.
func TestFleetDeadLeaseHolder(t *testing.T) {
	srv := startServer(t)
	rdb := client(t, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	s, clock := newSite(t), newClock()
	robotsURL := "http://host0.example/robots.txt"
	// The dead worker's lease, as a Cache with a 300 ms Timeout takes it.
	if _, err := store.Lease(context.Background(), robotsURL, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	var faults atomic.Int64
	// Knowing nothing of the file, the Cache would wait for the lease as
	// for a fetch of its own, Timeout + StoreTimeout (a minute here): the
	// question must end long before, once the dead lease expired (300 ms),
	// however loaded the machine.
	opts := fetch.Options{LeaseWait: 100 * time.Millisecond, Timeout: time.Minute}
	c := fleet(s, store, clock, 1, &faults, opts)[0]
	start := time.Now()
	ok, err := c.Allowed(context.Background(), "FleetBot", page(0, "/"))
	took := time.Since(start)
	st, _ := c.State(page(0, "/"))
	if !ok || err != nil || !strings.HasPrefix(st.Policy, "rules fetched") || took > opts.Timeout/2 {
		t.Errorf("Allowed = %t, %v (%s) after %v; want true (rules fetched…) once the dead lease expired (300ms), not after the Cache's wait (%v)",
			ok, err, st.Policy, took, opts.Timeout)
	}
	if got := s.fetches.Load(); got != 1 || faults.Load() != 0 {
		t.Errorf("%d fetches, %d faults; want 1, 0", got, faults.Load())
	}
}

// TestFleetKilledMidFetch kills Redis while the lease holders fetch: every
// worker still answers by the file, within the bound plus the fetch, the
// waiters fetching alone once Redis fails them.
func TestFleetKilledMidFetch(t *testing.T) {
	const workers, hosts = 4, 3
	srv := startServer(t)
	s, clock := newSite(t), newClock()
	s.delay = 200 * time.Millisecond
	var faults atomic.Int64
	// A waiter whose holder cannot publish (Redis died) would wait for the
	// lease as for a fetch of its own, Timeout + StoreTimeout (40 s here),
	// if Redis's failure did not free it: each must answer long before.
	opts := fetch.Options{Timeout: 40 * time.Second}
	bound := opts.Timeout / 4
	caches := fleet(s, redisstore.New(client(t, srv.Addr()), redisstore.Options{}), clock, workers, &faults, opts)
	var wg sync.WaitGroup
	wg.Go(func() {
		time.Sleep(100 * time.Millisecond)
		srv.kill()
	})
	for _, c := range caches {
		for h := range hosts {
			wg.Go(func() {
				start := time.Now()
				ok, err := c.Allowed(context.Background(), "FleetBot", page(h, "/public"))
				if took := time.Since(start); !ok || err != nil || took > bound {
					t.Errorf("Allowed(host%d/public) = %t, %v after %v; want true within %v", h, ok, err, took, bound)
				}
			})
		}
	}
	wg.Wait()
	t.Logf("killed mid-fetch: %d fetches, %d faults", s.fetches.Load(), faults.Load())
	if faults.Load() == 0 {
		t.Errorf("no fault reported")
	}
}
