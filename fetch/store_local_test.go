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

// TestCacheBytes checks the bound in bytes: hosts go least recently used
// first, and a file larger than the bound is kept only while it is the most
// recently used.
func TestCacheBytes(t *testing.T) {
	small := &handler{status: 200, body: privateRules}
	big := &handler{status: 200, body: privateRules + strings.Repeat("# x\n", 10_000)}
	smalls := []*handler{small, {status: 200, body: privateRules}, {status: 200, body: privateRules}}
	var urls []string
	for _, h := range smalls {
		urls = append(urls, serve(t, h.ServeHTTP).URL)
	}
	bigURL := serve(t, big.ServeHTTP).URL
	// What one small host holds, measured on a cache of its own.
	probeHost := serve(t, (&handler{status: 200, body: privateRules}).ServeHTTP).URL
	probe := fetch.NewCache(nil, testUserAgent, fetch.Options{})
	if _, err := probe.Allowed(context.Background(), testAgent, probeHost+"/"); err != nil {
		t.Fatal(err)
	}
	one := probe.Stats().Bytes
	bound := 2*one + one/2 // two small hosts, not three
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
	if got := big.requests.Load(); got != 1 {
		t.Errorf("a file larger than the bound was fetched %d times for two questions in a row, want 1", got)
	}
	ask(urls[0]) // the big file goes
	ask(bigURL)
	if got := big.requests.Load(); got != 2 {
		t.Errorf("a file larger than the bound was fetched %d times after another host was asked, want 2", got)
	}
	ask(urls[0])
	got := []int32{smalls[0].requests.Load(), smalls[1].requests.Load(), smalls[2].requests.Load()}
	// The first small host: twice before the big file, then once after
	// each question on it, which forgets every other host.
	if diff := cmp.Diff([]int32{4, 1, 1}, got); diff != "" {
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
