package fetch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

const testUA = "EvalBot/1.0 (+http://x)"

// An obeySite is a test server with a robots.txt, which records the
// requests it gets.
type obeySite struct {
	*httptest.Server
	mu       sync.Mutex
	requests []string // "path User-Agent", in order
}

// newObeySite starts a site whose robots.txt is robotsTxt, served with
// status 200, and whose other pages are all there (except what routes
// handles).
func newObeySite(t *testing.T, robotsTxt string, routes map[string]http.HandlerFunc) *obeySite {
	t.Helper()
	s := &obeySite{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests = append(s.requests, r.URL.RequestURI()+" "+r.UserAgent())
		s.mu.Unlock()
		if h, ok := routes[r.URL.Path]; ok {
			h(w, r)
			return
		}
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, robotsTxt)
			return
		}
		io.WriteString(w, "page "+r.URL.Path)
	}))
	t.Cleanup(s.Close)
	return s
}

// got returns the requests the site has had.
func (s *obeySite) got() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

// get fetches url with client and returns the body, or the error.
func get(ctx context.Context, client *http.Client, url, userAgent string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	if userAgent != "" {
		req.Header.Set("User-Agent", userAgent)
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func TestTransportObeys(t *testing.T) {
	toPrivate := func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/private/y", http.StatusFound) }
	s := newObeySite(t, "User-agent: *\nDisallow: /private/\nAllow: /tie\nDisallow: /tie\n\nUser-agent: OtherBot\nDisallow: /\n",
		map[string]http.HandlerFunc{"/to-private": toPrivate})
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		path    string
		wantErr string // "" when the page is fetched
		line    int
	}{
		{"allowed/root", "/", "", 0},
		{"allowed/no-match", "/public/a?b=c", "", 0},
		{"disallowed/rule", "/private/x", "robots: disallowed by line 2: Disallow: /private/", 2},
		{"disallowed/query", "/private/?q=1", "robots: disallowed by line 2: Disallow: /private/", 2},
		{"google/tie-allows", "/tie", "", 0},
		{"robots-txt/passes-through", "/robots.txt", "", 0},
		{"redirect/to-disallowed", "/to-private", "robots: disallowed by line 2: Disallow: /private/", 2}, // refuses /private/y
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(s.got())
			body, err := get(t.Context(), client, s.URL+tt.path, "")
			fetched := len(s.got()) > before
			if tt.wantErr == "" {
				if err != nil || !fetched || body == "" {
					t.Fatalf("GET %s: body %q, err %v, fetched %t; want the page", tt.path, body, err, fetched)
				}
				return
			}
			if got := s.got(); len(got) > before && strings.HasPrefix(got[len(got)-1], "/private/") {
				t.Errorf("GET %s: the server got %q", tt.path, got[len(got)-1])
			}
			if !errors.Is(err, fetch.ErrDisallowed) {
				t.Fatalf("GET %s: err = %v, want ErrDisallowed", tt.path, err)
			}
			var de *fetch.DisallowedError
			if !errors.As(err, &de) {
				t.Fatalf("GET %s: err = %v, not a *DisallowedError", tt.path, err)
			}
			if de.Error() != tt.wantErr || de.Decision.Rule.Line != tt.line || de.Agent != "EvalBot" || !strings.HasPrefix(de.URL, s.URL+"/private/") {
				t.Errorf("GET %s: error %q (line %d, agent %q, URL %q), want %q (line %d, agent EvalBot)",
					tt.path, de.Error(), de.Decision.Rule.Line, de.Agent, de.URL, tt.wantErr, tt.line)
			}
		})
	}
}

