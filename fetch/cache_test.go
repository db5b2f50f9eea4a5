package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/fetch"
)

// A fakeClock is a clock that moves only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// A site is a test server whose robots.txt answers can be changed, and which
// counts the fetches of it.
type site struct {
	*httptest.Server
	fetches atomic.Int32

	mu           sync.Mutex
	status       int // -1: close the connection without a response
	cacheControl string
}

// newSite starts a site whose robots.txt is privateRules with status 200.
func newSite(t testing.TB) *site {
	s := &site{status: 200}
	s.Server = serve(t, func(w http.ResponseWriter, r *http.Request) {
		s.fetches.Add(1)
		s.mu.Lock()
		status, cacheControl := s.status, s.cacheControl
		s.mu.Unlock()
		if status < 0 {
			hijack("", false)(w, r)
			return
		}
		if cacheControl != "" {
			w.Header().Set("Cache-Control", cacheControl)
		}
		w.WriteHeader(status)
		fmt.Fprint(w, privateRules)
	})
	return s
}

func (s *site) answer(status int, cacheControl string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.cacheControl = status, cacheControl
}

// verdict returns which rules apply to the site now, as parsed, allowAll or
// denyAll.
func verdict(t *testing.T, c *fetch.Cache, s *site) string {
	t.Helper()
	ctx := context.Background()
	public, err1 := c.Allowed(ctx, testAgent, s.URL+"/")
	private, err2 := c.Allowed(ctx, testAgent, s.URL+"/private")
	if err := errors.Join(err1, err2); err != nil {
		t.Fatalf("Allowed: %v", err)
	}
	switch {
	case public && private:
		return allowAll
	case public:
		return parsed
	case !private:
		return denyAll
	}
	return "public disallowed, private allowed"
}

const (
	day  = 24 * time.Hour
	tick = time.Nanosecond // the smallest step of the clock
)

// A policyStep sets the clock (since the first step) and, if status is not
// zero, what the site answers from then on; then asks the cache which rules
// apply and whether that fetched the robots.txt.
type policyStep struct {
	at           time.Duration
	status       int
	cacheControl string
	fetch        bool
	want         string
}

