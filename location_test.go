package robots_test

import (
	"strings"
	"testing"

	"github.com/gorep/robots"
)

func TestGoverns(t *testing.T) {
	tests := []struct {
		name      string
		robotsURL string
		pageURL   string
		want      bool
	}{
		{"scope/same-origin", "http://example.com/robots.txt", "http://example.com/a/b?c#d", true},
		{"scope/host-case", "http://EXAMPLE.com/robots.txt", "http://example.COM/", true},
		{"scope/scheme-case", "HTTP://example.com/robots.txt", "http://example.com/", true},
		{"scope/userinfo-ignored", "http://example.com/robots.txt", "http://user:pass@example.com/", true},
		{"scope/http-default-port", "http://example.com:80/robots.txt", "http://example.com/", true},
		{"scope/ftp-default-port", "ftp://example.com/robots.txt", "ftp://example.com:21/", true},
		{"scope/port-leading-zeros", "http://example.com:8080/robots.txt", "http://example.com:08080/", true},
		{"scope/https-port-on-http", "http://example.com/robots.txt", "http://example.com:443/", false},
		{"scope/ipv6", "http://[2001:db8::1]/robots.txt", "http://[2001:DB8:0::1]:80/x", true},
		{"scope/ipv6-other-port", "http://[2001:db8::1]/robots.txt", "http://[2001:db8::1]:8080/x", false},
		{"scope/ipv4-is-not-name", "http://127.0.0.1/robots.txt", "http://localhost/", false},
		{"robots-url/path-case", "https://example.com/Robots.txt", "https://example.com/", false},
		{"robots-url/no-path", "https://example.com", "https://example.com/", false},
		{"robots-url/root", "https://example.com/", "https://example.com/", false},
		{"robots-url/query", "https://example.com/robots.txt?x=1", "https://example.com/", false},
		{"robots-url/empty-query", "https://example.com/robots.txt?", "https://example.com/", false},
		{"robots-url/fragment-ignored", "https://example.com/robots.txt#top", "https://example.com/", true},
		{"robots-url/escaped-dot", "https://example.com/robots%2Etxt", "https://example.com/", false},
		{"invalid/robots-url", "robots.txt", "https://example.com/", false},
		{"invalid/page-url", "https://example.com/robots.txt", "/page", false},
		{"invalid/scheme", "file://example.com/robots.txt", "file://example.com/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := robots.Governs(tt.robotsURL, tt.pageURL); got != tt.want {
				t.Errorf("Governs(%q, %q) = %t, want %t", tt.robotsURL, tt.pageURL, got, tt.want)
			}
		})
	}
}

func TestURL(t *testing.T) {
	tests := []struct {
		name    string
		pageURL string
		want    string
	}{
		{"basic/https", "https://example.com/a/b.html", "https://example.com/robots.txt"},
		{"basic/http-no-path", "http://example.com", "http://example.com/robots.txt"},
		{"basic/ftp", "ftp://example.com/pub/file", "ftp://example.com/robots.txt"},
		{"basic/robots-url", "https://example.com/robots.txt", "https://example.com/robots.txt"},
		{"drop/userinfo", "https://user:secret@example.com/", "https://example.com/robots.txt"},
		{"drop/query-fragment", "https://example.com/a?b=c#d", "https://example.com/robots.txt"},
		{"drop/query-only", "https://example.com?b=c", "https://example.com/robots.txt"},
		{"case/scheme-and-host", "HTTPS://WWW.Example.COM/Path", "https://www.example.com/robots.txt"},
		{"port/http-80", "http://example.com:80/", "http://example.com/robots.txt"},
		{"port/https-443", "https://example.com:443/", "https://example.com/robots.txt"},
		{"port/ftp-21", "ftp://example.com:21/", "ftp://example.com/robots.txt"},
		{"port/http-443-kept", "http://example.com:443/", "http://example.com:443/robots.txt"},
		{"port/https-80-kept", "https://example.com:80/", "https://example.com:80/robots.txt"},
		{"port/non-standard", "https://example.com:8181/x", "https://example.com:8181/robots.txt"},
		{"port/leading-zeros", "http://example.com:0080/", "http://example.com/robots.txt"},
		{"port/empty", "http://example.com:/", "http://example.com/robots.txt"},
		{"idn/unicode", "https://www.exämple.com/", "https://www.xn--exmple-cua.com/robots.txt"},
		{"idn/upper-case-unicode", "https://WWW.EXÄMPLE.COM/", "https://www.xn--exmple-cua.com/robots.txt"},
		{"idn/percent-encoded", "https://www.ex%C3%A4mple.com/", "https://www.xn--exmple-cua.com/robots.txt"},
		{"idn/punycode-kept", "https://www.xn--exmple-cua.com/", "https://www.xn--exmple-cua.com/robots.txt"},
		{"idn/non-transitional", "https://faß.de/", "https://xn--fa-hia.de/robots.txt"},
		{"idn/full-width", "https://ｅｘａｍｐｌｅ.com/", "https://example.com/robots.txt"},
		{"idn/ideographic-full-stop", "https://example。com/", "https://example.com/robots.txt"},
		{"name/underscore", "https://my_host.example.com/", "https://my_host.example.com/robots.txt"},
		{"name/double-hyphen", "https://r3---sn-ab.example.com/", "https://r3---sn-ab.example.com/robots.txt"},
		{"name/trailing-dot", "https://example.com./", "https://example.com./robots.txt"},
		{"ip/v4", "https://212.96.82.21/x", "https://212.96.82.21/robots.txt"},
		{"ip/v4-port", "http://127.0.0.1:8080/x", "http://127.0.0.1:8080/robots.txt"},
		{"ip/v6-brackets-kept", "http://[::1]/x", "http://[::1]/robots.txt"},
		{"ip/v6-default-port", "http://[::1]:80/x", "http://[::1]/robots.txt"},
		{"ip/v6-port", "http://[::1]:8080/x", "http://[::1]:8080/robots.txt"},
		{"ip/v6-canonical", "http://[2001:DB8:0:0::1]/", "http://[2001:db8::1]/robots.txt"},
		{"ip/v6-v4-mapped", "http://[::FFFF:1.2.3.4]/", "http://[::ffff:1.2.3.4]/robots.txt"},
		{"ip/v6-zone", "http://[fe80::1%25en0]:8080/", "http://[fe80::1%25en0]:8080/robots.txt"},
		// Found by FuzzURL: a zone decoded to a space must be encoded again.
		{"ip/v6-zone-escaped", "http://[::%25%20]", "http://[::%25%20]/robots.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := robots.URL(tt.pageURL)
			if err != nil || got != tt.want {
				t.Errorf("URL(%q) = %q, %v; want %q, nil", tt.pageURL, got, err, tt.want)
			}
		})
	}
}

