package fetch

import (
	"context"
	"fmt"
	"net"
	"net/http"
)

// GuardLoopback makes the transports the package uses when given none
// (http.DefaultTransport and the default client's) dial 127.0.0.1 only, so
// that no test, example or redirect it follows can reach another address.
func GuardLoopback() {
	guard := func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, _, err := net.SplitHostPort(addr)
		if err != nil || host != "127.0.0.1" {
			return nil, fmt.Errorf("test guard: refusing to dial %q: only 127.0.0.1", addr)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, addr)
	}
	http.DefaultTransport.(*http.Transport).DialContext = guard
	defaultClient.Transport.(*http.Transport).DialContext = guard
}