func TestCachePolicy(t *testing.T) {
	errorsSince := day // when the site starts failing in the server-error tests
	tests := []struct {
		name      string
		opts      fetch.Options
		reachable bool
		steps     []policyStep
	}{
		{
			name: "google/24h",
			steps: []policyStep{
				{at: 0, status: 200, fetch: true, want: parsed},
				{at: day - tick, want: parsed},
				{at: day, fetch: true, want: parsed},
				{at: 2*day - tick, want: parsed},
				{at: 2 * day, fetch: true, want: parsed},
			},
		},
		{
			name: "google/24h-for-404",
			steps: []policyStep{
				{at: 0, status: 404, fetch: true, want: allowAll},
				{at: day - tick, status: 200, want: allowAll},
				{at: day, fetch: true, want: parsed},
			},
		},
		{
			name: "google/max-age-shortens",
			steps: []policyStep{
				{at: 0, status: 200, cacheControl: "max-age=3600", fetch: true, want: parsed},
				{at: time.Hour - tick, want: parsed},
				{at: time.Hour, fetch: true, want: parsed},
				{at: 2*time.Hour - tick, status: 200, cacheControl: "", want: parsed},
				{at: 2 * time.Hour, fetch: true, want: parsed},
				{at: 2*time.Hour + day - tick, want: parsed},
				{at: 2*time.Hour + day, fetch: true, want: parsed},
			},
		},
		{
			name: "google/max-age-lengthens",
			steps: []policyStep{
				{at: 0, status: 200, cacheControl: "max-age=172800", fetch: true, want: parsed},
				{at: day, want: parsed},
				{at: 2*day - tick, want: parsed},
				{at: 2 * day, fetch: true, want: parsed},
			},
		},
		{
			name: "max-age/min-bound",
			steps: []policyStep{
				{at: 0, status: 200, cacheControl: "max-age=0", fetch: true, want: parsed},
				{at: time.Minute - tick, want: parsed},
				{at: time.Minute, fetch: true, want: parsed},
			},
		},
		{
			name: "max-age/max-bound",
			steps: []policyStep{
				{at: 0, status: 200, cacheControl: "max-age=31536000", fetch: true, want: parsed},
				{at: 7*day - tick, want: parsed},
				{at: 7 * day, fetch: true, want: parsed},
			},
		},
		{
			name: "max-age/custom-bounds",
			opts: fetch.Options{MinLifetime: time.Hour, MaxLifetime: 2 * time.Hour},
			steps: []policyStep{
				{at: 0, status: 200, cacheControl: "max-age=60", fetch: true, want: parsed},
				{at: time.Hour - tick, status: 200, cacheControl: "max-age=86400", want: parsed},
				{at: time.Hour, fetch: true, want: parsed},
				{at: 3*time.Hour - tick, want: parsed},
				{at: 3 * time.Hour, fetch: true, want: parsed},
			},
		},
		{
			name: "google/5xx-with-good-copy",
			steps: []policyStep{
				{at: 0, status: 200, fetch: true, want: parsed},
				// The copy expires and the next fetch fails: the first 12
				// hours, nothing may be crawled.
				{at: errorsSince - tick, status: 500, want: parsed},
				{at: errorsSince, fetch: true, want: denyAll},
				{at: errorsSince + time.Hour - tick, want: denyAll},
				{at: errorsSince + time.Hour, fetch: true, want: denyAll},
				{at: errorsSince + 12*time.Hour - tick, fetch: true, want: denyAll},
				// Then the last good copy, up to 30 days from the first
				// failure, while retrying.
				{at: errorsSince + 12*time.Hour, want: parsed},
				{at: errorsSince + 13*time.Hour - tick, fetch: true, want: parsed},
				{at: errorsSince + 30*day - tick, fetch: true, want: parsed},
				// Then, for a site not reported reachable, nothing.
				{at: errorsSince + 30*day, want: denyAll},
				{at: errorsSince + 31*day, fetch: true, want: denyAll},
				// A success ends it all.
				{at: errorsSince + 32*day, status: 200, fetch: true, want: parsed},
				{at: errorsSince + 33*day - tick, status: 500, want: parsed},
				{at: errorsSince + 33*day, fetch: true, want: denyAll},
				{at: errorsSince + 33*day + 12*time.Hour, fetch: true, want: parsed},
			},
		},
		{
			name:      "google/5xx-with-good-copy-reachable",
			reachable: true,
			steps: []policyStep{
				{at: 0, status: 200, fetch: true, want: parsed},
				{at: errorsSince, status: 500, fetch: true, want: denyAll},
				{at: errorsSince + 12*time.Hour - tick, fetch: true, want: denyAll},
				{at: errorsSince + 12*time.Hour, want: parsed},
				{at: errorsSince + 30*day - tick, fetch: true, want: parsed},
				// After 30 days, a site that is otherwise reachable has
				// no robots.txt.
				{at: errorsSince + 30*day, want: allowAll},
				{at: errorsSince + 60*day, fetch: true, want: allowAll},
			},
		},
		{
			name: "google/5xx-without-good-copy",
			steps: []policyStep{
				{at: 0, status: 500, fetch: true, want: denyAll},
				{at: 12*time.Hour - tick, fetch: true, want: denyAll},
				// No cached version: no crawl restrictions.
				{at: 12 * time.Hour, want: allowAll},
				{at: 30*day - tick, fetch: true, want: allowAll},
				{at: 30 * day, want: denyAll},
			},
		},
		{
			name:      "google/5xx-without-good-copy-reachable",
			reachable: true,
			steps: []policyStep{
				{at: 0, status: 502, fetch: true, want: denyAll},
				{at: 12 * time.Hour, fetch: true, want: allowAll},
				{at: 30 * day, fetch: true, want: allowAll},
			},
		},
		{
			name: "google/5xx-after-404",
			steps: []policyStep{
				{at: 0, status: 404, fetch: true, want: allowAll},
				{at: day, status: 500, fetch: true, want: denyAll},
				{at: day + 12*time.Hour, fetch: true, want: allowAll},
			},
		},
		{
			name: "google/429-as-server-error",
			steps: []policyStep{
				{at: 0, status: 200, fetch: true, want: parsed},
				{at: day, status: 429, fetch: true, want: denyAll},
				{at: day + time.Hour - tick, want: denyAll},
				{at: day + time.Hour, fetch: true, want: denyAll},
				{at: day + 12*time.Hour, fetch: true, want: parsed},
			},
		},
		{
			name: "google/network-error-as-server-error",
			steps: []policyStep{
				{at: 0, status: 200, fetch: true, want: parsed},
				{at: day, status: -1, fetch: true, want: denyAll},
				{at: day + time.Hour - tick, want: denyAll},
				{at: day + time.Hour, fetch: true, want: denyAll},
				{at: day + 12*time.Hour, fetch: true, want: parsed},
				{at: day + 30*day, fetch: true, want: denyAll},
			},
		},
		{
			name: "google/503-retries-sooner",
			steps: []policyStep{
				{at: 0, status: 503, fetch: true, want: denyAll},
				{at: 10*time.Minute - tick, want: denyAll},
				{at: 10 * time.Minute, fetch: true, want: denyAll},
				{at: 20*time.Minute - tick, status: 500, want: denyAll},
				{at: 20 * time.Minute, fetch: true, want: denyAll},
				{at: 80*time.Minute - tick, want: denyAll},
				{at: 80 * time.Minute, fetch: true, want: denyAll},
			},
		},
		{
			name: "options/all-durations",
			opts: fetch.Options{
				Lifetime:    2 * time.Hour,
				Retry:       20 * time.Minute,
				Retry503:    time.Minute,
				DisallowFor: time.Hour,
				StaleFor:    3 * time.Hour,
			},
			reachable: true,
			steps: []policyStep{
				{at: 0, status: 200, fetch: true, want: parsed},
				{at: 2*time.Hour - tick, want: parsed},
				{at: 2 * time.Hour, status: 503, fetch: true, want: denyAll},
				{at: 2*time.Hour + time.Minute - tick, status: 500, want: denyAll},
				{at: 2*time.Hour + time.Minute, fetch: true, want: denyAll},
				{at: 2*time.Hour + 21*time.Minute - tick, want: denyAll},
				{at: 2*time.Hour + 21*time.Minute, fetch: true, want: denyAll},
				{at: 3 * time.Hour, fetch: true, want: parsed},
				{at: 5*time.Hour - tick, fetch: true, want: parsed},
				{at: 5 * time.Hour, want: allowAll},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newSite(t)
			clock := &fakeClock{t: epoch}
			opts := tt.opts
			opts.Now = clock.Now
			var asked []string
			opts.Reachable = func(robotsURL string) bool {
				asked = append(asked, robotsURL) // the steps run in this goroutine
				return tt.reachable
			}
			// Fetches are counted here rather than by the server: after a
			// network error on a reused connection, net/http may send the
			// request again.
			var fetches int
			opts.Fetched = func(*fetch.Result, error) { fetches++ }
			c := fetch.NewCache(nil, testUserAgent, opts)
			for _, step := range tt.steps {
				clock.Set(epoch.Add(step.at))
				if step.status != 0 {
					s.answer(step.status, step.cacheControl)
				}
				before := fetches
				got := verdict(t, c, s)
				if fetched := fetches > before; got != step.want || fetched != step.fetch || fetches > before+1 {
					t.Errorf("at %v: rules %s after %d fetches, want %s after fetch=%t", step.at, got, fetches-before, step.want, step.fetch)
				}
			}
			for _, u := range asked {
				if u != s.URL+"/robots.txt" {
					t.Errorf("Reachable(%q), want Reachable(%q)", u, s.URL+"/robots.txt")
				}
			}
		})
	}
}

