package fetch_test

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// TestTDMRepCache checks one fetch per origin for concurrent callers, and
// a new fetch once the lifetime has passed.
func TestTDMRepCache(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			return // an empty file: everything allowed
		}
		hits.Add(1)
		time.Sleep(10 * time.Millisecond)
		w.Write([]byte(`[{"location":"/a","tdm-reservation":1}]`))
	}))
	defer srv.Close()
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	c := fetch.NewTDMRepCache(nil, "TDMBot/1.0", fetch.Options{Now: func() time.Time { return time.Unix(now.Load(), 0) }})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := c.Get(t.Context(), srv.URL+"/a/b")
			if err != nil || f == nil || len(f.Rules) != 1 {
				t.Errorf("Get = %v, %v", f, err)
			}
		}()
	}
	wg.Wait()
	if n := hits.Load(); n != 1 {
		t.Fatalf("%d fetches for 20 concurrent callers, want 1", n)
	}
	now.Add(int64(25 * time.Hour / time.Second))
	if _, err := c.Get(t.Context(), srv.URL+"/x"); err != nil || hits.Load() != 2 {
		t.Errorf("after 25 hours: err %v, %d fetches, want 2", err, hits.Load())
	}
}

// TestTDMRepCacheStore checks that the caches of a fleet share tdmrep.json
// through the Store: the second process reads the first one's copy, and
// the file is fetched again only after its lifetime.
func TestTDMRepCacheStore(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			return // an empty file: everything allowed
		}
		hits.Add(1)
		w.Write([]byte(`[{"location":"/a","tdm-reservation":1}]`))
	}))
	defer srv.Close()
	store := newMemStore()
	var now atomic.Int64
	now.Store(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	opts := fetch.Options{Store: store, Now: func() time.Time { return time.Unix(now.Load(), 0) }}
	one := fetch.NewTDMRepCache(nil, "TDMBot/1.0", opts)
	two := fetch.NewTDMRepCache(nil, "TDMBot/1.0", opts)
	for i, c := range []*fetch.TDMRepCache{one, two, two} {
		f, err := c.Get(t.Context(), srv.URL+"/a/b")
		if err != nil || f == nil || len(f.Rules) != 1 || f.Rules[0].Location != "/a" {
			t.Fatalf("call %d: Get = %+v, %v", i, f, err)
		}
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("%d fetches by two caches sharing a store, want 1", n)
	}
	st, ok, _ := store.Load(t.Context(), srv.URL+"/.well-known/tdmrep.json")
	if !ok || st.GoodStatus != 200 || len(st.Body) == 0 || st.Outcome != fetch.Success {
		t.Errorf("saved state %+v, %t", st, ok)
	}
	now.Add(int64(25 * time.Hour / time.Second))
	three := fetch.NewTDMRepCache(nil, "TDMBot/1.0", opts)
	if _, err := three.Get(t.Context(), srv.URL+"/"); err != nil || hits.Load() != 2 {
		t.Errorf("after the lifetime: err %v, %d fetches, want 2", err, hits.Load())
	}
}

// TestTDMRepCacheStorePlausible checks that a tdmrep.json state read from
// the Store is held to the policy's bounds, as a robots.txt state is: one
// that says "no file" until the year 2126 (a damaged value, or a worker
// whose clock is wrong) is fetched again once the longest lifetime (7
// days) has passed, not a century later.
func TestTDMRepCacheStorePlausible(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			return // an empty file: everything allowed
		}
		hits.Add(1)
		w.Write([]byte(`[{"location":"/","tdm-reservation":1}]`))
	}))
	defer srv.Close()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var now atomic.Int64
	now.Store(start.Unix())
	store := newMemStore()
	store.Save(t.Context(), fetch.State{
		RobotsURL: srv.URL + "/.well-known/tdmrep.json", Outcome: fetch.Unavailable, StatusCode: 404,
		GoodStatus: 404, GoodAt: start, GoodUntil: start.AddDate(100, 0, 0),
		FetchedAt: start, NextFetch: start.AddDate(100, 0, 0),
	})
	c := fetch.NewTDMRepCache(nil, "TDMBot/1.0", fetch.Options{Store: store, Now: func() time.Time { return time.Unix(now.Load(), 0) }})
	if f, err := c.Get(t.Context(), srv.URL+"/a"); f != nil || err != nil || hits.Load() != 0 {
		t.Fatalf("first Get = %v, %v with %d fetches; want the Store's \"no file\"", f, err, hits.Load())
	}
	now.Add(int64(8 * 24 * time.Hour / time.Second))
	if f, err := c.Get(t.Context(), srv.URL+"/a"); f == nil || err != nil || hits.Load() != 1 {
		t.Errorf("Get 8 days later = %v, %v with %d fetches; want the file, fetched again", f, err, hits.Load())
	}
}