// TestTransportRedirectedFile checks that a refusal decided by a rule of a
// robots.txt reached through a redirect names the file its line is in, and
// that the error is otherwise what it is without the redirect.
func TestTransportRedirectedFile(t *testing.T) {
	const rules = "User-agent: *\nDisallow: /private/\n"
	s := newObeySite(t, "", map[string]http.HandlerFunc{
		"/robots.txt": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/files/robots.txt", http.StatusMovedPermanently)
		},
		"/files/robots.txt": func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, rules) },
	})
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = get(t.Context(), client, s.URL+"/private/x", "")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) {
		t.Fatalf("GET /private/x: err = %v, not a *DisallowedError", err)
	}
	want := "robots: disallowed by line 2 of " + s.URL + "/files/robots.txt: Disallow: /private/"
	if de.Error() != want || de.File != s.URL+"/files/robots.txt" {
		t.Errorf("GET /private/x: error %q (File %q), want %q", de.Error(), de.File, want)
	}
	if _, err := get(t.Context(), client, s.URL+"/public", ""); err != nil {
		t.Errorf("GET /public: %v", err)
	}
	if diff := cmp.Diff([]string{"/robots.txt " + testUA, "/files/robots.txt " + testUA, "/public " + testUA}, s.got()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestTransportUserAgent checks that the server sees the cache's User-Agent
// header on every request, whatever the request carried, since the rules
// are checked for its token.
func TestTransportUserAgent(t *testing.T) {
	s := newObeySite(t, "User-agent: EvalBot\nDisallow: /evalbot-only/\n", nil)
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ua := range []string{"", "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0", testUA} {
		if _, err := get(t.Context(), client, s.URL+"/a", ua); err != nil {
			t.Fatalf("GET /a with User-Agent %q: %v", ua, err)
		}
	}
	_, err = get(t.Context(), client, s.URL+"/evalbot-only/x", "Mozilla/5.0 Chrome/120.0")
	if !errors.Is(err, fetch.ErrDisallowed) {
		t.Errorf("GET /evalbot-only/x with a browser User-Agent: err = %v, want ErrDisallowed (EvalBot's rules)", err)
	}
	want := []string{"/robots.txt " + testUA, "/a " + testUA, "/a " + testUA, "/a " + testUA}
	if diff := cmp.Diff(want, s.got()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestNewClientAmbiguousAgent: a User-Agent whose first word has no
// version ("Eval Bot/1.0") is refused, with the error that names the fix,
// rather than asked as "Bot".
func TestNewClientAmbiguousAgent(t *testing.T) {
	for _, ua := range []string{"Eval Bot/1.0", "Eval Bot/1.0 (+http://x)", "Screaming Frog SEO Spider/19.0"} {
		_, err := fetch.NewClient(ua, fetch.TransportOptions{})
		if err == nil || !strings.Contains(err.Error(), "ambiguous") || !strings.Contains(err.Error(), "give the product token") {
			t.Errorf("NewClient(%q) error = %v, want one saying it is ambiguous and naming the fix", ua, err)
		}
		if _, err := fetch.NewTransport(nil, ua, fetch.TransportOptions{}); err == nil {
			t.Errorf("NewTransport(%q) error = nil, want one", ua)
		}
	}
}

func TestNewTransportAgent(t *testing.T) {
	tests := []struct {
		name, userAgent, wantAgent string // wantAgent "": refused
	}{
		{"crawler/full-header", "EvalBot/1.0 (+http://x)", "EvalBot"},
		{"crawler/compatible", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"crawler/token", "EvalBot", "EvalBot"},
		// As every front end asks it (robots.CrawlerToken): as given.
		{"crawler/not-a-token", "MJ12bot", "MJ12bot"},
		{"refused/browser", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", ""},
		{"refused/empty", "", ""},
		{"refused/star", "*", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := fetch.NewTransport(nil, tt.userAgent, fetch.TransportOptions{Polite: true})
			if tt.wantAgent == "" {
				if err == nil || !strings.Contains(err.Error(), "names no crawler") {
					t.Errorf("NewTransport(%q) error = %v, want one saying it names no crawler", tt.userAgent, err)
				}
				if _, err := fetch.NewClient(tt.userAgent, fetch.TransportOptions{}); err == nil {
					t.Errorf("NewClient(%q) error = nil, want one", tt.userAgent)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewTransport(%q): %v", tt.userAgent, err)
			}
			if tr.Agent() != tt.wantAgent || tr.Cache().UserAgent() != tt.userAgent || tr.Politeness() == nil {
				t.Errorf("NewTransport(%q): agent %q, cache User-Agent %q, politeness %v; want %q, the header, non-nil",
					tt.userAgent, tr.Agent(), tr.Cache().UserAgent(), tr.Politeness(), tt.wantAgent)
			}
		})
	}
}

// roundTripperFunc makes a function an http.RoundTripper.
type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestTransportNoDeadlock is the deadlock of issue 12: the robots.txt fetch
// of a host, or a redirect it follows to another file on the same host,
// going through the enforcing transport, which waits for that very fetch
// until the cache's timeout, after which the host is disallowed. The API
// cannot express a cache fetching through its own transport (the transport
// makes its cache over the base); the looping base below routes every
// request back through the transport once, as a misconfigured proxy chain
// would, and the robots.txt fetches must still pass through.
func TestTransportNoDeadlock(t *testing.T) {
	moved := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots-moved.txt", http.StatusMovedPermanently)
	}
	movedRules := func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /moved-rule\n")
	}
	for _, loop := range []bool{false, true} {
		name := map[bool]string{false: "plain-base", true: "base-loops-back"}[loop]
		t.Run(name, func(t *testing.T) {
			s := newObeySite(t, "", map[string]http.HandlerFunc{"/robots.txt": moved, "/robots-moved.txt": movedRules})
			var tr *fetch.Transport
			base := http.DefaultTransport
			if loop {
				base = roundTripperFunc(func(r *http.Request) (*http.Response, error) {
					if r.Header.Get("X-Looped") != "" {
						return http.DefaultTransport.RoundTrip(r)
					}
					r = r.Clone(r.Context())
					r.Header.Set("X-Looped", "1")
					return tr.RoundTrip(r)
				})
			}
			var err error
			tr, err = fetch.NewTransport(base, testUA, fetch.TransportOptions{Cache: fetch.Options{Timeout: 2 * time.Second}})
			if err != nil {
				t.Fatal(err)
			}
			client := &http.Client{Transport: tr}
			if _, err := get(t.Context(), client, s.URL+"/page", ""); err != nil {
				t.Fatalf("GET /page: %v (a deadlocked robots.txt fetch times out and disallows all)", err)
			}
			_, err = get(t.Context(), client, s.URL+"/moved-rule", "")
			var de *fetch.DisallowedError
			if !errors.As(err, &de) || de.Decision.Reason != robots.ReasonRule {
				t.Errorf("GET /moved-rule: err = %v, want disallowed by the moved file's rule", err)
			}
		})
	}
}

// TestTransportPassesThrough checks what goes to the base transport
// unchecked, under a file that disallows everything.
func TestTransportPassesThrough(t *testing.T) {
	s := newObeySite(t, "User-agent: *\nDisallow: /\n", nil)
	var sent []string
	base := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		sent = append(sent, r.URL.String())
		if r.URL.Scheme == "http" {
			return http.DefaultTransport.RoundTrip(r)
		}
		return &http.Response{StatusCode: 200, Body: http.NoBody, Request: r}, nil
	})
	tr, err := fetch.NewTransport(base, testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, url string
		sent      bool
	}{
		{"robots-txt", s.URL + "/robots.txt", true},
		{"robots-txt/query", s.URL + "/robots.txt?x=1", true},
		{"scheme/file", "file:///etc/passwd", true},
		{"scheme/ftp", "ftp://example.com/x", true},
		{"checked/page", s.URL + "/page", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sent = nil
			req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := tr.RoundTrip(req)
			if err == nil {
				resp.Body.Close()
			}
			// The cache's own fetch of robots.txt goes through base too.
			gotSent := len(sent) > 0 && sent[len(sent)-1] == tt.url
			if gotSent != tt.sent {
				t.Errorf("RoundTrip(%s): sent %v, err %v; want sent %t", tt.url, sent, err, tt.sent)
			}
		})
	}
}

