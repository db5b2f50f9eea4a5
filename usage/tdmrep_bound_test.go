package usage_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
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

// TestTDMRepBounded checks that a Cache waits for a tdmrep.json no longer
// than Options.Timeout, as for robots.txt, when the client's transport loses
// the request's context; that the fetch is then a network error, the
// policy's (no file known, a problem that says so); and that the origin is
// then known unreachable for the retry interval, not waited for again.
func TestTDMRepBounded(t *testing.T) {
	c := fetch.NewCache(&http.Client{Transport: stuckTDMRep(t, false)}, "TDMBot/1.0", fetch.Options{Timeout: 100 * time.Millisecond})
	for i := range 2 {
		within(t, 10*time.Second, "TDMRep", func() error {
			f, problems, err := usage.TDMRep(context.Background(), c, "TDMBot", "http://example.com/a")
			if f != nil || err != nil {
				return fmt.Errorf("call %d: file %+v, error %v from a stuck fetch; want neither", i, f, err)
			}
			if len(problems) != 1 || !strings.Contains(problems[0], "network error since") {
				return fmt.Errorf("call %d: problems %q, want the network error", i, problems)
			}
			return nil
		})
	}
}

// TestTDMRepCallerLeaves checks that the caller whose TDMRep starts a fetch
// leaves when its context ends, as the callers waiting with it do.
func TestTDMRepCallerLeaves(t *testing.T) {
	c := fetch.NewCache(&http.Client{Transport: stuckTDMRep(t, true)}, "TDMBot/1.0", fetch.Options{Timeout: time.Hour})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	within(t, 10*time.Second, "TDMRep", func() error {
		if _, _, err := usage.TDMRep(ctx, c, "TDMBot", "http://example.com/a"); !errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("error %v, want the context's", err)
		}
		return nil
	})
}

// TestTransportTDMRepBounded checks that a usage.Transport over a base
// that loses the request's context answers within its Cache's Timeout, as
// the Transport's doc promises of robots.txt fetches.
func TestTransportTDMRepBounded(t *testing.T) {
	tr, err := fetch.NewTransport(stuckTDMRep(t, false), "TrainBot/1.0", fetch.TransportOptions{Cache: fetch.Options{Timeout: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	ut := mustUsage(t, tr, usage.Options{Purposes: []signals.Use{signals.UseAITrain}})
	within(t, 10*time.Second, "Transport.RoundTrip", func() error {
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

// TestTDMRepAllowPrivate checks that a Cache given no client
// follows Options.AllowPrivate as a Cache does: without it, a name of the
// crawler's own network (localhost) is refused by the Guard; with it, the
// Guard is not in the way (the test's loopback dialer refuses names then,
// before any packet). Either way robots.txt could not be fetched, so
// tdmrep.json is not asked for: the error is a *DisallowedError whose
// State holds the fetch's error.
func TestTDMRepAllowPrivate(t *testing.T) {
	for _, allow := range []bool{false, true} {
		c := fetch.NewCache(nil, "TDMBot/1.0", fetch.Options{AllowPrivate: allow})
		_, _, err := usage.TDMRep(t.Context(), c, "TDMBot", "http://localhost:1/a")
		var de *fetch.DisallowedError
		if !errors.As(err, &de) || !errors.Is(err, fetch.ErrDisallowed) {
			t.Fatalf("AllowPrivate %t: error %v, want a *DisallowedError", allow, err)
		}
		if guarded := errors.Is(de.State.Err, fetch.ErrGuarded); de.State.Err == nil || guarded == allow {
			t.Errorf("AllowPrivate %t: robots.txt error %v, want one that is ErrGuarded %t", allow, de.State.Err, !allow)
		}
	}
}