// TestCacheSingleFlight asks about one host from 1,000 goroutines at once,
// twice: when it has never been fetched and when its copy has expired. Each
// time, the server gets one request.
func TestCacheSingleFlight(t *testing.T) {
	const callers = 1000
	var (
		requests atomic.Int32
		release  = make(chan struct{}, 1)
	)
	stop := stopped(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select { // hold the answer until all callers are asking
		case <-release:
		case <-stop:
		}
		fmt.Fprint(w, privateRules)
	})
	clock := &fakeClock{t: epoch}
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Now: clock.Now})

	for round, at := range []time.Time{epoch, epoch.Add(day)} {
		clock.Set(at)
		var started, done sync.WaitGroup
		started.Add(callers)
		errs := make(chan error, callers)
		for i := range callers {
			done.Go(func() {
				started.Done()
				page := fmt.Sprintf("%s/private/%d", srv.URL, i)
				if i%2 == 0 {
					page = fmt.Sprintf("%s/%d", srv.URL, i)
				}
				ok, err := c.Allowed(context.Background(), testAgent, page)
				if err == nil && ok != (i%2 == 0) {
					err = fmt.Errorf("Allowed(%q, %q) = %t, want %t", testAgent, page, ok, i%2 == 0)
				}
				if err != nil {
					errs <- err
				}
			})
		}
		started.Wait()
		release <- struct{}{}
		done.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if got, want := requests.Load(), int32(round+1); got != want {
			t.Errorf("round %d: server got %d requests in all, want %d", round, got, want)
		}
	}
}

