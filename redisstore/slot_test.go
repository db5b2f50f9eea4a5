package redisstore_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// redisNow returns Redis's clock.
func redisNow(t testing.TB, rdb redis.UniversalClient) time.Time {
	t.Helper()
	now, err := rdb.Time(context.Background()).Result()
	if err != nil {
		t.Fatal(err)
	}
	return now
}

// TestSlotScript checks that the script does what fetch.SlotRequest.Apply,
// the definition, does: each case writes a slot value relative to Redis's
// clock, applies a request, and compares the result and the value left
// with Apply's at the time read, less the time the call took.
func TestSlotScript(t *testing.T) {
	rdb := client(t, redisAddr)
	store := redisstore.New(rdb, redisstore.Options{Prefix: "slot-script:"})
	const s = time.Second
	base := fetch.SlotRequest{Delay: s, MaxBackoff: 60 * s, Horizon: 3600 * s}
	type value struct{ ahead, backoff time.Duration }
	tests := []struct {
		name string
		op   fetch.SlotOp
		v    *value // nil: no key
		mod  func(*fetch.SlotRequest)
	}{
		{"peek/none", fetch.SlotPeek, nil, nil},
		{"peek/busy", fetch.SlotPeek, &value{2 * s, 0}, nil},
		{"take/none", fetch.SlotTake, nil, nil},
		{"take/busy", fetch.SlotTake, &value{2 * s, 0}, nil},
		{"take/backoff", fetch.SlotTake, &value{0, 8 * s}, nil},
		{"take/horizon", fetch.SlotTake, &value{3599 * s, 0}, nil},
		{"try/within", fetch.SlotTry, &value{2 * s, 0}, func(r *fetch.SlotRequest) { r.Within = 3 * s }},
		{"try/too-far", fetch.SlotTry, &value{2 * s, 0}, func(r *fetch.SlotRequest) { r.Within = s }},
		{"slow-down/hold", fetch.SlotSlowDown, &value{s, 0}, func(r *fetch.SlotRequest) { r.Hold = 3 * s }},
		{"slow-down/hold-shorter", fetch.SlotSlowDown, &value{5 * s, 0}, func(r *fetch.SlotRequest) { r.Hold = s }},
		{"slow-down/hold-1ns", fetch.SlotSlowDown, nil, func(r *fetch.SlotRequest) { r.Hold = 1 }},
		{"slow-down/first", fetch.SlotSlowDown, nil, nil},
		{"slow-down/no-delay", fetch.SlotSlowDown, nil, func(r *fetch.SlotRequest) { r.Delay = 0 }},
		{"slow-down/doubles", fetch.SlotSlowDown, &value{0, 8 * s}, nil},
		{"slow-down/capped", fetch.SlotSlowDown, &value{0, 50 * s}, nil},
		{"relax/halves", fetch.SlotRelax, &value{s, 8 * s}, nil},
		{"relax/ends", fetch.SlotRelax, &value{0, 2 * s}, nil},
		{"poisoned/far", fetch.SlotTake, &value{1e6 * s, 0}, nil},
		{"poisoned/backoff", fetch.SlotTake, &value{0, 1e6 * s}, nil},
	}
	ctx := t.Context()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			const robotsURL = "http://script.example/robots.txt"
			key := store.SlotKey(robotsURL)
			rdb.Del(ctx, key)
			req := base
			req.Op = tt.op
			if tt.mod != nil {
				tt.mod(&req)
			}
			begin := time.Now()
			now := redisNow(t, rdb)
			var v fetch.SlotValue
			if tt.v != nil {
				v = fetch.SlotValue{Next: now.Add(tt.v.ahead), Backoff: tt.v.backoff}
				rdb.Set(ctx, key, fmt.Sprintf("%d %d", v.Next.UnixMicro(), v.Backoff.Microseconds()), time.Hour)
			}
			got, err := store.Slot(ctx, robotsURL, req)
			took := time.Since(begin) + time.Millisecond
			if err != nil {
				t.Fatal(err)
			}
			wantV, want := req.Apply(v, now)
			if got.Taken != want.Taken || got.Backoff != want.Backoff || got.Wait > want.Wait || got.Wait < want.Wait-took {
				t.Errorf("Slot = %+v, want %+v (its Wait up to %v less)", got, want, took)
			}
			left, err := rdb.Get(ctx, key).Result()
			if req.Op == fetch.SlotPeek {
				if tt.v == nil && err != redis.Nil {
					t.Errorf("a peek wrote %q", left)
				}
				return
			}
			var next, backoff int64
			if _, err := fmt.Sscanf(left, "%d %d", &next, &backoff); err != nil {
				t.Fatalf("value left %q: %v", left, err)
			}
			ahead := time.UnixMicro(next).Sub(now)
			if wantAhead := wantV.Next.Sub(now); ahead < wantAhead || ahead > wantAhead+took ||
				time.Duration(backoff)*time.Microsecond != wantV.Backoff {
				t.Errorf("value left: next in %v, back-off %v; want %v (up to %v more), %v", ahead,
					time.Duration(backoff)*time.Microsecond, wantAhead, took, wantV.Backoff)
			}
			if ttl := rdb.PTTL(ctx, key).Val(); ttl < ahead+time.Minute-took || ttl > ahead+2*wantV.Backoff+time.Minute+time.Millisecond+took {
				t.Errorf("TTL of the key %v, want past the slot (%v) and the back-off", ttl, ahead)
			}
		})
	}
}

