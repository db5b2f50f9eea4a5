package usage_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

// TestTDMRepOnePerOrigin checks one fetch per origin for concurrent callers, and
// a new fetch once the lifetime has passed.
func TestTDMRepOnePerOrigin(t *testing.T) {
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
	c := fetch.NewCache(nil, "TDMBot/1.0", fetch.Options{Now: func() time.Time { return time.Unix(now.Load(), 0) }})
	var wg sync.WaitGroup
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := tdmRep(t, c, srv.URL+"/a/b")
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
	if _, err := tdmRep(t, c, srv.URL+"/x"); err != nil || hits.Load() != 2 {
		t.Errorf("after 25 hours: err %v, %d fetches, want 2", err, hits.Load())
	}
}

// TestTDMRepStore checks that the caches of a fleet share tdmrep.json
// through the Store: the second process reads the first one's copy, and
// the file is fetched again only after its lifetime.
func TestTDMRepStore(t *testing.T) {
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
	one := fetch.NewCache(nil, "TDMBot/1.0", opts)
	two := fetch.NewCache(nil, "TDMBot/1.0", opts)
	for i, c := range []*fetch.Cache{one, two, two} {
		f, err := tdmRep(t, c, srv.URL+"/a/b")
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
	three := fetch.NewCache(nil, "TDMBot/1.0", opts)
	if _, err := tdmRep(t, three, srv.URL+"/"); err != nil || hits.Load() != 2 {
		t.Errorf("after the lifetime: err %v, %d fetches, want 2", err, hits.Load())
	}
}

// TestTDMRepStorePlausible checks that a tdmrep.json state read from
// the Store is held to the policy's bounds, as a robots.txt state is: one
// that says "no file" until the year 2126 (a damaged value, or a worker
// whose clock is wrong) is fetched again once the longest lifetime (7
// days) has passed, not a century later.
func TestTDMRepStorePlausible(t *testing.T) {
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
	c := fetch.NewCache(nil, "TDMBot/1.0", fetch.Options{Store: store, Now: func() time.Time { return time.Unix(now.Load(), 0) }})
	if f, err := tdmRep(t, c, srv.URL+"/a"); f != nil || err != nil || hits.Load() != 0 {
		t.Fatalf("first Get = %v, %v with %d fetches; want the Store's \"no file\"", f, err, hits.Load())
	}
	now.Add(int64(8 * 24 * time.Hour / time.Second))
	if f, err := tdmRep(t, c, srv.URL+"/a"); f == nil || err != nil || hits.Load() != 1 {
		t.Errorf("Get 8 days later = %v, %v with %d fetches; want the file, fetched again", f, err, hits.Load())
	}
}

// tdmRep is c.TDMRep for the crawler TDMBot, without its problems.
func tdmRep(t *testing.T, c *fetch.Cache, pageURL string) (*signals.TDMRep, error) {
	f, _, err := usage.TDMRep(t.Context(), c, "TDMBot", pageURL)
	return f, err
}

// TestTDMRepFailurePolicy checks that tdmrep.json follows robots.txt's
// failure policy (issue 32, item 1): a 500 after a good copy keeps that
// copy, says so, and is retried after Options.Retry, not a lifetime
// later; a 503's Retry-After sets the retry; a 429 with no good copy
// reserves nothing known, and says so.
func TestTDMRepFailurePolicy(t *testing.T) {
	var status atomic.Int32
	var hits atomic.Int32
	retryAfter := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			return
		}
		hits.Add(1)
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.WriteHeader(int(status.Load()))
		w.Write([]byte(`[{"location":"/","tdm-reservation":1}]`))
	}))
	defer srv.Close()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var now atomic.Int64
	now.Store(start.Unix())
	later := func(d time.Duration) { now.Add(int64(d / time.Second)) }
	c := fetch.NewCache(nil, "TDMBot/1.0", fetch.Options{Now: func() time.Time { return time.Unix(now.Load(), 0) }})
	ask := func(wantFile bool, wantHits int32, wantProblem string) {
		t.Helper()
		f, problems, err := usage.TDMRep(t.Context(), c, "TDMBot", srv.URL+"/a")
		if err != nil || (f != nil) != wantFile || hits.Load() != wantHits {
			t.Fatalf("TDMRep = %v, %q, %v after %d fetches; want file %t after %d", f, problems, err, hits.Load(), wantFile, wantHits)
		}
		if got := strings.Join(problems, "\n"); !strings.Contains(got, wantProblem) {
			t.Errorf("problems %q, want %q", got, wantProblem)
		}
	}
	status.Store(200)
	ask(true, 1, "")
	later(25 * time.Hour)
	status.Store(500)
	ask(true, 2, "500 since 2026-01-02T01:00:00Z, retried at 2026-01-02T02:00:00Z: the last good copy is used")
	later(30 * time.Minute)
	ask(true, 2, "the last good copy is used") // not fetched again before Retry
	later(31 * time.Minute)
	status.Store(503)
	retryAfter = "120"
	ask(true, 3, "503 since 2026-01-02T01:00:00Z, retried at 2026-01-02T02:03:00Z")
	later(3 * time.Minute)
	status.Store(200)
	ask(true, 4, "")

	other := fetch.NewCache(nil, "TDMBot/1.0", fetch.Options{Now: func() time.Time { return time.Unix(now.Load(), 0) }})
	c = other
	status.Store(429)
	retryAfter = ""
	ask(false, 5, "429 since 2026-01-02T02:04:00Z, retried at 2026-01-02T03:04:00Z: no copy is known")
}

// TestPurposes checks that a purpose is one of signals.AllUses: a
// typo is an error when the transport is built, not a purpose that refuses
// nothing (issue 32, item 2).
func TestPurposes(t *testing.T) {
	tr, err := fetch.NewTransport(nil, "TrainBot/1.0", fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []signals.Use{"ai_train", "AI-Train", ""} {
		if _, err := usage.NewTransport(tr, usage.Options{Purposes: []signals.Use{signals.UseFetch, p}}); err == nil {
			t.Errorf("NewTransport(purpose %q): no error", p)
		}
	}
	if _, err := usage.NewTransport(tr, usage.Options{Purposes: signals.AllUses}); err != nil {
		t.Errorf("NewTransport(every use): %v", err)
	}
}
