package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"sync"
	"time"
)

// The guard against server-side request forgery: a robots.txt URL comes from
// a page URL, which anyone can write in a link, and a robots.txt file may
// redirect anywhere. Without a guard, a crawler's robots.txt fetches reach
// the crawler's own network: a cloud's metadata service (169.254.169.254),
// an admin page on 127.0.0.1, a database on 10.0.0.5.

// ErrGuarded is the error, wrapped, with which a Guard refuses to connect to
// an address of the crawler's own network.
var ErrGuarded = errors.New("robots: refusing to connect to an address of the crawler's own network")

// A Guard connects the robots.txt fetches of this package, and refuses,
// before any packet is sent, to connect to a guarded address:
//
//   - loopback (127.0.0.0/8, ::1), unspecified (0.0.0.0/8, ::);
//   - private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7), and
//     the shared address space of carrier-grade NAT (100.64.0.0/10, where
//     some clouds put their metadata service);
//   - link-local (169.254.0.0/16, with 169.254.169.254, fe80::/10),
//     site-local (fec0::/10) and multicast;
//   - reserved, not the public Internet's though Go's netip has no name
//     for them: the IETF protocol assignments (192.0.0.0/24, with Oracle
//     Cloud's legacy metadata service at 192.0.0.192), benchmarking
//     (198.18.0.0/15), the reserved 240.0.0.0/4, NAT64's local-use prefix
//     (64:ff9b:1::/48), IPv4-compatible IPv6 (::/96) and Teredo
//     (2001::/32);
//   - Azure's WireServer (168.63.129.16), a metadata service at a public
//     address;
//   - any of those written as an IPv6 address: IPv4-mapped
//     (::ffff:10.0.0.5), in the NAT64 prefix (64:ff9b::/96), or the 6to4
//     prefix of one (2002:a00:5::/48).
//
// It checks the address it connects to, after resolving the name, and
// connects to that very address: a name that resolves to a public address
// when it is checked and to a private one when it is used (DNS rebinding)
// cannot get through, nor can a redirect to such a name or address.
//
// One exception, for a crawler of its own intranet: a fetch whose robots.txt
// URL names a guarded address as an IP literal (http://10.0.0.5/robots.txt,
// http://[::1]:8080/robots.txt) may connect to guarded IP literals, its own
// and those its redirects name, unless the Guard is Strict. A name is never
// an exception: an intranet crawler whose hosts have names gives the Cache
// Options.AllowPrivate, or its own client. Nor is a link-local address, or
// a cloud's metadata service (169.254.169.254, fd00:ec2::254,
// 100.100.100.200, 192.0.0.192, 168.63.129.16), in any form: a link to
// http://169.254.169.254/ is the commonest forgery, and no intranet crawls
// there.
//
// A redirect cannot open the exception: a Transport given no base
// transport (NewClient's default) refuses, with an error wrapping
// ErrGuarded, a redirect hop to a guarded IP literal (10.1.2.3, 127.0.0.1,
// [::1], [::ffff:127.0.0.1]), for the page and so for its robots.txt,
// unless the first URL of the chain named a guarded IP literal itself (an
// intranet crawl; never towards a link-local address or a metadata
// service). Options.AllowPrivate opts out, as does a base transport of the
// caller's own. The pages themselves go through http.DefaultTransport: a
// crawler of the public web that wants no connection to its own network at
// all, names included, gives NewClient a Strict Guard's Transport (see
// Guard.Transport).
//
// Get and NewCache use a Guard when they are given no client, and a
// Transport for its robots.txt fetches when it is given no base transport.
// A client given to them is used as it is: put a Guard's DialContext in its
// transport to guard it (and, unless the Guard is Strict, disable
// keep-alives, as Guard.Transport does: a connection kept from an intranet
// fetch would otherwise serve a later fetch without being checked again).
type Guard struct {
	// Strict, if true, refuses every guarded address, the exception for
	// an intranet crawler included: for a service that fetches the URLs
	// its users give, such as a robots.txt tester on a web page.
	Strict bool
	// Dial connects to an address that the Guard has checked: always an
	// IP address and a port, never a name. Nil: http.DefaultTransport's
	// DialContext as the program has set it when the Guard first dials
	// (a net.Dialer with 30-second timeout and keep-alive by default).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
	// LookupNetIP resolves a name to its addresses, as
	// net.Resolver.LookupNetIP does. Nil: net.DefaultResolver's.
	LookupNetIP func(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// DialContext connects to addr ("host:port") over network, as
// net.Dialer.DialContext does, and refuses with an error wrapping ErrGuarded
// when every address of host is guarded (see Guard). A name's guarded
// addresses are skipped; its other addresses are tried in turn.
func (g *Guard) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("robots: dial %s: %w", addr, err)
	}
	dial := g.dialer()
	if ip, err := netip.ParseAddr(host); err == nil {
		if guarded(ip) && (g.Strict || ctx.Value(intranetKey{}) == nil || metadata(ip)) {
			return nil, refusal(addr, ip)
		}
		return dial(ctx, network, addr)
	}
	lookup := g.LookupNetIP
	if lookup == nil {
		lookup = net.DefaultResolver.LookupNetIP
	}
	ips, err := lookup(ctx, lookupNetwork(network), host)
	if err != nil {
		return nil, err
	}
	var last error
	for _, ip := range ips {
		if guarded(ip) {
			if last == nil {
				last = refusal(addr, ip)
			}
			continue
		}
		conn, err := dial(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return conn, nil
		}
		last = err
		if ctx.Err() != nil {
			break
		}
	}
	if last == nil {
		last = &net.DNSError{Err: "no addresses", Name: host, IsNotFound: true}
	}
	return nil, last
}