func TestURLErrors(t *testing.T) {
	tests := []struct {
		name    string
		pageURL string
		wantErr string // a substring of the error message
	}{
		{"relative/path", "/a/b", `robots: URL "/a/b" is relative: it has no scheme`},
		{"relative/host-and-path", "example.com/a", `robots: URL "example.com/a" is relative`},
		{"relative/scheme-relative", "//example.com/a", `robots: URL "//example.com/a" is relative`},
		{"relative/empty", "", `robots: URL "" is relative`},
		{"scheme/mailto", "mailto:bot@example.com", `robots: URL "mailto:bot@example.com" has scheme "mailto", want http, https or ftp`},
		{"scheme/file", "file:///etc/passwd", `has scheme "file"`},
		{"scheme/ws", "ws://example.com/", `has scheme "ws"`},
		{"host/opaque", "http:example.com/a", `robots: URL "http:example.com/a" has no host`},
		{"host/empty", "http:///a", `has no host`},
		{"host/userinfo-only", "http://user@/a", `has no host`},
		{"host/forbidden-char", "http://a<b.com/", `robots: URL "http://a<b.com/" has invalid host "a<b.com"`},
		{"host/sub-delim", "http://a!b.com/", `has invalid host "a!b.com"`},
		{"host/empty-label", "http://a..com/", `has invalid host "a..com"`},
		{"host/leading-dot", "http://.example.com/", `has invalid host ".example.com"`},
		{"host/only-dot", "http://./", `has invalid host "."`},
		{"host/bad-punycode", "http://xn--a.com/", `has invalid host "xn--a.com": idna:`},
		{"host/ipv6-zone-not-ascii", "http://[::%25\x9d]", `the IPv6 zone is not ASCII`},
		// Found by FuzzURL: the encoder accepts an IDN label whose punycode
		// is over 63 bytes, which the decoder then refuses.
		{"host/punycode-does-not-read-back", "https://www.ex\u00e4mp" + strings.Repeat("P", 2000) + "le.com/", `its punycode does not read back`},
		{"host/bidi-rule", "http://\u0661.com/", `has invalid host`},
		{"host/invalid-utf8", "https://%96/", `robots: URL "https://%96/" has invalid host "\x96": not UTF-8`},
		{"host/zero-width-joiner", "http://a\u200db.com/", `has invalid host`},
		{"parse/space-in-host", "http://exa mple.com/", `robots: invalid URL "http://exa mple.com/": invalid character " " in host name`},
		{"parse/escaped-ascii-host", "http://a%41b.com/", `robots: invalid URL "http://a%41b.com/"`},
		{"parse/ipv4-literal", "http://[1.2.3.4]/", `robots: invalid URL "http://[1.2.3.4]/"`},
		{"parse/unclosed-ipv6", "http://[::1/", `robots: invalid URL`},
		{"parse/port-letters", "http://example.com:8x/", `robots: invalid URL`},
		{"port/too-large", "http://example.com:65536/", `robots: URL "http://example.com:65536/" has invalid port "65536"`},
		{"port/zero", "http://example.com:0/", `has invalid port "0"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := robots.URL(tt.pageURL)
			if err == nil {
				t.Fatalf("URL(%q) = %q, nil; want error containing %q", tt.pageURL, got, tt.wantErr)
			}
			if got != "" || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("URL(%q) = %q, %q; want \"\", error containing %q", tt.pageURL, got, err, tt.wantErr)
			}
		})
	}
}
