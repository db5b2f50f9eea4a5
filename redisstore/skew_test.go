package redisstore_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// A changingSite serves one robots.txt whose status and body can change
// while it runs, and counts the fetches.
type changingSite struct {
	srv     *httptest.Server
	status  atomic.Int32
	body    atomic.Value // string
	fetches atomic.Int64
}

func newChangingSite(t testing.TB, status int, body string) *changingSite {
	s := &changingSite{}
	s.set(status, body)
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			s.fetches.Add(1)
		}
		w.WriteHeader(int(s.status.Load()))
		fmt.Fprint(w, s.body.Load().(string))
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *changingSite) set(status int, body string) {
	s.status.Store(int32(status))
	s.body.Store(body)
}

// skewedPair returns two Caches sharing one Redis: ahead, whose clock runs
// skew ahead of the true time, and right, whose clock is right; and the
// clock of the right one (the other follows it).
func skewedPair(t *testing.T, s *changingSite, skew time.Duration) (ahead, right *fetch.Cache, clock *fakeClock) {
	srv := startServer(t)
	store := redisstore.New(client(t, srv.Addr()), redisstore.Options{})
	clock = newClock()
	aheadNow := func() time.Time { return clock.Now().Add(skew) }
	var faults atomic.Int64
	opts := fetch.Options{Store: store, StoreFault: func(string, error) { faults.Add(1) }}
	t.Cleanup(func() {
		if n := faults.Load(); n != 0 {
			t.Errorf("%d store faults", n)
		}
	})
	opts.Now = aheadNow
	ahead = fetch.NewCache(siteClient(s.srv.Listener.Addr().String()), userAgent, opts)
	opts.Now = clock.Now
	right = fetch.NewCache(siteClient(s.srv.Listener.Addr().String()), userAgent, opts)
	return ahead, right, clock
}

// TestFleetClockAheadStaleFile: a worker whose clock is 10 years ahead
// fetches the file; the site changes it; a worker with a right clock must
// not go on using the old file beyond the policy's lifetime (24 hours),
// however far ahead the times written in Redis are.
func TestFleetClockAheadStaleFile(t *testing.T) {
	s := newChangingSite(t, 200, "User-agent: *\nDisallow: /private\n")
	ahead, right, clock := skewedPair(t, s, 10*365*24*time.Hour)
	ctx := context.Background()
	if ok, err := ahead.Allowed(ctx, "FleetBot", "http://host.example/public"); !ok || err != nil {
		t.Fatalf("ahead: Allowed(/public) = %t, %v; want true", ok, err)
	}
	s.set(200, "User-agent: *\nDisallow: /\n")
	allowed, asked := 0, 0
	for range 31 * 24 { // every hour for 31 days
		ok, err := right.Allowed(ctx, "FleetBot", "http://host.example/public")
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			allowed++
		}
		asked++
		clock.Add(time.Hour)
	}
	st, _ := right.State("http://host.example/")
	t.Logf("clock 10 years ahead: the old file allowed /public %d of %d hourly questions; %d fetches; now %s", allowed, asked, s.fetches.Load(), st.Policy)
	if allowed > 24 {
		t.Errorf("the right clock's worker used the old file for %d hours, want at most the 24-hour lifetime", allowed)
	}
}

// TestFleetClockAhead503: a worker whose clock is 48 hours ahead gets a 503;
// the site recovers; a worker with a right clock must fetch again within the
// 503 retry delay (10 minutes), not when the skewed time says.
func TestFleetClockAhead503(t *testing.T) {
	s := newChangingSite(t, 503, "")
	ahead, right, clock := skewedPair(t, s, 48*time.Hour)
	ctx := context.Background()
	if ok, err := ahead.Allowed(ctx, "FleetBot", "http://host.example/public"); ok || err != nil {
		t.Fatalf("ahead: Allowed(/public) = %t, %v; want false (503)", ok, err)
	}
	s.set(200, "User-agent: *\nDisallow: /private\n")
	var blocked time.Duration
	for blocked < 50*time.Hour {
		ok, err := right.Allowed(ctx, "FleetBot", "http://host.example/public")
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			break
		}
		blocked += time.Minute
		clock.Add(time.Minute)
	}
	t.Logf("clock 48 hours ahead: a 503 blocked the right clock's worker for %v; %d fetches", blocked, s.fetches.Load())
	if blocked > 10*time.Minute {
		t.Errorf("blocked for %v after the site recovered, want at most the 503 retry delay (10m)", blocked)
	}
}
