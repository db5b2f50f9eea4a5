package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

const (
	testUserAgent = "TestBot/1.0 (+https://example.com/bot)"
	testAgent     = "TestBot"
	// privateRules keeps crawlers out of /private: parsed, it allows "/" and
	// disallows "/private".
	privateRules = "User-agent: *\nDisallow: /private\n"
)

// serve starts an httptest server on the loopback interface.
func serve(t testing.TB, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// stopped returns a channel closed when the test ends, before its servers
// are closed, for handlers that must block until then.
func stopped(t *testing.T) <-chan struct{} {
	c := make(chan struct{})
	t.Cleanup(func() { close(c) })
	return c
}

// summary is the part of a fetch that tests compare with cmp.Diff. Public
// and Private are the verdicts of the rules for "/" and "/private".
type summary struct {
	Outcome    fetch.Outcome
	StatusCode int
	Redirects  int
	TTL        time.Duration
	Public     bool
	Private    bool
}

func summarize(res *fetch.Result) summary {
	return summary{
		Outcome:    res.Outcome,
		StatusCode: res.StatusCode,
		Redirects:  res.Redirects,
		TTL:        res.TTL,
		Public:     res.Robots.Allowed(testAgent, "/"),
		Private:    res.Robots.Allowed(testAgent, "/private"),
	}
}

// Verdicts for summary.Public and summary.Private.
const (
	parsed   = "parsed"   // public allowed, private disallowed
	allowAll = "allowAll" // both allowed
	denyAll  = "denyAll"  // both disallowed
)

func want(outcome fetch.Outcome, status, redirects int, ttl time.Duration, verdict string) summary {
	return summary{
		Outcome:    outcome,
		StatusCode: status,
		Redirects:  redirects,
		TTL:        ttl,
		Public:     verdict != denyAll,
		Private:    verdict == allowAll,
	}
}

func TestRobotsStatus(t *testing.T) {
	const (
		day  = 24 * time.Hour
		hour = time.Hour
	)
	tests := []struct {
		name   string
		status int
		header string // Location, when set
		body   string
		want   summary
	}{
		{"google/2xx-parsed", 200, "", privateRules, want(fetch.Success, 200, 0, day, parsed)},
		{"google/2xx-empty", 204, "", "", want(fetch.Success, 204, 0, day, allowAll)},
		{"google/2xx-other", 203, "", privateRules, want(fetch.Success, 203, 0, day, parsed)},
		{"google/3xx-without-location", 301, "", "User-agent: *\nDisallow: /\n", want(fetch.Unavailable, 301, 0, day, allowAll)},
		{"google/3xx-multiple-choices", 300, "", "User-agent: *\nDisallow: /\n", want(fetch.Unavailable, 300, 0, day, allowAll)},
		{"google/3xx-not-modified", 304, "", "", want(fetch.Unavailable, 304, 0, day, allowAll)},
		{"google/4xx-400", 400, "", "User-agent: *\nDisallow: /\n", want(fetch.Unavailable, 400, 0, day, allowAll)},
		{"google/4xx-401", 401, "", "User-agent: *\nDisallow: /\n", want(fetch.Unavailable, 401, 0, day, allowAll)},
		{"google/4xx-403", 403, "", "User-agent: *\nDisallow: /\n", want(fetch.Unavailable, 403, 0, day, allowAll)},
		{"google/4xx-404", 404, "", "User-agent: *\nDisallow: /\n", want(fetch.Unavailable, 404, 0, day, allowAll)},
		{"google/4xx-410", 410, "", "", want(fetch.Unavailable, 410, 0, day, allowAll)},
		{"google/4xx-451", 451, "", "", want(fetch.Unavailable, 451, 0, day, allowAll)},
		{"google/429", 429, "", "User-agent: *\nAllow: /\n", want(fetch.Unreachable, 429, 0, hour, denyAll)},
		{"google/5xx-500", 500, "", "User-agent: *\nAllow: /\n", want(fetch.Unreachable, 500, 0, hour, denyAll)},
		{"google/5xx-502", 502, "", "", want(fetch.Unreachable, 502, 0, hour, denyAll)},
		{"google/5xx-503-retries-sooner", 503, "", "User-agent: *\nAllow: /\n", want(fetch.Unreachable, 503, 0, 10*time.Minute, denyAll)},
		{"google/5xx-504", 504, "", "", want(fetch.Unreachable, 504, 0, hour, denyAll)},
		{"other/600", 600, "", privateRules, want(fetch.Unreachable, 600, 0, hour, denyAll)},
		{"other/999", 999, "", privateRules, want(fetch.Unreachable, 999, 0, hour, denyAll)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				fmt.Fprint(w, tt.body)
			})
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/page")
			if err != nil {
				t.Fatalf("Robots: %v", err)
			}
			if res.URL != srv.URL+"/robots.txt" {
				t.Errorf("URL = %q, want %q", res.URL, srv.URL+"/robots.txt")
			}
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("Robots mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRobotsRequest checks the request: a plain GET of /robots.txt with the
// crawler's User-Agent and nothing from the page URL but its origin.
func TestRobotsRequest(t *testing.T) {
	type request struct {
		Method, Path, Query, UserAgent string
		Conditional, Authorization     bool
	}
	var (
		mu  sync.Mutex // the race detector does not see the network
		got request
	)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		got = request{
			Method:        r.Method,
			Path:          r.URL.Path,
			Query:         r.URL.RawQuery,
			UserAgent:     r.UserAgent(),
			Conditional:   r.Header.Get("If-Modified-Since") != "" || r.Header.Get("If-None-Match") != "",
			Authorization: r.Header.Get("Authorization") != "",
		}
	})
	page := strings.Replace(srv.URL, "://", "://user:secret@", 1) + "/a/b?c=d#e"
	if _, err := fetch.Get(context.Background(), nil, testUserAgent, page); err != nil {
		t.Fatalf("Robots(%q): %v", page, err)
	}
	wantReq := request{Method: "GET", Path: "/robots.txt", UserAgent: testUserAgent}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff(wantReq, got); diff != "" {
		t.Errorf("request mismatch (-want +got):\n%s", diff)
	}
}

// redirectChain returns a handler on which /robots.txt is hops redirects of
// the given status away from privateRules, through /hop/1, /hop/2, ..., and
// the number of requests it has served.
func redirectChain(hops, status int) (http.HandlerFunc, *atomic.Int32) {
	var requests atomic.Int32
	return func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		n := 0
		if r.URL.Path != "/robots.txt" {
			fmt.Sscanf(r.URL.Path, "/hop/%d", &n)
		}
		if n < hops {
			w.Header().Set("Location", fmt.Sprintf("/hop/%d", n+1))
			w.WriteHeader(status)
			return
		}
		fmt.Fprint(w, privateRules)
	}, &requests
}

