package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/fetch"
)

// A recorder is the dial function of a Guard under test: it records every
// address the Guard hands it, and connects only the public addresses it
// maps to a test server on 127.0.0.1; it refuses every other address itself,
// before any packet. No test of the Guard can reach a private address.
type recorder struct {
	mu     sync.Mutex
	dialed []string
	routes map[string]string // public "ip:port" -> the test server's address
}

func (r *recorder) Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	r.mu.Lock()
	r.dialed = append(r.dialed, addr)
	to, ok := r.routes[addr]
	r.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("recorder: refusing %s (test)", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, to)
}

func (r *recorder) got() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.dialed...)
}

// A resolver answers the Guard's lookups from a table; each name may have
// several answers in turn, the last repeated (a name that rebinds).
type resolver struct {
	mu      sync.Mutex
	answers map[string][][]string
	asked   map[string]int
}

func (r *resolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	answers, ok := r.answers[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	if r.asked == nil {
		r.asked = map[string]int{}
	}
	n := min(r.asked[host], len(answers)-1)
	r.asked[host]++
	var ips []netip.Addr
	for _, a := range answers[n] {
		ips = append(ips, netip.MustParseAddr(a))
	}
	return ips, nil
}

// publicIP is the public address (TEST-NET-3) that stands for a public host
// in these tests; the recorder routes it to a test server.
const publicIP = "203.0.113.7"

// TestGuard checks that a robots.txt fetch, and every redirect it follows,
// never connects to an address of the crawler's own network, whatever a
// name resolves to, except for a robots.txt URL that names such an address
// itself; with Strict, never (issue 26 item 15).
func TestGuard(t *testing.T) {
	redirectTo := ""
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" && redirectTo != "" {
			http.Redirect(w, r, redirectTo, http.StatusFound)
			return
		}
		io.WriteString(w, "User-agent: *\nDisallow: /private/\n")
	})
	names := map[string][][]string{
		"public.example":   {{publicIP}},
		"metadata.example": {{"169.254.169.254"}},
		"private.example":  {{"10.0.0.5"}},
		"mapped.example":   {{"::ffff:10.0.0.5"}},
		"nat64.example":    {{"64:ff9b::a00:5"}},
		"loopback.example": {{"127.0.0.1", "::1"}},
		"zero.example":     {{"0.0.0.0"}},
		"mixed.example":    {{"10.0.0.5", publicIP}},
		"rebind.example":   {{publicIP}, {"10.0.0.5"}},
	}
	tests := []struct {
		name       string
		strict     bool
		url        string
		redirectTo string
		dialed     []string // what the recorder was handed
		guarded    bool     // the fetch failed with ErrGuarded
		// route are more addresses the recorder maps to the test server
		// on 127.0.0.1 (no packet goes to them).
		route []string
	}{
		{name: "public", url: "http://public.example/", dialed: []string{publicIP + ":80"}},
		{name: "name/metadata", url: "http://metadata.example/", guarded: true},
		{name: "name/private", url: "http://private.example/", guarded: true},
		{name: "name/ipv4-mapped", url: "http://mapped.example/", guarded: true},
		{name: "name/nat64", url: "http://nat64.example/", guarded: true},
		{name: "name/loopback", url: "http://loopback.example/", guarded: true},
		{name: "name/unspecified", url: "http://zero.example/", guarded: true},
		{name: "name/mixed-skips-private", url: "http://mixed.example/", dialed: []string{publicIP + ":80"}},
		{name: "redirect/metadata", url: "http://public.example/", redirectTo: "http://169.254.169.254/latest/meta-data/", dialed: []string{publicIP + ":80"}, guarded: true},
		{name: "redirect/loopback-literal", url: "http://public.example/", redirectTo: "http://127.0.0.1:6379/robots.txt", dialed: []string{publicIP + ":80"}, guarded: true},
		{name: "redirect/ipv4-mapped-literal", url: "http://public.example/", redirectTo: "http://[::ffff:192.168.1.1]/robots.txt", dialed: []string{publicIP + ":80"}, guarded: true},
		{name: "redirect/ipv6-link-local", url: "http://public.example/", redirectTo: "http://[fe80::1]/robots.txt", dialed: []string{publicIP + ":80"}, guarded: true},
		{name: "redirect/private-name", url: "http://public.example/", redirectTo: "http://private.example/robots.txt", dialed: []string{publicIP + ":80"}, guarded: true},
		// The name is checked at the dial, on the address it is dialed at:
		// public when first asked, private on the redirect.
		{name: "redirect/rebinding", url: "http://rebind.example/", redirectTo: "http://rebind.example/robots2.txt", dialed: []string{publicIP + ":80"}, guarded: true},
		// An intranet crawler: the robots.txt URL names the address.
		{name: "intranet/literal", url: "http://10.0.0.5/", dialed: []string{"10.0.0.5:80"}},
		// Never a metadata service or link-local address: a link that
		// anyone writes names it as a literal (issue 26 review).
		{name: "intranet/metadata-literal", url: "http://169.254.169.254/", guarded: true},
		{name: "intranet/metadata-mapped-literal", url: "http://[::ffff:169.254.169.254]/", guarded: true},
		{name: "intranet/aws-ipv6-metadata-literal", url: "http://[fd00:ec2::254]/", guarded: true},
		{name: "intranet/alibaba-metadata-literal", url: "http://100.100.100.200/", guarded: true},
		{name: "intranet/link-local-literal", url: "http://[fe80::1%25eth0]/", guarded: true},
		{name: "intranet/redirect-to-metadata", url: "http://10.0.0.5/", redirectTo: "http://169.254.169.254/latest/meta-data/", route: []string{"10.0.0.5:80"}, dialed: []string{"10.0.0.5:80"}, guarded: true},
		{name: "intranet/ipv6-literal", url: "http://[fd00::1]:8080/", dialed: []string{"[fd00::1]:8080"}},
		{name: "intranet/name-is-not", url: "http://private.example/", guarded: true},
		{name: "strict/literal", strict: true, url: "http://10.0.0.5/", guarded: true},
		{name: "strict/metadata", strict: true, url: "http://169.254.169.254/", guarded: true},
		{name: "strict/public", strict: true, url: "http://public.example/", dialed: []string{publicIP + ":80"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			redirectTo = tt.redirectTo
			rec := &recorder{routes: map[string]string{publicIP + ":80": srv.Listener.Addr().String()}}
			for _, a := range tt.route {
				rec.routes[a] = srv.Listener.Addr().String()
			}
			g := &fetch.Guard{Strict: tt.strict, Dial: rec.Dial, LookupNetIP: (&resolver{answers: names}).LookupNetIP}
			res, err := fetch.Get(t.Context(), g.Client(), testUserAgent, tt.url)
			if res == nil {
				t.Fatalf("Get(%q): %v", tt.url, err)
			}
			if diff := cmp.Diff(tt.dialed, rec.got()); diff != "" {
				t.Errorf("Get(%q): addresses dialed (-want +got):\n%s", tt.url, diff)
			}
			if got := errors.Is(err, fetch.ErrGuarded); got != tt.guarded {
				t.Errorf("Get(%q): error %v; ErrGuarded %t, want %t", tt.url, err, got, tt.guarded)
			}
			if tt.guarded && (res.Outcome != fetch.Unreachable || res.StatusCode != 0) {
				t.Errorf("Get(%q): %v %d, want a network error (unreachable, status 0)", tt.url, res.Outcome, res.StatusCode)
			}
		})
	}
}