// TestTransportPolicy checks the refusal when no rule decides but the
// cache's policy does: a 503 disallows everything.
func TestTransportPolicy(t *testing.T) {
	unavailable := func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "maintenance", http.StatusServiceUnavailable)
	}
	s := newObeySite(t, "", map[string]http.HandlerFunc{"/robots.txt": unavailable})
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = get(t.Context(), client, s.URL+"/page", "")
	var de *fetch.DisallowedError
	if !errors.Is(err, fetch.ErrDisallowed) || !errors.As(err, &de) {
		t.Fatalf("GET /page: err = %v, want a *DisallowedError", err)
	}
	if !strings.Contains(de.State.Policy, "503 since") {
		t.Errorf("GET /page: policy %q, want it to name the 503 and since when", de.State.Policy)
	}
	want := "robots: " + de.State.Policy
	if de.Decision.Reason != robots.ReasonDisallowAll || de.Error() != want {
		t.Errorf("GET /page: reason %v, error %q; want disallow all, %q", de.Decision.Reason, de.Error(), want)
	}
}

// closeCounter is a request body that counts its closes.
type closeCounter struct {
	io.Reader
	closed int
}

func (c *closeCounter) Close() error { c.closed++; return nil }

// TestTransportClosesBody checks that a refused request's body is closed, as
// the http.RoundTripper contract asks.
func TestTransportClosesBody(t *testing.T) {
	s := newObeySite(t, "User-agent: *\nDisallow: /form\n", nil)
	tr, err := fetch.NewTransport(nil, testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	body := &closeCounter{Reader: strings.NewReader("a=b")}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, s.URL+"/form", body)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.RoundTrip(req); !errors.Is(err, fetch.ErrDisallowed) || body.closed != 1 {
		t.Errorf("RoundTrip(POST /form): err %v, body closed %d times; want ErrDisallowed, 1", err, body.closed)
	}
}

