package fetch_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/internal/memstore"
)

// A memStore is a Store in memory, shared by the Caches of a test as a
// fleet shares Redis.
type memStore = memstore.Store

func newMemStore() *memStore { return memstore.New() }

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

// TestCacheLeaseWait checks what a Cache does while another holds the lease
// and never publishes. Knowing nothing of the file, it waits as long as a
// fetch of its own may take (Timeout and StoreTimeout), then fetches the
// file itself rather than refuse a page the file may allow. Knowing a copy,
// it waits no longer than LeaseWait, then answers by that copy.
func TestCacheLeaseWait(t *testing.T) {
	h := &handler{status: 200, body: privateRules}
	srv := serve(t, h.ServeHTTP)
	clock := &fakeClock{t: epoch}
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{
		Store: heldStore{newMemStore()}, LeaseWait: 50 * time.Millisecond,
		Timeout: 300 * time.Millisecond, StoreTimeout: 100 * time.Millisecond, Now: clock.Now,
	})
	ask := func(when string, wantRequests int32, minWait, maxWait time.Duration) {
		t.Helper()
		start := time.Now()
		ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/")
		took := time.Since(start)
		st, _ := c.State(srv.URL + "/")
		if !ok || err != nil || !strings.HasPrefix(st.Policy, "rules fetched 2026-01-01T00:00:00Z") {
			t.Errorf("%s: Allowed(/) while another holds the lease = %t, %v (%s); want true, by the rules fetched at epoch", when, ok, err, st.Policy)
		}
		if took < minWait || took > maxWait || h.requests.Load() != wantRequests {
			t.Errorf("%s: answered after %v, %d requests in all; want %v to %v, %d", when, took, h.requests.Load(), minWait, maxWait, wantRequests)
		}
	}
	ask("nothing known", 1, 350*time.Millisecond, 3*time.Second)
	clock.Set(epoch.Add(day + time.Hour)) // the copy is due
	ask("a copy known", 1, 40*time.Millisecond, 2*time.Second)
	if s := c.Stats(); s.LeaseWaits != 2 || s.LeaseTimeouts != 2 {
		t.Errorf("Stats = %+v; want 2 lease waits, 2 timeouts", s)
	}
}