func TestRobotsRedirects(t *testing.T) {
	day := 24 * time.Hour
	tests := []struct {
		name     string
		hops     int
		status   int
		want     summary
		requests int32
	}{
		{"redirect/none", 0, 301, want(fetch.Success, 200, 0, day, parsed), 1},
		{"redirect/301", 1, 301, want(fetch.Success, 200, 1, day, parsed), 2},
		{"redirect/302", 1, 302, want(fetch.Success, 200, 1, day, parsed), 2},
		{"redirect/303", 1, 303, want(fetch.Success, 200, 1, day, parsed), 2},
		{"redirect/307", 1, 307, want(fetch.Success, 200, 1, day, parsed), 2},
		{"redirect/308", 1, 308, want(fetch.Success, 200, 1, day, parsed), 2},
		{"google/5-hops-followed", 5, 301, want(fetch.Success, 200, 5, day, parsed), 6},
		// The sixth hop is not requested; the last 3xx counts as a 404.
		{"google/6-hops-as-404", 6, 301, want(fetch.Unavailable, 301, 5, day, allowAll), 6},
		{"google/6-hops-as-404-302", 6, 302, want(fetch.Unavailable, 302, 5, day, allowAll), 6},
		{"google/many-hops-as-404", 50, 308, want(fetch.Unavailable, 308, 5, day, allowAll), 6},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, requests := redirectChain(tt.hops, tt.status)
			srv := serve(t, h)
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatalf("Robots: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("Robots mismatch (-want +got):\n%s", diff)
			}
			if got := requests.Load(); got != tt.requests {
				t.Errorf("server got %d requests, want %d", got, tt.requests)
			}
		})
	}
}

