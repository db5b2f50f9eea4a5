package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

// A memStore is a Store in memory, shared by the Caches of a test as a
// fleet shares Redis.
type memStore struct {
	mu     sync.Mutex
	states map[string]fetch.State
	leases map[string]time.Time // robots URL -> expiry
	saves  int
}

func newMemStore() *memStore {
	return &memStore{states: map[string]fetch.State{}, leases: map[string]time.Time{}}
}

func (m *memStore) Load(_ context.Context, robotsURL string) (fetch.State, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	st, ok := m.states[robotsURL]
	return st, ok, nil
}

func (m *memStore) Save(_ context.Context, st fetch.State) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.states[st.RobotsURL] = st
	m.saves++
	return nil
}

func (m *memStore) Lease(_ context.Context, robotsURL string, ttl time.Duration) (fetch.Lease, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if time.Now().Before(m.leases[robotsURL]) {
		return nil, fetch.ErrLeased
	}
	m.leases[robotsURL] = time.Now().Add(ttl)
	return memLease{m, robotsURL}, nil
}

type memLease struct {
	m         *memStore
	robotsURL string
}

func (l memLease) Release(context.Context) error {
	l.m.mu.Lock()
	defer l.m.mu.Unlock()
	delete(l.m.leases, l.robotsURL)
	return nil
}

// handler answers robots.txt with status, header fields and body, counting
// the requests.
type handler struct {
	requests atomic.Int32
	status   int
	header   map[string]string
	body     string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	for k, v := range h.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(h.status)
	fmt.Fprint(w, h.body)
}

func TestGetRetryAfter(t *testing.T) {
	future := time.Now().Add(48 * time.Hour).UTC().Format(http.TimeFormat)
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		status     int
		retryAfter string
		want       time.Duration
	}{
		{"503/seconds", 503, "120", 2 * time.Minute},
		{"429/seconds", 429, "7200", 2 * time.Hour},
		{"503/none", 503, "", 10 * time.Minute},
		{"429/none", 429, "", time.Hour},
		{"503/below-min", 503, "5", time.Minute},
		{"429/above-disallow-phase", 429, "86400", 12 * time.Hour},
		{"503/overflow", 503, "99999999999999", 12 * time.Hour},
		{"503/date-future", 503, future, 12 * time.Hour},
		{"503/date-past", 503, past, time.Minute},
		{"503/garbage", 503, "soon", 10 * time.Minute},
		{"500/ignored", 500, "120", time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &handler{status: tt.status, header: map[string]string{"Retry-After": tt.retryAfter}}
			srv := serve(t, h.ServeHTTP)
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if res.TTL != tt.want {
				t.Errorf("Retry-After %q after %d: TTL = %v, want %v", tt.retryAfter, tt.status, res.TTL, tt.want)
			}
		})
	}
}

func TestGetBody(t *testing.T) {
	long := strings.Repeat("# filler\n", robots.MaxSize/9+1)
	tests := []struct {
		name          string
		status        int
		body          string
		wantBody      int
		wantTruncated bool
	}{
		{"ok", 200, privateRules, len(privateRules), false},
		{"exactly-max", 200, long[:robots.MaxSize], robots.MaxSize, false},
		{"truncated", 200, long, robots.MaxSize, true},
		{"404-no-body", 404, privateRules, 0, false},
		{"503-no-body", 503, privateRules, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, (&handler{status: tt.status, body: tt.body}).ServeHTTP)
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Body) != tt.wantBody || res.Truncated != tt.wantTruncated {
				t.Errorf("Body %d bytes, Truncated %t; want %d, %t", len(res.Body), res.Truncated, tt.wantBody, tt.wantTruncated)
			}
			if tt.wantBody > 0 && string(res.Body) != tt.body[:tt.wantBody] {
				t.Errorf("Body differs from what the server sent")
			}
		})
	}
}

// TestGetHeaderBound checks that the default client refuses a response
// header of a megabyte.
func TestGetHeaderBound(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		for i := range 64 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("x", 16<<10))
		}
		fmt.Fprint(w, privateRules)
	})
	res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
	if err == nil || res.Outcome != fetch.Unreachable {
		t.Errorf("Get with a 1 MiB header = %v, %v; want unreachable and an error", res.Outcome, err)
	}
}