// refusal returns the error that refuses to connect to addr, whose address
// is ip.
func refusal(addr string, ip netip.Addr) error {
	return fmt.Errorf("%w: %s is %s (see fetch.Guard)", ErrGuarded, addr, guardedKind(ip))
}

// dialer returns the function that connects to checked addresses.
func (g *Guard) dialer() func(ctx context.Context, network, addr string) (net.Conn, error) {
	if g.Dial != nil {
		return g.Dial
	}
	return defaultDial()
}

// defaultDial returns http.DefaultTransport's dial function, as the program
// has set it by the first call.
var defaultDial = sync.OnceValue(func() func(ctx context.Context, network, addr string) (net.Conn, error) {
	if t, ok := http.DefaultTransport.(*http.Transport); ok && t.DialContext != nil {
		return t.DialContext
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	return d.DialContext
})

// lookupNetwork returns the network to resolve names in for a dial over
// network: "ip4" for "tcp4", "ip6" for "tcp6", "ip" otherwise.
func lookupNetwork(network string) string {
	switch network {
	case "tcp4", "udp4":
		return "ip4"
	case "tcp6", "udp6":
		return "ip6"
	}
	return "ip"
}

// Transport returns an http.Transport whose connections go through g: a
// copy of http.DefaultTransport as the program has set it, with a 64 KiB
// bound on response headers, no proxy (through a proxy, the Guard would see
// only the proxy's address), and no keep-alive unless g is Strict (see
// Guard). A crawler of the public web that wants no connection to its own
// network at all, for its pages too, gives NewClient
// TransportOptions{Base: (&fetch.Guard{Strict: true}).Transport()}.
func (g *Guard) Transport() *http.Transport {
	t := &http.Transport{}
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		t = dt.Clone()
	}
	t.Proxy = nil
	t.OnProxyConnectResponse = nil
	// TLS connections too are dialed with DialContext (which has
	// priority over Dial).
	t.DialTLSContext = nil
	//lint:ignore SA1019 cleared so that TLS connections go through DialContext
	t.DialTLS = nil
	t.DialContext = g.DialContext
	// A Strict Guard checks every connection by one rule, so a kept one
	// may serve any later request.
	t.DisableKeepAlives = !g.Strict
	t.MaxResponseHeaderBytes = maxHeaderBytes
	return t
}

// Client returns a client with g's Transport and a 30-second timeout, as
// Get uses when it is given no client.
func (g *Guard) Client() *http.Client {
	return &http.Client{Timeout: 30 * time.Second, Transport: g.Transport()}
}

// intranetKey marks the context of a fetch whose robots.txt URL names a
// guarded address as an IP literal (see Guard).
type intranetKey struct{}

// withIntranet returns ctx marked if the host of robotsURL, a URL that
// robots.URL returned, is a guarded IP literal.
func withIntranet(ctx context.Context, robotsURL string) context.Context {
	if ip, ok := literalHost(robotsURL); ok && guarded(ip) {
		return context.WithValue(ctx, intranetKey{}, true)
	}
	return ctx
}

// hopRefusal returns the error that refuses req if it is a hop of a
// redirect (req.Response is set) to a guarded IP literal, from a chain whose
// first URL did not name one, or to a link-local address or a metadata
// service from any chain (see Guard); nil otherwise. A chain it cannot walk
// back to its first request counts as one that did not start on a literal.
func hopRefusal(req *http.Request) error {
	if req.Response == nil || req.Context().Value(robotsFetchKey{}) != nil {
		return nil
	}
	ip, err := netip.ParseAddr(req.URL.Hostname())
	if err != nil || !guarded(ip) {
		return nil
	}
	first := req
	for first.Response != nil && first.Response.Request != nil {
		first = first.Response.Request
	}
	if first.Response == nil && !metadata(ip) {
		if start, err := netip.ParseAddr(first.URL.Hostname()); err == nil && guarded(start) {
			return nil // an intranet crawl
		}
	}
	return fmt.Errorf("%w: a redirect to %s, %s (see fetch.Guard)", ErrGuarded, req.URL.Host, guardedKind(ip))
}