func TestCacheLRU(t *testing.T) {
	a, b, cc := newSite(t), newSite(t), newSite(t)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{MaxHosts: 2})
	type counts struct{ A, B, C int32 }
	for _, step := range []struct {
		ask  *site
		want counts // fetches so far
	}{
		{a, counts{1, 0, 0}},
		{b, counts{1, 1, 0}},
		{a, counts{1, 1, 0}},  // a is now the most recently used
		{cc, counts{1, 1, 1}}, // b is forgotten
		{a, counts{1, 1, 1}},
		{b, counts{1, 2, 1}},  // c is forgotten
		{cc, counts{1, 2, 2}}, // a is forgotten
		{b, counts{1, 2, 2}},
		{a, counts{2, 2, 2}},
	} {
		verdict(t, c, step.ask)
		got := counts{a.fetches.Load(), b.fetches.Load(), cc.fetches.Load()}
		if diff := cmp.Diff(step.want, got); diff != "" {
			t.Fatalf("fetches mismatch (-want +got):\n%s", diff)
		}
	}
}

// TestCacheContext checks that a caller that gives up does not stop the
// fetch that others wait for, nor leave it recorded as a failure.
func TestCacheContext(t *testing.T) {
	var requests atomic.Int32
	release := make(chan struct{})
	stop := stopped(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-release:
		case <-stop:
		}
		fmt.Fprint(w, privateRules)
	})
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{})

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ok, err := c.Allowed(ctx, testAgent, srv.URL+"/")
	if ok || !errors.Is(err, context.Canceled) {
		t.Errorf("Allowed with canceled context = %t, %v; want false, %v", ok, err, context.Canceled)
	}
	close(release)
	// This call waits for the fetch the first one started.
	ok, err = c.Allowed(context.Background(), testAgent, srv.URL+"/private")
	if ok || err != nil {
		t.Errorf("Allowed(%q, %q) = %t, %v; want false, nil", testAgent, srv.URL+"/private", ok, err)
	}
	if got := requests.Load(); got != 1 {
		t.Errorf("server got %d requests, want 1", got)
	}
}

func TestCacheTimeoutAndFetched(t *testing.T) {
	stop := stopped(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	type fetched struct {
		URL     string
		Outcome fetch.Outcome
		Timeout bool
	}
	var got []fetched
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{
		Timeout: 50 * time.Millisecond,
		Fetched: func(res *fetch.Result, err error) {
			got = append(got, fetched{res.URL, res.Outcome, errors.Is(err, context.DeadlineExceeded)})
		},
	})
	ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/")
	if ok || err != nil {
		t.Errorf("Allowed(%q, %q) = %t, %v; want false, nil", testAgent, srv.URL+"/", ok, err)
	}
	// Fetched runs before the callers waiting for the fetch go on.
	wantFetched := []fetched{{srv.URL + "/robots.txt", fetch.Unreachable, true}}
	if diff := cmp.Diff(wantFetched, got); diff != "" {
		t.Errorf("Fetched calls mismatch (-want +got):\n%s", diff)
	}
}