// TestSlotForeignValues checks that a slot key holding what this package
// never writes is read as no slot, or as a slot at most the horizon away,
// without an error, and replaced.
func TestSlotForeignValues(t *testing.T) {
	rdb := client(t, redisAddr)
	store := redisstore.New(rdb, redisstore.Options{Prefix: "slot-foreign:"})
	ctx := t.Context()
	req := fetch.SlotRequest{Op: fetch.SlotTake, Delay: time.Second, MaxBackoff: time.Minute, Horizon: time.Hour}
	tests := []struct {
		name    string
		set     func(key string) error
		maxWait time.Duration
	}{
		{"text", func(k string) error { return rdb.Set(ctx, k, "not a slot", 0).Err() }, 0},
		{"negative", func(k string) error { return rdb.Set(ctx, k, "-5 -5", 0).Err() }, 0},
		{"huge", func(k string) error {
			return rdb.Set(ctx, k, strings.Repeat("9", 40)+" "+strings.Repeat("9", 20), 0).Err()
		}, time.Hour},
		{"oversized", func(k string) error { return rdb.Set(ctx, k, strings.Repeat("1", 64<<20), 0).Err() }, 0},
		{"hash", func(k string) error { return rdb.HSet(ctx, k, "a", "b").Err() }, 0},
		{"list", func(k string) error { return rdb.RPush(ctx, k, "1 2").Err() }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			robotsURL := "http://" + tt.name + ".example/robots.txt"
			key := store.SlotKey(robotsURL)
			if err := tt.set(key); err != nil {
				t.Fatal(err)
			}
			got, err := store.Slot(ctx, robotsURL, req)
			if err != nil || !got.Taken || got.Wait > tt.maxWait || got.Backoff > time.Minute {
				t.Errorf("Slot over a foreign value = %+v, %v; want a slot taken within %v, no error", got, err, tt.maxWait)
			}
			if got, err := store.Slot(ctx, robotsURL, req); err != nil || got.Wait < tt.maxWait+time.Second-100*time.Millisecond && tt.maxWait < time.Hour {
				t.Errorf("the next Slot = %+v, %v; want the value replaced, one delay on", got, err)
			}
		})
	}
}

// delaySite starts hosts on 127.0.0.1, each on its own port, each with the
// robots.txt given, and records when each page request reached it.
type delaySite struct {
	mu     sync.Mutex
	robots map[string]int         // robots.txt fetches by host
	pages  map[string][]time.Time // page requests by host
}