func TestCacheAgentToken(t *testing.T) {
	srv := serve(t, (&handler{status: 200, body: "User-agent: EvalBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n"}).ServeHTTP)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{})
	tests := []struct {
		agent   string
		want    bool
		wantErr bool
	}{
		{"EvalBot", false, false},
		{"EvalBot/1.0 (+http://x)", false, false},
		{"Mozilla/5.0 (compatible; EvalBot/2.1; +http://x)", false, false},
		{"OtherBot", true, false},
		{"(+http://x)", false, true},
	}
	for _, tt := range tests {
		ok, err := c.Allowed(context.Background(), tt.agent, srv.URL+"/page")
		if ok != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("Allowed(%q, /page) = %t, %v; want %t, error %t", tt.agent, ok, err, tt.want, tt.wantErr)
		}
	}
}

func TestCacheStateAndDecide(t *testing.T) {
	h := &handler{status: 503, header: map[string]string{"Retry-After": "300"}}
	srv := serve(t, h.ServeHTTP)
	clock := &fakeClock{t: epoch}
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Now: clock.Now})
	if _, ok := c.State(srv.URL + "/"); ok {
		t.Errorf("State before any question = true, want false")
	}
	d, err := c.Decide(context.Background(), testAgent, srv.URL+"/page")
	if err != nil || d.Allowed || d.Reason != robots.ReasonDisallowAll {
		t.Errorf("Decide = %v, %v; want disallowed by %v", d, err, robots.ReasonDisallowAll)
	}
	got, ok := c.State(srv.URL + "/page")
	want := fetch.HostState{
		RobotsURL:    srv.URL + "/robots.txt",
		Outcome:      fetch.Unreachable,
		StatusCode:   503,
		FetchedAt:    epoch,
		FailingSince: epoch,
		NextFetch:    epoch.Add(5 * time.Minute),
		Policy:       "disallow all: 503 since 2026-01-01T00:00:00Z, retried at 2026-01-01T00:05:00Z",
	}
	if diff := cmp.Diff(want, got); !ok || diff != "" {
		t.Errorf("State mismatch (-want +got):\n%s", diff)
	}
	stats := c.Stats()
	if stats.Misses != 1 || stats.Fetches[fetch.Unreachable] != 1 || stats.Hosts != 1 {
		t.Errorf("Stats = %+v; want 1 miss, 1 unreachable fetch, 1 host", stats)
	}
}

// TestCacheBytes checks the bound in bytes: hosts go least recently used
// first, and a file larger than the bound is answered but not kept.
func TestCacheBytes(t *testing.T) {
	small := &handler{status: 200, body: privateRules}
	big := &handler{status: 200, body: privateRules + strings.Repeat("# x\n", 10_000)}
	smalls := []*handler{small, {status: 200, body: privateRules}, {status: 200, body: privateRules}}
	var urls []string
	for _, h := range smalls {
		urls = append(urls, serve(t, h.ServeHTTP).URL)
	}
	bigURL := serve(t, big.ServeHTTP).URL
	const bound = 4 << 10 // two small hosts, not three
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{MaxBytes: bound})
	ask := func(u string) {
		if _, err := c.Allowed(context.Background(), testAgent, u+"/"); err != nil {
			t.Fatal(err)
		}
	}
	for _, u := range append(urls, urls[2], urls[0]) {
		ask(u)
	}
	ask(bigURL)
	ask(bigURL)
	if got := big.requests.Load(); got != 2 {
		t.Errorf("a file larger than the bound was fetched %d times for two questions, want 2", got)
	}
	got := []int32{smalls[0].requests.Load(), smalls[1].requests.Load(), smalls[2].requests.Load()}
	if diff := cmp.Diff([]int32{2, 1, 1}, got); diff != "" {
		t.Errorf("fetches per small host mismatch (-want +got):\n%s", diff)
	}
	if s := c.Stats(); s.Bytes > bound || s.Hosts == 0 || s.Evictions == 0 {
		t.Errorf("Stats = %+v; want at most %d bytes, some hosts, some evictions", s, bound)
	}
}