func TestCacheInvalidURL(t *testing.T) {
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{
		Fetched: func(res *fetch.Result, err error) { t.Errorf("unexpected fetch of %s", res.URL) },
	})
	for _, page := range []string{"/relative", "mailto:a@example.com", "ftp://example.com/", "http://a b/"} {
		if ok, err := c.Allowed(context.Background(), testAgent, page); ok || err == nil {
			t.Errorf("Allowed(%q, %q) = %t, %v; want false, error", testAgent, page, ok, err)
		}
		if r, err := c.Robots(context.Background(), page); r != nil || err == nil {
			t.Errorf("Robots(%q) = %v, %v; want nil, error", page, r, err)
		}
	}
}

// TestCacheScope checks that URLs share a cached file exactly when the same
// robots.txt governs them.
func TestCacheScope(t *testing.T) {
	var requests sync.Map // host -> *atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := requests.LoadOrStore(r.Host, new(atomic.Int32))
		n.(*atomic.Int32).Add(1)
		fmt.Fprint(w, privateRules)
	})
	c := fetch.NewCache(hostClient(t, srv), testUserAgent, fetch.Options{})
	for _, page := range []string{
		"http://example.com/a",
		"http://EXAMPLE.com:80/b?c",
		"http://user@example.com/robots.txt",
		"http://example.com:8080/",
		"http://www.example.com/",
		"http://www.exämple.com/",
		"http://www.xn--exmple-cua.com/x",
	} {
		if _, err := c.Allowed(context.Background(), testAgent, page); err != nil {
			t.Fatalf("Allowed(%q, %q): %v", testAgent, page, err)
		}
	}
	got := map[string]int32{}
	requests.Range(func(host, n any) bool {
		got[host.(string)] = n.(*atomic.Int32).Load()
		return true
	})
	wantRequests := map[string]int32{
		"example.com":            1,
		"example.com:8080":       1,
		"www.example.com":        1,
		"www.xn--exmple-cua.com": 1,
	}
	if diff := cmp.Diff(wantRequests, got); diff != "" {
		t.Errorf("requests per host mismatch (-want +got):\n%s", diff)
	}
}

// TestCacheAgentErrors checks that an agent with no product token in it is
// an error, with the agent quoted, rather than an answer from the "*" group
// (issue 26 item 8).
func TestCacheAgentErrors(t *testing.T) {
	srv := serve(t, (&handler{status: 200, body: "User-agent: *\nAllow: /\n"}).ServeHTTP)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{})
	tests := []struct{ agent, want string }{
		{"", `robots: the agent is empty`},
		{"  ", `robots: the agent "  " names no crawler`},
		{"\t", `robots: the agent "\t" names no crawler`},
		{"(+http://x)", `robots: the agent "(+http://x)" names no crawler`},
	}
	for _, tt := range tests {
		ok, err := c.Allowed(t.Context(), tt.agent, srv.URL+"/page")
		if ok || err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Allowed(%q, /page) = %t, %v; want false and an error starting %s", tt.agent, ok, err, tt.want)
		}
	}
}

// TestCacheBodyFailure checks that a 200 whose body breaks off is a network
// error (status 0), and that State says the error itself (issue 26 item 9).
func TestCacheBodyFailure(t *testing.T) {
	srv := serve(t, hijack("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nUser-agent: *\nDisallow: /private/\n", false))
	clock := &fakeClock{t: epoch}
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Now: clock.Now})
	if ok, err := c.Allowed(t.Context(), "EvalBot", srv.URL+"/public"); ok || err != nil {
		t.Fatalf("Allowed(/public) = %t, %v; want false (disallow all), nil", ok, err)
	}
	st, ok := c.State(srv.URL + "/public")
	if !ok {
		t.Fatal("State: not held")
	}
	if st.StatusCode != 0 || st.Outcome != fetch.Unreachable {
		t.Errorf("State: StatusCode %d, Outcome %v; want 0, unreachable", st.StatusCode, st.Outcome)
	}
	if st.Err == nil || !errors.Is(st.Err, io.ErrUnexpectedEOF) {
		t.Errorf("State.Err = %v, want the error of the fetch (unexpected EOF)", st.Err)
	}
	want := "disallow all: network error (robots: reading " + srv.URL + "/robots.txt: unexpected EOF) since 2026-01-01T00:00:00Z, retried at 2026-01-01T01:00:00Z"
	if st.Policy != want {
		t.Errorf("State.Policy =\n%s\nwant\n%s", st.Policy, want)
	}
}

