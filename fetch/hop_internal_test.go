package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"testing"
)

// hopRecorder is the dialer of every connection in TestRedirectHopGuarded:
// it records each address it is handed and connects only "public.example"
// and its address, to the test's server on 127.0.0.1; it refuses every
// other address itself, before any packet.
type hopRecorder struct {
	mu     sync.Mutex
	dialed []string
	to     string // the test server's address
}

func (r *hopRecorder) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	r.mu.Lock()
	r.dialed = append(r.dialed, addr)
	r.mu.Unlock()
	if addr != "public.example:80" && addr != "203.0.113.7:80" {
		return nil, fmt.Errorf("hop recorder: refusing %s (test)", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, r.to)
}

func (r *hopRecorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.dialed)
}

// TestRedirectHopGuarded checks that a Transport given no base (NewClient's
// default) refuses a redirect from a public page to a guarded IP literal,
// before its robots.txt or the page is asked for (issue 32, item 5); that
// a crawl started on a guarded literal may go on to another (an intranet),
// never to a metadata service; and that Options.AllowPrivate opts out.
func TestRedirectHopGuarded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to := r.URL.Query().Get("to"); to != "" {
			http.Redirect(w, r, to, http.StatusFound)
			return
		}
		io.WriteString(w, "User-agent: *\nAllow: /\n")
	}))
	defer srv.Close()
	lookup := func(_ context.Context, _, host string) ([]netip.Addr, error) {
		if host == "public.example" {
			return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	// newTransport is NewTransport with every dial through rec: the base
	// (http.DefaultTransport's place) and the Guard of the robots.txt
	// fetches.
	newTransport := func(t *testing.T, rec *hopRecorder, opts TransportOptions) *Transport {
		tr, err := NewTransport(nil, "HopBot/1.0", opts)
		if err != nil {
			t.Fatal(err)
		}
		tr.base = &http.Transport{DialContext: rec.Dial, DisableKeepAlives: true}
		g := &Guard{Dial: rec.Dial, LookupNetIP: lookup}
		fetcher := http.RoundTripper(g.Transport())
		if opts.Cache.AllowPrivate {
			fetcher = tr.base
		}
		tr.cache.client = &http.Client{Transport: robotsFetcher{fetcher}}
		return tr
	}
	tests := []struct {
		name    string
		start   string
		to      string
		private bool   // Options.AllowPrivate
		guarded bool   // refused with ErrGuarded
		dialed  string // the hop's address handed to the dialer, if any
	}{
		{name: "public/loopback", start: "http://public.example/", to: "http://127.0.0.1:6379/x", guarded: true},
		{name: "public/private", start: "http://public.example/", to: "http://10.1.2.3/x", guarded: true},
		{name: "public/ipv6-loopback", start: "http://public.example/", to: "http://[::1]:8080/x", guarded: true},
		{name: "public/ipv4-mapped-loopback", start: "http://public.example/", to: "http://[::ffff:127.0.0.1]/x", guarded: true},
		{name: "public/robots.txt", start: "http://public.example/", to: "http://10.1.2.3/robots.txt", guarded: true},
		{name: "public/metadata", start: "http://public.example/", to: "http://169.254.169.254/latest/meta-data/", guarded: true},
		{name: "public/public", start: "http://public.example/", to: "http://public.example/y"},
		{name: "opt-in/loopback", start: "http://public.example/", to: "http://127.0.0.1:6379/x", private: true, dialed: "127.0.0.1:6379"},
	}
	for _, tt := range tests {
		for _, checked := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/check=%t", tt.name, checked), func(t *testing.T) {
				rec := &hopRecorder{to: srv.Listener.Addr().String()}
				tr := newTransport(t, rec, TransportOptions{Cache: Options{AllowPrivate: tt.private}})
				client := &http.Client{Transport: tr}
				if checked { // a transport over it that asks Check first, as usage.Transport does: the hop refused before its robots.txt too
					client.Transport = checkFirst{tr}
				}
				resp, err := client.Get(tt.start + "go?to=" + tt.to)
				if err == nil {
					resp.Body.Close()
				}
				if got := errors.Is(err, ErrGuarded); got != tt.guarded {
					t.Fatalf("GET %s -> %s: err = %v; ErrGuarded %t, want %t", tt.start, tt.to, err, got, tt.guarded)
				}
				for _, a := range rec.got() {
					if a != "public.example:80" && a != "203.0.113.7:80" && a != tt.dialed {
						t.Errorf("dialed %s, want only the public site's address and %q", a, tt.dialed)
					}
				}
				if tt.dialed != "" && !slices.Contains(rec.got(), tt.dialed) {
					t.Errorf("dialed %v, want %s among them (opted in)", rec.got(), tt.dialed)
				}
			})
		}
	}
}

// TestHopRefusal checks the intranet exception of hopRefusal on requests
// as an http.Client chains them: a crawl that starts on a guarded literal
// may be redirected to another one, never to a metadata service; a chain
// it cannot walk back counts as public.
func TestHopRefusal(t *testing.T) {
	hop := func(chain ...string) *http.Request {
		var req *http.Request
		for i, u := range chain {
			r, err := http.NewRequest(http.MethodGet, u, nil)
			if err != nil {
				t.Fatal(err)
			}
			if i > 0 {
				r.Response = &http.Response{StatusCode: http.StatusFound, Request: req}
			}
			req = r
		}
		return req
	}
	broken := hop("http://10.0.0.5/", "http://10.0.0.6/")
	broken.Response.Request = nil
	tests := []struct {
		name    string
		req     *http.Request
		refused bool
	}{
		{"first-request", hop("http://10.0.0.5/"), false},
		{"intranet/literal-to-literal", hop("http://10.0.0.5/", "http://10.0.0.6/"), false},
		{"intranet/via-public", hop("http://10.0.0.5/", "http://public.example/", "http://[::1]/"), false},
		{"intranet/to-metadata", hop("http://10.0.0.5/", "http://169.254.169.254/"), true},
		{"intranet/to-mapped-metadata", hop("http://10.0.0.5/", "http://[::ffff:169.254.169.254]/"), true},
		{"public/to-literal", hop("http://public.example/", "http://10.0.0.5/"), true},
		{"public/to-ipv4-mapped", hop("http://public.example/", "http://[::ffff:127.0.0.1]/"), true},
		{"public/to-public-literal", hop("http://public.example/", "http://203.0.113.7/"), false},
		{"broken-chain", broken, true},
	}
	for _, tt := range tests {
		err := hopRefusal(tt.req)
		if (err != nil) != tt.refused || err != nil && !errors.Is(err, ErrGuarded) {
			t.Errorf("%s: hopRefusal(%s) = %v, want refused %t", tt.name, tt.req.URL, err, tt.refused)
		}
		if err != nil && !strings.Contains(err.Error(), tt.req.URL.Host) {
			t.Errorf("%s: error %q does not name %s", tt.name, err, tt.req.URL.Host)
		}
	}
}

// checkFirst asks its Transport's Check before its RoundTrip, as a
// usage.Transport does.
type checkFirst struct{ t *Transport }

func (c checkFirst) RoundTrip(req *http.Request) (*http.Response, error) {
	if _, err := c.t.Check(req); err != nil {
		closeBody(req)
		return nil, err
	}
	return c.t.RoundTrip(req)
}