func (d *delaySite) host(t testing.TB, robotsTxt string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.mu.Lock()
		defer d.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			d.robots[r.Host]++
			fmt.Fprint(w, robotsTxt)
			return
		}
		d.pages[r.Host] = append(d.pages[r.Host], time.Now())
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestSlotFleet runs two Politenesses, each with its own client and a clock
// an hour off (either way), over one Redis: 8 workers reserve slots on a
// host with "Crawl-delay: 0.5"; the slots, as each worker will start them,
// are a delay apart, whoever took them.
func TestSlotFleet(t *testing.T) {
	d := &delaySite{robots: map[string]int{}, pages: map[string][]time.Time{}}
	host := d.host(t, "User-agent: *\nCrawl-delay: 0.5\n")
	var ps []*fetch.Politeness
	for i := range 2 {
		store := redisstore.New(client(t, redisAddr), redisstore.Options{Prefix: "slot-fleet:"})
		cache := fetch.NewCache(nil, userAgent, fetch.Options{Store: store, AllowPrivate: true})
		skew := time.Duration(2*i-1) * time.Hour
		p, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{Now: func() time.Time { return time.Now().Add(skew) }})
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, p)
	}
	var mu sync.Mutex
	var starts []time.Time // on this machine's clock
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			p := ps[w%2]
			skew := time.Duration(2*(w%2)-1) * time.Hour
			for range 3 {
				start, err := p.Reserve(t.Context(), host+"/page")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				starts = append(starts, start.Add(-skew))
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	sort.Slice(starts, func(i, j int) bool { return starts[i].Before(starts[j]) })
	const delay, tolerance = 500 * time.Millisecond, 25 * time.Millisecond // 5 %
	for i := 1; i < len(starts); i++ {
		if gap := starts[i].Sub(starts[i-1]); gap < delay-tolerance {
			t.Errorf("slots %d and %d start %v apart, want %v (within %v)", i-1, i, gap, delay, tolerance)
		}
	}
	if last := starts[len(starts)-1].Sub(starts[0]); last < 23*delay-tolerance {
		t.Errorf("24 slots span %v, want 23 delays", last)
	}
	var shared int64
	for _, p := range ps {
		shared += p.Stats().Shared
	}
	if shared != 24 {
		t.Errorf("slots taken in Redis: %d, want 24", shared)
	}
	if n := d.robots[strings.TrimPrefix(host, "http://")]; n != 1 {
		t.Errorf("robots.txt fetched %d times, want once", n)
	}
}

