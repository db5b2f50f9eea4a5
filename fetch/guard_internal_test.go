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

// TestGuardedReserved checks the addresses that are not the public
// Internet's although Go's netip has no name for them: Oracle Cloud's
// legacy metadata service (192.0.0.192, in the IETF protocol assignments
// 192.0.0.0/24), the benchmarking block some networks use inside
// (198.18.0.0/15), the reserved 240.0.0.0/4, NAT64's local-use prefix
// (64:ff9b:1::/48, RFC 8215), IPv4-compatible IPv6 (::/96, deprecated),
// 6to4 of a guarded IPv4 (2002::/16) and Teredo (2001::/32).
func TestGuardedReserved(t *testing.T) {
	tests := []struct {
		addr string
		want string
	}{
		{"192.0.0.192", "a reserved address"},
		{"192.0.0.170", "a reserved address"},
		{"198.18.0.1", "a reserved address"},
		{"198.19.255.254", "a reserved address"},
		{"240.0.0.1", "a reserved address"},
		{"::ffff:192.0.0.192", "a reserved address"},
		{"64:ff9b::c000:c0", "a reserved address"}, // NAT64 of 192.0.0.192
		{"64:ff9b:1::a00:5", "a reserved address"},
		{"::a9fe:a9fe", "a reserved address"}, // ::169.254.169.254
		{"::7f00:1", "a reserved address"},
		{"168.63.129.16", "a cloud's metadata service"}, // Azure's WireServer
		{"::ffff:168.63.129.16", "a cloud's metadata service"},
		{"2002:a9fe:a9fe::1", "a link-local address"}, // 6to4 of 169.254.169.254
		{"2002:7f00:1::", "a loopback address"},
		{"2001:0:4136:e378:8000:63bf:3fff:fdd2", "a reserved address"}, // Teredo
		// Public addresses next to them.
		{"192.0.1.1", ""},
		{"198.17.255.255", ""},
		{"198.20.0.1", ""},
		{"239.255.255.255", "a multicast or broadcast address"},
		{"64:ff9b:2::1", ""},
		{"2002:808:808::1", ""}, // 6to4 of 8.8.8.8
		{"2001:4860:4860::8888", ""},
	}
	for _, tt := range tests {
		if got := guardedKind(netip.MustParseAddr(tt.addr)); got != tt.want {
			t.Errorf("guardedKind(%s) = %q, want %q", tt.addr, got, tt.want)
		}
	}
}

// TestMetadata checks the addresses that are never an intranet's
// exception: link-local ones and the metadata services, in every form.
func TestMetadata(t *testing.T) {
	for addr, want := range map[string]bool{
		"169.254.169.254":        true,
		"::ffff:169.254.169.254": true,
		"64:ff9b::a9fe:a9fe":     true,
		"2002:a9fe:a9fe::1":      true,
		"fe80::1%eth0":           true,
		"fd00:ec2::254":          true,
		"100.100.100.200":        true,
		"::ffff:100.100.100.200": true,
		"64:ff9b::6464:64c8":     true, // NAT64 of 100.100.100.200
		"192.0.0.192":            true,
		"10.0.0.5":               false,
		"127.0.0.1":              false,
		"fd00::1":                false,
		"100.100.100.201":        false,
		"::ffff:10.0.0.5":        false,
		"2001:4860:4860::8888":   false,
	} {
		if got := metadata(netip.MustParseAddr(addr)); got != want {
			t.Errorf("metadata(%s) = %t, want %t", addr, got, want)
		}
	}
}