// fileClient returns a client that answers every robots.txt request at
// once with body, without any network, and counts the requests.
func fileClient(body string, requests *atomic.Int64, gate <-chan struct{}) *http.Client {
	return &http.Client{Transport: roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		requests.Add(1)
		if gate != nil {
			<-gate
		}
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})}
}

// TestCacheInFlightBeyondMaxHosts checks that when more hosts are being
// fetched at once than MaxHosts, each result is not forgotten as soon as it
// arrives: 2,000 hosts asked 3 times each, with MaxHosts 500, made 6,000
// fetches (issue 26 item 7). Here all 2,000 are in flight, then their
// fetches end one by one, each host asked twice more before the next ends.
func TestCacheInFlightBeyondMaxHosts(t *testing.T) {
	const hosts, questions, maxHosts = 2000, 3, 500
	var requests atomic.Int64
	gates := make([]chan struct{}, hosts)
	for i := range gates {
		gates[i] = make(chan struct{})
	}
	client := &http.Client{Transport: roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		requests.Add(1)
		var i int
		fmt.Sscanf(r.URL.Hostname(), "h%d.example", &i)
		<-gates[i]
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(privateRules)), Request: r}, nil
	})}
	c := fetch.NewCache(client, testUserAgent, fetch.Options{MaxHosts: maxHosts, MaxFetches: hosts})
	ask := func(i int) {
		if _, err := c.Allowed(context.Background(), testAgent, fmt.Sprintf("http://h%d.example/public", i)); err != nil {
			t.Error(err)
		}
	}
	firsts := make([]chan struct{}, hosts)
	for i := range hosts {
		firsts[i] = make(chan struct{})
		go func() {
			ask(i)
			close(firsts[i])
		}()
	}
	for c.Stats().Misses < hosts { // every host in flight
		time.Sleep(time.Millisecond)
	}
	for i := range hosts {
		close(gates[i])
		<-firsts[i]
		for range questions - 1 {
			ask(i)
		}
	}
	if got := requests.Load(); got != hosts {
		t.Errorf("%d hosts asked %d times each, MaxHosts %d: %d fetches, want %d", hosts, questions, maxHosts, got, hosts)
	}
	if s := c.Stats(); s.Hosts != maxHosts {
		t.Errorf("Stats().Hosts = %d, want MaxHosts %d once the fetches are over", s.Hosts, maxHosts)
	}
}

// TestCacheOversizeFile checks that a file that alone takes more than
// MaxBytes is kept while it is the most recently used, rather than fetched
// again for every question, and forgotten once another host is asked
// (issue 26 item 7).
func TestCacheOversizeFile(t *testing.T) {
	var big, small atomic.Int64
	bigBody := privateRules + strings.Repeat("Disallow: /x\n", 2000)
	clients := map[string]*http.Client{"big": fileClient(bigBody, &big, nil), "small": fileClient(privateRules, &small, nil)}
	c := fetch.NewCache(&http.Client{Transport: roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		return clients[strings.TrimSuffix(r.URL.Hostname(), ".example")].Transport.RoundTrip(r)
	})}, testUserAgent, fetch.Options{MaxBytes: 8 << 10})
	for range 50 {
		if ok, err := c.Allowed(context.Background(), testAgent, "http://big.example/private/x"); ok || err != nil {
			t.Fatalf("Allowed(big /private/x) = %t, %v; want false, nil", ok, err)
		}
	}
	if got := big.Load(); got != 1 {
		t.Errorf("50 questions on a host larger than MaxBytes: %d fetches, want 1", got)
	}
	if _, err := c.Allowed(context.Background(), testAgent, "http://small.example/x"); err != nil {
		t.Fatal(err)
	}
	if s := c.Stats(); s.Bytes > 8<<10 || s.Hosts != 1 {
		t.Errorf("after another host: Stats() = %+v, want 1 host within MaxBytes", s)
	}
}

