// Package loopback keeps tests on this machine: Guard makes
// http.DefaultTransport dial 127.0.0.1 only, so that no test, example or
// redirect it follows can reach another address, even by accident.
package loopback

import (
	"context"
	"fmt"
	"net"
	"net/http"
)

// Dial dials addr if its host is 127.0.0.1 and refuses any other address,
// names included (they are never resolved).
func Dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host != "127.0.0.1" {
		return nil, fmt.Errorf("loopback guard: refusing to dial %q: only 127.0.0.1", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// Guard makes http.DefaultTransport dial through Dial, and net.DefaultResolver
// resolve names from /etc/hosts only: a code path that resolves a name
// before dialing (fetch.Guard does, to check the address) sends no DNS query.
// Call it from TestMain, before anything is fetched: clients made from
// http.DefaultTransport later (the fetch package's default client among
// them) inherit it.
func Guard() {
	http.DefaultTransport.(*http.Transport).DialContext = Dial
	*net.DefaultResolver = net.Resolver{PreferGo: true, Dial: refuseDNS}
}

// refuseDNS is the dial function of net.DefaultResolver under Guard: it
// refuses to reach any DNS server.
func refuseDNS(ctx context.Context, network, addr string) (net.Conn, error) {
	return nil, fmt.Errorf("loopback guard: refusing to reach the DNS server %q", addr)
}