// literalHost returns the address that the host of rawURL is written as, if
// it is an IP literal.
func literalHost(rawURL string) (netip.Addr, bool) {
	u, err := url.Parse(rawURL)
	if err != nil {
		return netip.Addr{}, false
	}
	ip, err := netip.ParseAddr(u.Hostname())
	return ip, err == nil
}

// metadataServices are the addresses of clouds' metadata services outside
// the link-local ranges: AWS's over IPv6, Alibaba Cloud's, Oracle Cloud's
// legacy one, and Azure's WireServer (a public address that only Azure's
// machines reach, and that hands them their configuration).
var metadataServices = []netip.Addr{
	netip.MustParseAddr("fd00:ec2::254"),
	netip.MustParseAddr("100.100.100.200"),
	netip.MustParseAddr("192.0.0.192"),
	netip.MustParseAddr("168.63.129.16"),
}

// metadata reports whether ip, in any form, is link-local or a metadata
// service's: never an intranet's exception (see Guard).
func metadata(ip netip.Addr) bool {
	if guardedKind(ip) == "a link-local address" {
		return true
	}
	ip = ip.WithZone("")
	b := ip.As16()
	switch {
	case ip.Is4In6():
		ip = ip.Unmap()
	case ip.Is6() && nat64.Contains(ip):
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	case ip.Is6() && sixToFour.Contains(ip):
		ip = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
	}
	for _, m := range metadataServices {
		if ip == m {
			return true
		}
	}
	return false
}

// azureWireServer is the one metadata service at a public address.
var azureWireServer = netip.MustParseAddr("168.63.129.16")

// cgnat is the shared address space of carrier-grade NAT (RFC 6598).
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// nat64 is the well-known prefix of NAT64 (RFC 6052), which embeds an IPv4
// address in its last 32 bits.
var nat64 = netip.MustParsePrefix("64:ff9b::/96")

// siteLocal is the deprecated site-local IPv6 prefix (RFC 3879).
var siteLocal = netip.MustParsePrefix("fec0::/10")

// sixToFour is the 6to4 prefix (RFC 3056), whose next 32 bits are an IPv4
// address.
var sixToFour = netip.MustParsePrefix("2002::/16")

// reserved are the prefixes of IANA's special-purpose registries that are
// not globally reachable and that netip's predicates do not cover.
var reserved = []netip.Prefix{
	netip.MustParsePrefix("192.0.0.0/24"),   // IETF protocol assignments (RFC 6890)
	netip.MustParsePrefix("198.18.0.0/15"),  // benchmarking (RFC 2544)
	netip.MustParsePrefix("240.0.0.0/4"),    // reserved (RFC 1112)
	netip.MustParsePrefix("64:ff9b:1::/48"), // NAT64, local use (RFC 8215)
	netip.MustParsePrefix("::/96"),          // IPv4-compatible (RFC 4291, deprecated)
	netip.MustParsePrefix("2001::/32"),      // Teredo (RFC 4380)
}

// guarded reports whether ip is an address of the crawler's own network
// (see Guard).
func guarded(ip netip.Addr) bool {
	return guardedKind(ip) != ""
}

// guardedKind names the kind of guarded address ip is, or returns "" if it
// is not guarded.
func guardedKind(ip netip.Addr) string {
	ip = ip.WithZone("")
	if ip.Is6() && sixToFour.Contains(ip) {
		b := ip.As16()
		if kind := guardedKind(netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})); kind != "" {
			return kind
		}
	}
	if ip.Is6() && nat64.Contains(ip) {
		b := ip.As16()
		ip = netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
	}
	ip = ip.Unmap()
	switch {
	case !ip.IsValid():
		return "not an address"
	case ip.IsLoopback():
		return "a loopback address"
	case ip.IsUnspecified() || ip.Is4() && ip.As4()[0] == 0:
		return "an unspecified address"
	case ip.IsPrivate():
		return "a private address"
	case ip.Is4() && cgnat.Contains(ip):
		return "a shared (carrier-grade NAT) address"
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		return "a link-local address"
	case ip.Is6() && siteLocal.Contains(ip):
		return "a site-local address"
	case ip.IsMulticast() || ip.Is4() && ip == netip.AddrFrom4([4]byte{255, 255, 255, 255}):
		return "a multicast or broadcast address"
	}
	for _, p := range reserved {
		if p.Contains(ip) {
			return "a reserved address"
		}
	}
	if ip == azureWireServer {
		return "a cloud's metadata service"
	}
	return ""
}