// TestCacheEvictedMidFetch checks that a host whose fetch is in progress
// is not forgotten: the callers that come meanwhile wait for that fetch
// rather than start another.
func TestCacheEvictedMidFetch(t *testing.T) {
	release := make(chan struct{})
	stop := stopped(t)
	var slowRequests atomic.Int32
	slow := serve(t, func(w http.ResponseWriter, r *http.Request) {
		slowRequests.Add(1)
		select {
		case <-release:
		case <-stop:
		}
		fmt.Fprint(w, privateRules)
	})
	other := serve(t, (&handler{status: 200, body: privateRules}).ServeHTTP)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{MaxHosts: 1})
	var wg sync.WaitGroup
	for range 3 {
		wg.Go(func() {
			if _, err := c.Allowed(context.Background(), testAgent, slow.URL+"/"); err != nil {
				t.Error(err)
			}
		})
		// Another host takes the one place meanwhile.
		if _, err := c.Allowed(context.Background(), testAgent, other.URL+"/"); err != nil {
			t.Fatal(err)
		}
	}
	close(release)
	wg.Wait()
	if got := slowRequests.Load(); got != 1 {
		t.Errorf("the slow host got %d requests, want 1", got)
	}
}

// TestCacheMaxFetches checks that no more than MaxFetches fetches run at
// once.
func TestCacheMaxFetches(t *testing.T) {
	const hosts, limit = 8, 2
	var inFlight, most atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := inFlight.Add(1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		time.Sleep(20 * time.Millisecond)
		inFlight.Add(-1)
		fmt.Fprint(w, privateRules)
	})
	c := fetch.NewCache(hostClient(t, srv), testUserAgent, fetch.Options{MaxFetches: limit})
	var wg sync.WaitGroup
	for i := range hosts {
		wg.Go(func() {
			if _, err := c.Allowed(context.Background(), testAgent, fmt.Sprintf("http://h%d.example/", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := most.Load(); got != limit {
		t.Errorf("at most %d fetches at once, want %d", got, limit)
	}
}

// TestCacheSharedStore checks that Caches sharing a Store fetch each file
// once between them, and agree on the policy after a failure.
func TestCacheSharedStore(t *testing.T) {
	h := &handler{status: 200, body: privateRules}
	srv := serve(t, h.ServeHTTP)
	clock := &fakeClock{t: epoch}
	store := newMemStore()
	var caches []*fetch.Cache
	for range 5 {
		caches = append(caches, fetch.NewCache(nil, testUserAgent, fetch.Options{Now: clock.Now, Store: store}))
	}
	check := func(when string, wantPrivate bool, wantRequests int32) {
		t.Helper()
		var wg sync.WaitGroup
		for _, c := range caches {
			wg.Go(func() {
				ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/private")
				if err != nil || ok != wantPrivate {
					t.Errorf("%s: Allowed(/private) = %t, %v; want %t", when, ok, err, wantPrivate)
				}
			})
		}
		wg.Wait()
		if got := h.requests.Load(); got != wantRequests {
			t.Errorf("%s: %d requests in all, want %d", when, got, wantRequests)
		}
	}
	check("first", false, 1)
	// The copy expires; the site now fails for all.
	h.status = 503
	clock.Set(epoch.Add(day))
	check("503", false, 2)
	for _, c := range caches {
		st, _ := c.State(srv.URL + "/")
		if want := epoch.Add(day); !st.FailingSince.Equal(want) {
			t.Errorf("FailingSince = %v, want %v", st.FailingSince, want)
		}
	}
}

// TestCachePolicyInWords follows a host through the phases of the error
// policy and checks what State says of each.
func TestCachePolicyInWords(t *testing.T) {
	h := &handler{status: 200, body: privateRules}
	srv := serve(t, h.ServeHTTP)
	clock := &fakeClock{t: epoch}
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Now: clock.Now})
	stamp := func(d time.Duration) string { return epoch.Add(d).Format(time.RFC3339) }
	steps := []struct {
		at     time.Duration
		status int
		want   string
	}{
		{0, 200, "rules fetched " + stamp(0)},
		{day, 500, "disallow all: 500 since " + stamp(day) + ", retried at " + stamp(day+time.Hour)},
		{day + 12*time.Hour, 0, "last good copy, rules fetched " + stamp(0) + ": 500 since " + stamp(day) + ", retried at " + stamp(day+13*time.Hour)},
		{31 * day, 0, "disallow all (site unreachable): 500 since " + stamp(day) + ", retried at " + stamp(31*day+time.Hour)},
		{32 * day, 404, "allow all: 404 fetched " + stamp(32*day)},
	}
	for _, step := range steps {
		clock.Set(epoch.Add(step.at))
		if step.status != 0 {
			h.status = step.status
		}
		if _, err := c.Allowed(context.Background(), testAgent, srv.URL+"/"); err != nil {
			t.Fatal(err)
		}
		if got, _ := c.State(srv.URL + "/"); got.Policy != step.want {
			t.Errorf("at %v: Policy = %q, want %q", step.at, got.Policy, step.want)
		}
	}
}

// A heldStore is a memStore whose lease someone else always holds.
type heldStore struct{ *memStore }

func (heldStore) Lease(context.Context, string, time.Duration) (fetch.Lease, error) {
	return nil, fetch.ErrLeased
}

// TestCacheLeaseWait checks that a Cache waits no longer than LeaseWait for
// another's fetch, then answers with what the policy allows without it.
func TestCacheLeaseWait(t *testing.T) {
	h := &handler{status: 200, body: privateRules}
	srv := serve(t, h.ServeHTTP)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Store: heldStore{newMemStore()}, LeaseWait: 50 * time.Millisecond})
	ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/")
	if ok || err != nil {
		t.Errorf("Allowed while another holds the lease = %t, %v; want false, nil", ok, err)
	}
	st, _ := c.State(srv.URL + "/")
	if want := "disallow all: robots.txt not fetched yet"; st.Policy != want {
		t.Errorf("Policy = %q, want %q", st.Policy, want)
	}
	if s := c.Stats(); s.LeaseWaits != 1 || s.LeaseTimeouts != 1 || h.requests.Load() != 0 {
		t.Errorf("Stats = %+v, %d requests; want 1 lease wait, 1 timeout, no request", s, h.requests.Load())
	}
}