func TestRobotsRedirectLoop(t *testing.T) {
	tests := []struct {
		name     string
		location map[string]string // path -> Location
		want     summary
		requests int32
	}{
		{
			name:     "loop/self",
			location: map[string]string{"/robots.txt": "/robots.txt"},
			want:     want(fetch.Unavailable, 302, 0, 24*time.Hour, allowAll),
			requests: 1,
		},
		{
			name:     "loop/two",
			location: map[string]string{"/robots.txt": "/a", "/a": "/robots.txt"},
			want:     want(fetch.Unavailable, 302, 1, 24*time.Hour, allowAll),
			requests: 2,
		},
		{
			name:     "loop/into-chain",
			location: map[string]string{"/robots.txt": "/a", "/a": "/b", "/b": "/a"},
			want:     want(fetch.Unavailable, 302, 2, 24*time.Hour, allowAll),
			requests: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var requests atomic.Int32
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				http.Redirect(w, r, tt.location[r.URL.Path], http.StatusFound)
			})
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatalf("Robots: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("Robots mismatch (-want +got):\n%s", diff)
			}
			if got := requests.Load(); got != tt.requests {
				t.Errorf("server got %d requests, want %d", got, tt.requests)
			}
		})
	}
}

// hostClient returns a client that connects to srv whatever the host of the
// URL, so that a test can use many host names without DNS.
func hostClient(t testing.TB, srv *httptest.Server) *http.Client {
	addr := srv.Listener.Addr().String()
	tr := &http.Transport{DialContext: func(ctx context.Context, network, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

func TestRobotsCrossHostRedirects(t *testing.T) {
	type hit struct{ Host, Path, UserAgent string }
	tests := []struct {
		name     string
		location map[string]string // host+path -> Location; others serve privateRules
		want     summary
		hits     []hit
	}{
		{
			name:     "cross-host/www",
			location: map[string]string{"example.com/robots.txt": "http://www.example.com/robots.txt"},
			want:     want(fetch.Success, 200, 1, 24*time.Hour, parsed),
			hits: []hit{
				{"example.com", "/robots.txt", testUserAgent},
				{"www.example.com", "/robots.txt", testUserAgent},
			},
		},
		{
			name:     "cross-host/other-domain-and-port",
			location: map[string]string{"example.com/robots.txt": "http://cdn.example.net:8080/sites/example/robots.txt"},
			want:     want(fetch.Success, 200, 1, 24*time.Hour, parsed),
			hits: []hit{
				{"example.com", "/robots.txt", testUserAgent},
				{"cdn.example.net:8080", "/sites/example/robots.txt", testUserAgent},
			},
		},
		{
			name: "cross-host/hops-counted-across-hosts",
			location: map[string]string{
				"example.com/robots.txt":     "http://a.example/1",
				"a.example/1":                "http://b.example/2",
				"b.example/2":                "http://a.example/3",
				"a.example/3":                "http://b.example/4",
				"b.example/4":                "http://a.example/5",
				"a.example/5":                "http://b.example/6",
				"b.example/6":                "http://a.example/7",
				"www.example.com/robots.txt": "unused",
			},
			want: want(fetch.Unavailable, 302, 5, 24*time.Hour, allowAll),
			hits: []hit{
				{"example.com", "/robots.txt", testUserAgent},
				{"a.example", "/1", testUserAgent},
				{"b.example", "/2", testUserAgent},
				{"a.example", "/3", testUserAgent},
				{"b.example", "/4", testUserAgent},
				{"a.example", "/5", testUserAgent},
			},
		},
		{
			name: "cross-host/loop",
			location: map[string]string{
				"example.com/robots.txt":     "http://www.example.com/robots.txt",
				"www.example.com/robots.txt": "http://example.com/robots.txt",
			},
			want: want(fetch.Unavailable, 302, 1, 24*time.Hour, allowAll),
			hits: []hit{
				{"example.com", "/robots.txt", testUserAgent},
				{"www.example.com", "/robots.txt", testUserAgent},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var (
				mu   sync.Mutex // the race detector does not see the network
				hits []hit
			)
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				hits = append(hits, hit{r.Host, r.URL.Path, r.UserAgent()})
				if loc, ok := tt.location[r.Host+r.URL.Path]; ok {
					http.Redirect(w, r, loc, http.StatusFound)
					return
				}
				fmt.Fprint(w, privateRules)
			})
			res, err := fetch.Get(context.Background(), hostClient(t, srv), testUserAgent, "http://example.com/page")
			if err != nil {
				t.Fatalf("Robots: %v", err)
			}
			if diff := cmp.Diff(tt.want, summarize(res)); diff != "" {
				t.Errorf("Robots mismatch (-want +got):\n%s", diff)
			}
			// The client has read all responses before Robots returns.
			mu.Lock()
			defer mu.Unlock()
			if diff := cmp.Diff(tt.hits, hits); diff != "" {
				t.Errorf("requests mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// hijack returns a handler that takes over the connection, writes raw and
// closes it; with reset, the close sends a TCP RST instead of a FIN.
func hijack(raw string, reset bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		conn, buf, err := http.NewResponseController(w).Hijack()
		if err != nil {
			panic(err)
		}
		defer conn.Close()
		buf.WriteString(raw)
		buf.Flush()
		if tcp, ok := conn.(*net.TCPConn); ok && reset {
			tcp.SetLinger(0)
		}
	}
}

func TestRobotsNetworkErrors(t *testing.T) {
	refused := func(t *testing.T) string {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		l.Close()
		return "http://" + l.Addr().String() + "/"
	}
	fromHandler := func(h func(stop <-chan struct{}) http.HandlerFunc) func(*testing.T) string {
		return func(t *testing.T) string {
			stop := stopped(t)
			return serve(t, h(stop)).URL + "/"
		}
	}
	isTimeout := func(err error) bool {
		var ne net.Error
		return errors.As(err, &ne) && ne.Timeout()
	}
	shortTimeout := &http.Client{Timeout: 100 * time.Millisecond}
	dnsFailure := &http.Client{Transport: &http.Transport{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return nil, &net.DNSError{Err: "no such host", Name: "nx.example", IsNotFound: true}
		},
	}}

	tests := []struct {
		name   string
		client *http.Client
		url    func(t *testing.T) string
		check  func(err error) bool // what the error must be, beyond non-nil
	}{
		{
			name: "dns/not-found", client: dnsFailure,
			url: func(*testing.T) string { return "http://nx.example/" },
			check: func(err error) bool {
				var dns *net.DNSError
				return errors.As(err, &dns) && dns.IsNotFound
			},
		},
		{name: "connection/refused", url: refused},
		{
			name: "connection/closed-before-response",
			url:  fromHandler(func(<-chan struct{}) http.HandlerFunc { return hijack("", false) }),
		},
		{
			name: "connection/reset-before-response",
			url:  fromHandler(func(<-chan struct{}) http.HandlerFunc { return hijack("", true) }),
		},
		{
			name: "connection/invalid-response",
			url:  fromHandler(func(<-chan struct{}) http.HandlerFunc { return hijack("SSH-2.0-OpenSSH_9.6\r\n\r\n", false) }),
		},
		{
			name: "body/closed-mid-body",
			url: fromHandler(func(<-chan struct{}) http.HandlerFunc {
				return hijack("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"+privateRules, false)
			}),
			check: func(err error) bool { return errors.Is(err, io.ErrUnexpectedEOF) },
		},
		{
			name: "body/reset-mid-body",
			url: fromHandler(func(<-chan struct{}) http.HandlerFunc {
				return hijack("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"+privateRules, true)
			}),
		},
		{
			name: "body/closed-mid-chunked-body",
			url: fromHandler(func(<-chan struct{}) http.HandlerFunc {
				return hijack(fmt.Sprintf("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n", len(privateRules), privateRules), false)
			}),
		},
		{
			name: "body/bad-chunking",
			url: fromHandler(func(<-chan struct{}) http.HandlerFunc {
				return hijack("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"+privateRules+"\r\n0\r\n\r\n", false)
			}),
		},
		{
			name: "timeout/no-response", client: shortTimeout, check: isTimeout,
			url: fromHandler(func(stop <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					select {
					case <-r.Context().Done():
					case <-stop:
					}
				}
			}),
		},
		{
			// The headers arrive well within the timeout; the body never
			// ends.
			name: "timeout/mid-body", client: &http.Client{Timeout: 250 * time.Millisecond}, check: isTimeout,
			url: fromHandler(func(stop <-chan struct{}) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					fmt.Fprint(w, privateRules)
					http.NewResponseController(w).Flush()
					select {
					case <-r.Context().Done():
					case <-stop:
					}
				}
			}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := fetch.Get(context.Background(), tt.client, testUserAgent, tt.url(t))
			if err == nil {
				t.Fatalf("Robots: no error")
			}
			if !strings.HasPrefix(err.Error(), "robots: ") || (tt.check != nil && !tt.check(err)) {
				t.Errorf("Robots: unexpected error %q", err)
			}
			// Status 0 for every network error, a 200 whose body broke off
			// included (issue 26 item 9): the doc says so, and the Cache's
			// policy then says "network error", not "200".
			wantRes := want(fetch.Unreachable, 0, 0, time.Hour, denyAll)
			if diff := cmp.Diff(wantRes, summarize(res)); diff != "" {
				t.Errorf("Robots mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRobotsContext(t *testing.T) {
	stop := stopped(t)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-stop:
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	res, err := fetch.Get(ctx, nil, testUserAgent, srv.URL+"/")
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Robots: error %v, want %v", err, context.DeadlineExceeded)
	}
	if diff := cmp.Diff(want(fetch.Unreachable, 0, 0, time.Hour, denyAll), summarize(res)); diff != "" {
		t.Errorf("Robots mismatch (-want +got):\n%s", diff)
	}
}

func TestRobotsMaxSize(t *testing.T) {
	// A file whose first MaxSize bytes disallow /early, followed by a rule
	// that would disallow /late.
	var b strings.Builder
	b.WriteString("User-agent: *\nDisallow: /early\n")
	for b.Len() < robots.MaxSize {
		b.WriteString("# padding padding padding padding padding padding padding\n")
	}
	b.WriteString("Disallow: /late\n")
	large := b.String()

	tests := []struct {
		name  string
		write func(w http.ResponseWriter, r *http.Request)
	}{
		{"google/500-kib/content-length", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, large)
		}},
		// A body without end: reading must stop at MaxSize.
		{"google/500-kib/endless", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprint(w, large)
			for r.Context().Err() == nil {
				if _, err := fmt.Fprint(w, "Disallow: /late\n"); err != nil {
					return
				}
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.write)
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatalf("Robots: %v", err)
			}
			if res.Outcome != fetch.Success {
				t.Errorf("Outcome = %v, want %v", res.Outcome, fetch.Success)
			}
			for path, want := range map[string]bool{"/early": false, "/late": true} {
				if got := res.Robots.Allowed(testAgent, path); got != want {
					t.Errorf("Allowed(%q, %q) = %t, want %t", testAgent, path, got, want)
				}
			}
		})
	}
}

func TestRobotsMaxAge(t *testing.T) {
	tests := []struct {
		name         string
		status       int
		cacheControl []string
		want         time.Duration
	}{
		{"max-age/none", 200, nil, 24 * time.Hour},
		{"max-age/shorter", 200, []string{"max-age=3600"}, time.Hour},
		{"max-age/longer", 200, []string{"public, max-age=172800"}, 48 * time.Hour},
		{"max-age/below-min", 200, []string{"max-age=0"}, time.Minute},
		{"max-age/above-max", 200, []string{"max-age=31536000"}, 7 * 24 * time.Hour},
		{"max-age/quoted", 200, []string{`max-age="600"`}, 10 * time.Minute},
		{"max-age/case-and-space", 200, []string{"no-transform , MAX-AGE = 600"}, 10 * time.Minute},
		{"max-age/second-field", 200, []string{"public", "max-age=600"}, 10 * time.Minute},
		{"max-age/overflow", 200, []string{"max-age=99999999999999999999999"}, 7 * 24 * time.Hour},
		{"max-age/invalid-ignored", 200, []string{"max-age=ten, max-age=600"}, 10 * time.Minute},
		{"max-age/negative-ignored", 200, []string{"max-age=-5"}, 24 * time.Hour},
		{"max-age/s-maxage-ignored", 200, []string{"s-maxage=600"}, 24 * time.Hour},
		{"max-age/no-store-ignored", 200, []string{"no-store"}, 24 * time.Hour},
		{"max-age/404", 404, []string{"max-age=600"}, 10 * time.Minute},
		{"max-age/not-for-errors", 500, []string{"max-age=600"}, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Cache-Control"] = tt.cacheControl
				w.WriteHeader(tt.status)
			})
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatalf("Robots: %v", err)
			}
			if res.TTL != tt.want {
				t.Errorf("TTL = %v, want %v", res.TTL, tt.want)
			}
		})
	}
}

func TestRobotsInvalidURL(t *testing.T) {
	tests := []struct {
		name, url, wantErr string
	}{
		{"relative", "/page", `robots: URL "/page" is relative`},
		{"scheme", "mailto:a@example.com", `robots: URL "mailto:a@example.com" has scheme "mailto"`},
		{"ftp", "ftp://example.com/file", "robots: cannot fetch ftp://example.com/robots.txt: FTP is not supported"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := fetch.Get(context.Background(), nil, testUserAgent, tt.url)
			if res != nil || err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Robots(%q) = %v, %v; want nil, error containing %q", tt.url, res, err, tt.wantErr)
			}
		})
	}
}

func TestOutcomeString(t *testing.T) {
	for o, want := range map[fetch.Outcome]string{
		fetch.Success:     "success",
		fetch.Unavailable: "unavailable",
		fetch.Unreachable: "unreachable",
		0:                 "Outcome(0)",
		9:                 "Outcome(9)",
	} {
		if got := o.String(); got != want {
			t.Errorf("Outcome(%d).String() = %q, want %q", uint8(o), got, want)
		}
	}
}
