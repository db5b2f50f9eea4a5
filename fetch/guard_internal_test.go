package fetch

import (
	"net/netip"
	"testing"
)

// TestGuarded checks which addresses a Guard refuses (issue 26 item 15).
func TestGuarded(t *testing.T) {
	tests := []struct {
		addr string
		want string
	}{
		{"127.0.0.1", "a loopback address"},
		{"127.255.255.254", "a loopback address"},
		{"::1", "a loopback address"},
		{"0.0.0.0", "an unspecified address"},
		{"0.1.2.3", "an unspecified address"},
		{"::", "an unspecified address"},
		{"10.0.0.5", "a private address"},
		{"172.16.0.1", "a private address"},
		{"172.31.255.255", "a private address"},
		{"192.168.1.1", "a private address"},
		{"fd00::1", "a private address"},
		{"fc00::1", "a private address"},
		{"100.64.0.1", "a shared (carrier-grade NAT) address"},
		{"100.100.100.200", "a shared (carrier-grade NAT) address"},
		{"169.254.169.254", "a link-local address"},
		{"fe80::1", "a link-local address"},
		{"fe80::1%eth0", "a link-local address"},
		{"fec0::1", "a site-local address"},
		{"224.0.0.1", "a link-local address"},
		{"239.1.1.1", "a multicast or broadcast address"},
		{"ff02::1", "a link-local address"},
		{"ff0e::1", "a multicast or broadcast address"},
		{"255.255.255.255", "a multicast or broadcast address"},
		{"::ffff:10.0.0.5", "a private address"},
		{"::ffff:127.0.0.1", "a loopback address"},
		{"::ffff:169.254.169.254", "a link-local address"},
		{"64:ff9b::a9fe:a9fe", "a link-local address"}, // NAT64 of 169.254.169.254
		{"64:ff9b::7f00:1", "a loopback address"},
		// Public addresses.
		{"203.0.113.7", ""},
		{"8.8.8.8", ""},
		{"172.32.0.1", ""},
		{"100.128.0.1", ""},
		{"2001:db8::1", ""},
		{"::ffff:8.8.8.8", ""},
		{"64:ff9b::808:808", ""},
	}
	for _, tt := range tests {
		if got := guardedKind(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("guardedKind(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestLiteralHost checks which robots.txt URLs name an address.
func TestLiteralHost(t *testing.T) {
	tests := []struct {
		url  string
		want string
	}{
		{"http://10.0.0.5/robots.txt", "10.0.0.5"},
		{"http://10.0.0.5:8080/robots.txt", "10.0.0.5"},
		{"https://[::1]/robots.txt", "::1"},
		{"https://[fd00::1]:8443/robots.txt", "fd00::1"},
		{"http://example.com/robots.txt", ""},
		{"http://10.0.0.5.example.com/robots.txt", ""},
	}
	for _, tt := range tests {
		ip, ok := literalHost(tt.url)
		got := ""
		if ok {
			got = ip.String()
		}
		if got != tt.want {
			t.Errorf("literalHost(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}