// TestGuardErrorSaysWhy checks the wording of a refusal.
func TestGuardErrorSaysWhy(t *testing.T) {
	rec := &recorder{}
	g := &fetch.Guard{Strict: true, Dial: rec.Dial}
	_, err := g.DialContext(t.Context(), "tcp", "169.254.169.254:80")
	want := "robots: refusing to connect to an address of the crawler's own network: 169.254.169.254:80 is a link-local address (see fetch.Guard)"
	if err == nil || err.Error() != want {
		t.Errorf("DialContext(169.254.169.254:80) = %v, want %s", err, want)
	}
	if len(rec.got()) != 0 {
		t.Errorf("dialed %v, want nothing", rec.got())
	}
}

// TestCacheGuard checks that a Cache given no client fetches through the
// Guard, and that Options.AllowPrivate lifts it: localhost resolves (from
// /etc/hosts) to a loopback address, and a name is never an intranet's.
func TestCacheGuard(t *testing.T) {
	srv := serve(t, (&handler{status: 200, body: privateRules}).ServeHTTP)
	page := strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/public"
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{})
	if ok, err := c.Allowed(t.Context(), testAgent, page); ok || err != nil {
		t.Fatalf("Allowed(%s) = %t, %v; want false (disallow all), nil", page, ok, err)
	}
	if st, _ := c.State(page); !errors.Is(st.Err, fetch.ErrGuarded) {
		t.Errorf("State(%s).Err = %v, want ErrGuarded", page, st.Err)
	}
}

// TestTransportGuard checks that the robots.txt fetches of a Transport
// given no base go through the Guard (issue 26 item 15).
func TestTransportGuard(t *testing.T) {
	s := newObeySite(t, "User-agent: *\nDisallow: /private/\n", nil)
	page := strings.Replace(s.URL, "127.0.0.1", "localhost", 1) + "/public"
	client, err := fetch.NewClient(testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = get(t.Context(), client, page, "")
	var de *fetch.DisallowedError
	if !errors.As(err, &de) || !errors.Is(de.State.Err, fetch.ErrGuarded) {
		t.Errorf("GET %s: %v; want a refusal whose State.Err is ErrGuarded", page, err)
	}
	if got := s.got(); len(got) != 0 {
		t.Errorf("the site got %v, want nothing", got)
	}
}

// TestGuardTransportKeepAlive checks that only a Strict Guard's transport
// keeps connections: a connection of an intranet fetch must not serve a
// later fetch unchecked.
func TestGuardTransportKeepAlive(t *testing.T) {
	if !(&fetch.Guard{}).Transport().DisableKeepAlives {
		t.Error("Guard{}.Transport() keeps connections, want none kept")
	}
	if (&fetch.Guard{Strict: true}).Transport().DisableKeepAlives {
		t.Error("Guard{Strict: true}.Transport() keeps no connection, want them kept")
	}
	if (&fetch.Guard{}).Transport().Proxy != nil {
		t.Error("Guard{}.Transport() has a proxy, want none")
	}
}