// TestCacheMaxBytesCountsOrigins checks that MaxBytes bounds the memory of
// the index from page origins to robots.txt URLs too: with MaxBytes 1 MiB
// and 60,000 small hosts, the heap held 11.5 times Stats().Bytes (issue 26
// item 6).
func TestCacheMaxBytesCountsOrigins(t *testing.T) {
	const maxBytes = 128 << 10
	const hosts = 15_000
	var requests atomic.Int64
	c := fetch.NewCache(fileClient(privateRules, &requests, nil), testUserAgent, fetch.Options{MaxBytes: maxBytes, MaxHosts: 1_000_000})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := range hosts {
		if _, err := c.Allowed(context.Background(), testAgent, fmt.Sprintf("http://host-number-%d.example/page", i)); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	s := c.Stats()
	grown := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("%d hosts, MaxBytes %d: Stats().Bytes %d, %d hosts kept, heap grown by %d bytes", hosts, maxBytes, s.Bytes, s.Hosts, grown)
	if s.Bytes > maxBytes {
		t.Errorf("Stats().Bytes = %d, want at most MaxBytes %d", s.Bytes, maxBytes)
	}
	if grown > 2*maxBytes {
		t.Errorf("the heap grew by %d bytes (%.1f times MaxBytes %d), want at most twice MaxBytes", grown, float64(grown)/maxBytes, maxBytes)
	}
	runtime.KeepAlive(c)
}

// A deafStore is a Store whose calls ignore their context and never return
// until release is closed.
type deafStore struct{ release <-chan struct{} }

func (s deafStore) Load(context.Context, string) (fetch.State, bool, error) {
	<-s.release
	return fetch.State{}, false, nil
}
func (s deafStore) Save(context.Context, fetch.State) error { <-s.release; return nil }
func (s deafStore) Lease(context.Context, string, time.Duration) (fetch.Lease, error) {
	<-s.release
	return nil, errors.New("released")
}

// TestCacheWaitBounded checks that a caller's wait for a refresh is bounded
// whatever the context holds, even when what the refresh calls ignores its
// own deadlines (issue 26 item 10).
func TestCacheWaitBounded(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Store: deafStore{release}, Timeout: 100 * time.Millisecond, StoreTimeout: 10 * time.Millisecond, LeaseWait: 10 * time.Millisecond})
	done := make(chan error, 1)
	go func() {
		_, err := c.Allowed(context.Background(), testAgent, "http://deaf.example/")
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "http://deaf.example/robots.txt") {
			t.Errorf("Allowed = %v, want an error naming the robots.txt URL that wraps context.DeadlineExceeded", err)
		}
	case <-time.After(20 * time.Second): // a hang, not a measure of speed
		t.Fatal("Allowed with a Store that never answers: no answer in 20 s")
	}
}

// A leasedStore is a memStore whose lease another process holds for ever,
// without ever saving what it fetched.
type leasedStore struct{ *memStore }

func (leasedStore) Lease(context.Context, string, time.Duration) (fetch.Lease, error) {
	return nil, fetch.ErrLeased
}

// TestCacheWaitCoversRefresh checks that a caller's bound on its wait
// covers the slowest refresh: with the lease held elsewhere and nothing
// known, the Cache waits Timeout + StoreTimeout for the other process, then
// fetches the file itself, slowly but within Timeout; the caller gets the
// file's answer, not "no answer within" (whose bound was once Timeout +
// LeaseWait + 2 × StoreTimeout, shorter than this refresh).
func TestCacheWaitCoversRefresh(t *testing.T) {
	const timeout, delay = 2 * time.Second, 1200 * time.Millisecond
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(delay)
		fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
	})
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{Store: leasedStore{newMemStore()},
		Timeout: timeout, StoreTimeout: 100 * time.Millisecond, LeaseWait: 10 * time.Millisecond})
	start := time.Now()
	ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/private/page")
	if ok || err != nil {
		t.Fatalf("Allowed(/private/page) after %v = %t, %v; want false, nil (the file fetched after the lease's wait)",
			time.Since(start).Round(time.Millisecond), ok, err)
	}
}
