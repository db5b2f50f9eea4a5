package usage_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

// usageSite serves robots.txt, a tdmrep.json reserving /articles/, and
// pages, counting the requests for each path.
func usageSite(t *testing.T) (*httptest.Server, map[string]*atomic.Int32) {
	hits := map[string]*atomic.Int32{}
	for _, p := range []string{"/robots.txt", "/.well-known/tdmrep.json", "/articles/1", "/free/noai", "/free/ok", "/free/header"} {
		hits[p] = &atomic.Int32{}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := hits[r.URL.Path]; h != nil {
			h.Add(1)
		}
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nAllow: /\n"))
		case "/.well-known/tdmrep.json":
			w.Write([]byte(`[{"location":"/articles/","tdm-reservation":1}]`))
		case "/free/noai":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><meta name="robots" content="noai"></head><body>secret</body></html>`))
		case "/free/header":
			w.Header().Set("X-Robots-Tag", "trainbot: noml")
			w.Write([]byte("plain text"))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>ok</title></head><body>` + strings.Repeat("text ", 2000) + `</body></html>`))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, hits
}

func TestTransportTraining(t *testing.T) {
	srv, hits := usageSite(t)
	tr, err := fetch.NewTransport(nil, "TrainBot/1.0", fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var decided atomic.Int32
	ut := mustUsage(t, tr, usage.Options{Purposes: []signals.Use{signals.UseAITrain}, RefuseBody: true,
		Decided: func(*http.Response, signals.Decision) { decided.Add(1) }})
	client := &http.Client{Transport: ut}

	// Reserved by tdmrep.json: skipped before any request.
	_, err = client.Get(srv.URL + "/articles/1")
	var de *usage.DeniedError
	if !errors.Is(err, usage.ErrDenied) || !errors.As(err, &de) || !de.BeforeFetch {
		t.Fatalf("reserved page: err = %v, want a DeniedError before fetch", err)
	}
	if n := hits["/articles/1"].Load(); n != 0 {
		t.Errorf("reserved page requested %d times, want 0", n)
	}
	if !strings.Contains(err.Error(), "tdmrep") {
		t.Errorf("error %q does not name tdmrep", err)
	}

	// noai in the head: the body is refused.
	_, err = client.Get(srv.URL + "/free/noai")
	if !errors.As(err, &de) || de.BeforeFetch || de.Decision.Uses.AITrain.By[0].Detail != "noai" {
		t.Fatalf("noai page: err = %v, want a DeniedError after fetch by noai", err)
	}
	// noml in a scoped header of a non-HTML response: refused too.
	if _, err = client.Get(srv.URL + "/free/header"); !errors.Is(err, usage.ErrDenied) {
		t.Errorf("noml header: err = %v", err)
	}

	// An allowed page: the whole body, the decision attached.
	resp, err := client.Get(srv.URL + "/free/ok")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.HasPrefix(string(body), "<html><head><title>ok") || !strings.HasSuffix(string(body), "</body></html>") || len(body) < 10000 {
		t.Errorf("body of %d bytes, cut or changed: %.40q", len(body), body)
	}
	d, ok := usage.DecisionOf(resp)
	if !ok || d.Uses.AITrain.Answer != signals.Unknown || d.Uses.Fetch.Answer != signals.Allow || !d.PageSeen {
		t.Errorf("DecisionOf = %+v, %t", d.Uses, ok)
	}
	if n := hits["/.well-known/tdmrep.json"].Load(); n != 1 {
		t.Errorf("tdmrep.json fetched %d times, want once per origin", n)
	}
	if n := decided.Load(); n != 3 {
		t.Errorf("Decided called %d times, want 3", n)
	}
}

// TestTransportNoPurpose checks that without a purpose nothing is
// refused, and each response still has its decision.
func TestTransportNoPurpose(t *testing.T) {
	srv, hits := usageSite(t)
	tr, _ := fetch.NewTransport(nil, "TrainBot/1.0", fetch.TransportOptions{})
	client := &http.Client{Transport: mustUsage(t, tr, usage.Options{})}
	resp, err := client.Get(srv.URL + "/articles/1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	d, ok := usage.DecisionOf(resp)
	if !ok || d.Uses.AITrain.Answer != signals.Deny || hits["/articles/1"].Load() != 1 {
		t.Errorf("decision %+v %t, hits %d", d.Uses.AITrain, ok, hits["/articles/1"].Load())
	}
}

// TestTransportRobotsUserAgent checks that a request for /robots.txt
// through a usage.Transport, which goes unchecked, carries the crawler's
// User-Agent header as it does through the Transport it wraps.
func TestTransportRobotsUserAgent(t *testing.T) {
	var got atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got.Store(r.Header.Get("User-Agent"))
		w.Write([]byte("User-agent: *\nAllow: /\n"))
	}))
	defer srv.Close()
	tr, _ := fetch.NewTransport(nil, "TrainBot/1.0", fetch.TransportOptions{})
	ut := mustUsage(t, tr, usage.Options{})
	req, _ := http.NewRequest(http.MethodGet, srv.URL+"/robots.txt", nil)
	req.Header.Set("User-Agent", "Mozilla/5.0")
	resp, err := ut.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if ua, _ := got.Load().(string); ua != "TrainBot/1.0" {
		t.Errorf("robots.txt requested with User-Agent %q, want the crawler's %q", ua, "TrainBot/1.0")
	}
}

// mustUsage returns usage.NewTransport(tr, opts), failing the test on
// an error.
func mustUsage(t *testing.T, tr *fetch.Transport, opts usage.Options) *usage.Transport {
	t.Helper()
	ut, err := usage.NewTransport(tr, opts)
	if err != nil {
		t.Fatal(err)
	}
	return ut
}

// TestDecisionOfWithTimeout checks that the Decision reaches the caller of
// an http.Client with a Timeout, which wraps the response's body (issue
// 32, item 2: DecisionOf found nothing then).
func TestDecisionOfWithTimeout(t *testing.T) {
	srv, _ := usageSite(t)
	tr, err := fetch.NewTransport(nil, "TrainBot/1.0", fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: mustUsage(t, tr, usage.Options{}), Timeout: time.Minute}
	resp, err := client.Get(srv.URL + "/free/header")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	d, ok := usage.DecisionOf(resp)
	if !ok || d.Uses.AITrain.Answer != signals.Deny {
		t.Errorf("DecisionOf = %+v, %t; want ai-train denied by the header", d.Uses.AITrain, ok)
	}
	if body, err := io.ReadAll(resp.Body); err != nil || string(body) != "plain text" {
		t.Errorf("body %q, %v", body, err)
	}
}