// TestTransportPolite checks that a polite transport spaces the requests it
// sends, and that refused requests neither wait nor take a slot.
func TestTransportPolite(t *testing.T) {
	s := newObeySite(t, "User-agent: *\nDisallow: /private/\nCrawl-delay: 5\n", nil)
	clock := newSleepClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{
		Polite:     true,
		Politeness: fetch.PoliteOptions{Now: clock.Now, Sleep: clock.Sleep},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{"/a", "/private/1", "/private/2", "/b", "/c"} {
		_, err := get(t.Context(), client, s.URL+path, "")
		if refused := errors.Is(err, fetch.ErrDisallowed); err != nil && !refused {
			t.Fatalf("GET %s: %v", path, err)
		}
	}
	if diff := cmp.Diff([]time.Duration{5 * time.Second, 5 * time.Second}, clock.sleeps()); diff != "" {
		t.Errorf("sleeps (-want +got):\n%s", diff)
	}
	want := []string{"/robots.txt " + testUA, "/a " + testUA, "/b " + testUA, "/c " + testUA}
	if diff := cmp.Diff(want, s.got()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestTransportContext checks that a request whose context ends while the
// robots.txt is being fetched fails with the context's error, unsent.
func TestTransportContext(t *testing.T) {
	release := make(chan struct{})
	slow := func(w http.ResponseWriter, r *http.Request) {
		<-release
		io.WriteString(w, "User-agent: *\nDisallow: /x\n")
	}
	s := newObeySite(t, "", map[string]http.HandlerFunc{"/robots.txt": slow})
	defer close(release) // before the site closes
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	_, err = get(ctx, client, s.URL+"/page", "")
	if !errors.Is(err, context.DeadlineExceeded) || errors.Is(err, fetch.ErrDisallowed) {
		t.Errorf("GET /page: err = %v, want the context's deadline", err)
	}
	for _, r := range s.got() {
		if strings.HasPrefix(r, "/page") {
			t.Errorf("the server got %q", r)
		}
	}
}

// TestTransportHitAllocs checks that a request the rules allow, to a host
// whose robots.txt is in the cache and whose origin is plain, costs the
// transport no allocation, polite or not, with or without a query.
func TestTransportHitAllocs(t *testing.T) {
	base := &cannedTransport{page: http.Response{StatusCode: 200, Body: http.NoBody}}
	tests := []struct {
		name string
		opts fetch.TransportOptions
		url  string
	}{
		{"obey", fetch.TransportOptions{}, "https://example.com/private/press/2026/launch.html?ref=home"},
		{"obey/no-query", fetch.TransportOptions{}, "https://example.com/news/"},
		{"obey/no-path", fetch.TransportOptions{}, "https://example.com?ref=home"},
		{"obey/port", fetch.TransportOptions{}, "http://example.com:8080/private/press/"},
		{"obey-polite", fetch.TransportOptions{Polite: true}, "https://example.com/private/press/2026/launch.html?ref=home"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := fetch.NewTransport(base, testUA, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			req, err := http.NewRequest(http.MethodGet, tt.url, nil)
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("User-Agent", testUA)
			if _, err := tr.RoundTrip(req); err != nil { // fills the cache
				t.Fatalf("RoundTrip(%s): %v", tt.url, err)
			}
			var rtErr error
			allocs := testing.AllocsPerRun(100, func() {
				_, rtErr = tr.RoundTrip(req)
			})
			if rtErr != nil {
				t.Fatalf("RoundTrip(%s): %v", tt.url, rtErr)
			}
			if allocs != 0 {
				t.Errorf("RoundTrip(%s) on a hit: %v allocations, want 0", tt.url, allocs)
			}
		})
	}
}

// TestTransportRobotsTxtUserAgent checks that a request for /robots.txt,
// which goes to the base unchecked, still carries the crawler's User-Agent,
// not the caller's (issue 26 item 11).
func TestTransportRobotsTxtUserAgent(t *testing.T) {
	s := newObeySite(t, "User-agent: *\nDisallow: /\n", nil)
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get(t.Context(), client, s.URL+"/robots.txt", "Mozilla/5.0 Spoof"); err != nil {
		t.Fatal(err)
	}
	want := []string{"/robots.txt " + testUA}
	if diff := cmp.Diff(want, s.got()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

// TestTransportBaseDropsContext checks that a base RoundTripper that
// rebuilds requests without their context cannot hang a request: the
// robots.txt fetch's own Timeout travels in that context, and a redirect
// within the host, routed back through the transport, then waited for the
// very fetch it belongs to (issue 26 item 10; it hung past 45 s). Every
// wait is bounded by the Cache's Timeout whatever the context holds.
func TestTransportBaseDropsContext(t *testing.T) {
	moved := func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/robots-moved.txt", http.StatusMovedPermanently)
	}
	movedRules := func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /moved-rule\n")
	}
	s := newObeySite(t, "", map[string]http.HandlerFunc{"/robots.txt": moved, "/robots-moved.txt": movedRules})
	var tr *fetch.Transport
	base := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		if r.Header.Get("X-Looped") != "" {
			return http.DefaultTransport.RoundTrip(r)
		}
		r = r.Clone(context.Background()) // the context, and its deadline, lost
		r.Header.Set("X-Looped", "1")
		return tr.RoundTrip(r)
	})
	var err error
	// The fetch ends at its Timeout; the caller's own bound (a refresh's,
	// LeaseWait included) is set far past it, so that a loaded
	// machine's slow recording of the failure reads as the failure, which
	// is what this test checks, not as "no answer in time".
	tr, err = fetch.NewTransport(base, testUA, fetch.TransportOptions{Cache: fetch.Options{Timeout: 300 * time.Millisecond, LeaseWait: 10 * time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	done := make(chan error, 1)
	go func() {
		_, err := get(context.Background(), client, s.URL+"/page", "")
		done <- err
	}()
	select {
	case err = <-done:
	case <-time.After(20 * time.Second): // a hang, not a measure of speed
		t.Fatal("GET /page through a base that drops the context: no answer in 20 s")
	}
	// The fetch gave up after its Timeout: everything is disallowed for now,
	// and the refusal says the fetch failed.
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || !strings.Contains(de.Error(), "network error") {
		t.Errorf("GET /page: err = %v, want a refusal for a network error", err)
	}
}

// TestNewClientBase checks that NewClient takes a base transport, through
// which the allowed requests and the robots.txt fetches go (issue 26 item
// 14: a proxy or a guarded dialer meant dropping to NewTransport).
func TestNewClientBase(t *testing.T) {
	s := newObeySite(t, "User-agent: *\nDisallow: /private/\n", nil)
	var mu sync.Mutex
	var sent []string
	base := roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		sent = append(sent, r.URL.Path)
		mu.Unlock()
		return http.DefaultTransport.RoundTrip(r)
	})
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{Base: base})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := get(t.Context(), client, s.URL+"/a", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := get(t.Context(), client, s.URL+"/private/b", ""); !errors.Is(err, fetch.ErrDisallowed) {
		t.Errorf("GET /private/b: %v, want ErrDisallowed", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if diff := cmp.Diff([]string{"/robots.txt", "/a"}, sent); diff != "" {
		t.Errorf("requests through the base (-want +got):\n%s", diff)
	}
}