// TestSlotRedisDown checks that with Redis down a worker takes its slots
// alone at once (no call waits past StoreTimeout), FleetSize times the
// delay apart, says so in its stats, and shares again when Redis is back.
func TestSlotRedisDown(t *testing.T) {
	srv := startServer(t)
	d := &delaySite{robots: map[string]int{}, pages: map[string][]time.Time{}}
	host := d.host(t, "User-agent: *\nCrawl-delay: 1\n")
	store := redisstore.New(client(t, srv.Addr()), redisstore.Options{})
	var faults atomic.Int64
	cache := fetch.NewCache(nil, userAgent, fetch.Options{Store: store, AllowPrivate: true,
		StoreTimeout: 100 * time.Millisecond, StoreFault: func(string, error) { faults.Add(1) }})
	p, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{FleetSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	first, err := p.Reserve(ctx, host+"/a")
	if err != nil {
		t.Fatal(err)
	}
	srv.kill()
	var starts []time.Time
	for range 3 {
		begin := time.Now()
		start, err := p.Reserve(ctx, host+"/b")
		if took := time.Since(begin); err != nil || took > 2*time.Second {
			t.Fatalf("Reserve with Redis down = %v after %v", err, took)
		}
		starts = append(starts, start)
	}
	// The first alone after the shared one (1 s on), then 4 s apart.
	for i, want := range []time.Duration{time.Second, 5 * time.Second, 9 * time.Second} {
		if got := starts[i].Sub(first); got < want-50*time.Millisecond || got > want+time.Second {
			t.Errorf("slot %d alone starts %v after the shared one, want %v", i, got, want)
		}
	}
	st := p.Stats()
	if st.Alone != 3 || st.StoreFaults < 1 || st.Shared != 1 {
		t.Errorf("Stats() with Redis down = %+v, want 3 alone, 1 shared, a fault", st)
	}
	srv.start(t)
	time.Sleep(1100 * time.Millisecond) // the Store's second aside
	if _, err := p.Reserve(ctx, host+"/c"); err != nil {
		t.Fatal(err)
	}
	if got := p.Stats(); got.Shared != 2 {
		t.Errorf("Stats() once Redis is back = %+v, want 2 shared", got)
	}
}

// TestClusterSlots takes slots for 30 hosts on the 6-node Cluster, through
// two clients: every host's second slot is a delay after its first, and
// the slots are spread over the masters.
func TestClusterSlots(t *testing.T) {
	c := startCluster(t, 2*time.Second)
	stores := []*redisstore.Store{
		redisstore.New(clusterClient(t, c, nil), redisstore.Options{}),
		redisstore.New(clusterClient(t, c, nil), redisstore.Options{}),
	}
	ctx := t.Context()
	req := fetch.SlotRequest{Op: fetch.SlotTake, Delay: time.Minute, MaxBackoff: time.Minute, Horizon: time.Hour}
	masters := map[string]int{}
	for i := range 30 {
		robotsURL := "http://host" + strconv.Itoa(i) + ".example/robots.txt"
		for j, store := range stores {
			got, err := store.Slot(ctx, robotsURL, req)
			if err != nil {
				t.Fatal(err)
			}
			if want := time.Duration(j) * time.Minute; got.Wait > want || got.Wait < want-time.Second || !got.Taken {
				t.Errorf("%s: slot %d = %+v, want taken, %v away", robotsURL, j, got, want)
			}
		}
		masters[stores[0].Shard(robotsURL)]++
	}
	if len(masters) != 3 {
		t.Errorf("hosts by master %v, want 3 masters", masters)
	}
}

// TestSlotRedisSlow checks that a Redis slower than StoreTimeout holds no
// reservation longer than about that: the worker takes its slots alone,
// and says so.
func TestSlotRedisSlow(t *testing.T) {
	d := &delaySite{robots: map[string]int{}, pages: map[string][]time.Time{}}
	host := d.host(t, "User-agent: *\nCrawl-delay: 1\n")
	px := startProxy(t, redisAddr)
	store := redisstore.New(client(t, px.Addr()), redisstore.Options{Prefix: "slot-slow:"})
	const storeTimeout = 100 * time.Millisecond
	cache := fetch.NewCache(nil, userAgent, fetch.Options{Store: store, AllowPrivate: true,
		StoreTimeout: storeTimeout, StoreFault: func(string, error) {}})
	p, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if _, err := p.Reserve(ctx, host+"/a"); err != nil { // robots.txt fetched, and a slot shared
		t.Fatal(err)
	}
	px.delay.Store(int64(4 * time.Second))
	for range 3 {
		begin := time.Now()
		if _, err := p.Reserve(ctx, host+"/b"); err != nil {
			t.Fatal(err)
		}
		// The first call waits StoreTimeout; the next ones find the Store
		// set aside. A bound well under the proxy's delay.
		if took := time.Since(begin); took > 2*time.Second {
			t.Errorf("Reserve with Redis 4 s slow took %v, want about StoreTimeout (%v)", took, storeTimeout)
		}
	}
	if st := p.Stats(); st.Alone != 3 || st.StoreFaults != 1 {
		t.Errorf("Stats() with Redis slow = %+v, want 3 alone, 1 fault", st)
	}
}
