package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
)

// stuckTDMRep is a transport that dials nothing: it answers robots.txt
// with a 404 and a page with a 200, and holds a tdmrep.json request until
// the test ends, whatever its context (as a transport that loses it
// would), or, if honour, until its context ends.
func stuckTDMRep(t *testing.T, honour bool) http.RoundTripper {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		switch r.URL.Path {
		case "/robots.txt":
			return &http.Response{StatusCode: 404, Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}, Request: r}, nil
		case "/.well-known/tdmrep.json":
			var done <-chan struct{}
			if honour {
				done = r.Context().Done()
			}
			select {
			case <-release:
			case <-done:
			}
			return nil, errors.New("stuck transport: released")
		}
		return &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader("ok")), Header: http.Header{}, Request: r}, nil
	})
}

// within fails the test if f has not returned after d, or returned an
// error. f makes no call on t: it may return after the test.
func within(t *testing.T, d time.Duration, what string, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(d):
		t.Fatalf("%s still waiting after %v", what, d)
	}
}

// TestTDMRepCacheBounded checks that a TDMRepCache waits for a tdmrep.json
// no longer than Options.Timeout (and the Store's), as a Cache does for
// robots.txt, when the client's transport loses the request's context;
// and that the origin is then known unreachable for the retry interval,
// not waited for again.
func TestTDMRepCacheBounded(t *testing.T) {
	var fetches atomic.Int32
	stuck := stuckTDMRep(t, false)
	counted := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Path == "/.well-known/tdmrep.json" {
			fetches.Add(1)
		}
		return stuck.RoundTrip(r)
	})
	c := fetch.NewTDMRepCache(&http.Client{Transport: counted}, "TDMBot/1.0", fetch.Options{Timeout: 100 * time.Millisecond})
	within(t, 10*time.Second, "TDMRepCache.Get", func() error {
		f, err := c.Get(context.Background(), "http://example.com/a")
		if f != nil || !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("call 0: %+v, %v; want no file and an error wrapping context.DeadlineExceeded", f, err)
		}
		return nil
	})
	// On a loaded machine the caller's wait can end before the fill has
	// recorded the failure: a call that joins the fill still in progress
	// gets its error, as its caller did. Once recorded, the failure is
	// known: no error, no file, no fetch again.
	within(t, 10*time.Second, "TDMRepCache.Get", func() error {
		for call := 1; ; call++ {
			f, err := c.Get(context.Background(), "http://example.com/a")
			switch {
			case f != nil:
				return fmt.Errorf("call %d: file %+v from a stuck fetch", call, f)
			case err != nil && !errors.Is(err, context.DeadlineExceeded):
				return fmt.Errorf("call %d: error %v, want none, or the fill's deadline", call, err)
			case err != nil:
				continue // joined the fill in progress
			}
			if f, err := c.Get(context.Background(), "http://example.com/a"); f != nil || err != nil || fetches.Load() != 1 {
				return fmt.Errorf("call %d: %+v, %v after %d fetches; want no file, no error, 1 fetch: the failure is known", call+1, f, err, fetches.Load())
			}
			return nil
		}
	})
}

// TestTDMRepCacheCallerLeaves checks that the caller whose Get starts a
// fetch leaves when its context ends, as the callers waiting with it do.
func TestTDMRepCacheCallerLeaves(t *testing.T) {
	c := fetch.NewTDMRepCache(&http.Client{Transport: stuckTDMRep(t, true)}, "TDMBot/1.0", fetch.Options{Timeout: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	within(t, 10*time.Second, "TDMRepCache.Get", func() error {
		if _, err := c.Get(ctx, "http://example.com/a"); !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("error %v, want the context's", err)
		}
		return nil
	})
}

// TestUsageTransportTDMRepBounded checks that a UsageTransport over a base
// that loses the request's context answers within its Cache's Timeout, as
// the Transport's doc promises of robots.txt fetches.
func TestUsageTransportTDMRepBounded(t *testing.T) {
	tr, err := fetch.NewTransport(stuckTDMRep(t, false), "TrainBot/1.0", fetch.TransportOptions{Cache: fetch.Options{Timeout: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ut := fetch.NewUsageTransport(tr, fetch.UsageOptions{Purpose: signals.UseAITrain})
	within(t, 10*time.Second, "UsageTransport.RoundTrip", func() error {
		req, _ := http.NewRequest(http.MethodGet, "http://example.com/page", nil)
		resp, err := ut.RoundTrip(req)
		if err != nil {
			return fmt.Errorf("RoundTrip: %v", err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			return fmt.Errorf("status %d, want 200", resp.StatusCode)
		}
		return nil
	})
}

// TestTDMRepCacheAllowPrivate checks that a TDMRepCache given no client
// follows Options.AllowPrivate as a Cache does: without it, a name of the
// crawler's own network (localhost) is refused by the Guard; with it, the
// Guard is not in the way (the test's loopback dialer refuses names then,
// before any packet).
func TestTDMRepCacheAllowPrivate(t *testing.T) {
	for _, allow := range []bool{false, true} {
		c := fetch.NewTDMRepCache(nil, "TDMBot/1.0", fetch.Options{AllowPrivate: allow})
		_, err := c.Get(t.Context(), "http://localhost:1/a")
		if guarded := errors.Is(err, fetch.ErrGuarded); err == nil || guarded == allow {
			t.Errorf("AllowPrivate %t: error %v, want one that is ErrGuarded %t", allow, err, !allow)
		}
	}
}