// TestCacheOriginMemo checks that a Cache that knows a host answers about
// its pages as robots.URL does: the same robots.txt URL, and an error for
// every URL that robots.URL refuses.
func TestCacheOriginMemo(t *testing.T) {
	srv := serve(t, (&handler{status: 200, body: privateRules}).ServeHTTP)
	pages := []string{
		"http://a.example/",
		"http://a.example",
		"http://a.example?q",
		"http://a.example#f",
		"http://a.example:80/x",
		"http://a.example:0080/x",
		"http://a.example:8080/x",
		"http://a.example:99999/x",
		"http://a.example./x",
		"http://a.example/%zz",
		"http://a.example/%4",
		"http://a.example/%41",
		"http://a.example/#%zz",
		"http://a.example/?%zz",
		"http://a.example/a b",
		"http://a.example/\x7f",
		"http://a.example/\x00",
		"http://a.example/é",
		"http://A.example/x",
		"http://user@a.example/x",
		"http://a.example@b.example/x",
		"http://a.example\\b.example/x",
		"http://a.example:/x",
		"http://:80/x",
		"https://a.example/x",
		"HTTP://a.example/x",
	}
	for _, page := range pages {
		t.Run(page, func(t *testing.T) {
			c := fetch.NewCache(hostClient(t, srv), testUserAgent, fetch.Options{})
			for _, seed := range []string{"http://a.example/seed", "https://a.example/seed", "http://a.example:8080/seed"} {
				if _, err := c.Robots(context.Background(), seed); err != nil {
					t.Fatal(err)
				}
			}
			want, wantErr := robots.URL(page)
			_, err := c.Robots(context.Background(), page)
			if (err != nil) != (wantErr != nil) {
				t.Fatalf("Robots(%q): error %v, robots.URL's error %v", page, err, wantErr)
			}
			if err != nil {
				return
			}
			if got, ok := c.State(page); !ok || got.RobotsURL != want {
				t.Errorf("State(%q).RobotsURL = %q, want %q", page, got.RobotsURL, want)
			}
		})
	}
}

// TestCacheHitAllocs checks that a question answered from memory, about a
// host whose origin is plain, allocates nothing.
func TestCacheHitAllocs(t *testing.T) {
	srv := serve(t, (&handler{status: 200, body: privateRules}).ServeHTTP)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{})
	page := srv.URL + "/private/page?q=1"
	if _, err := c.Allowed(context.Background(), testAgent, page); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(100, func() {
		c.Allowed(context.Background(), testAgent, page)
	})
	if allocs != 0 {
		t.Errorf("Cache.Allowed on a hit: %v allocations, want 0", allocs)
	}
}
