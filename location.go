package robots

// Where a robots.txt lives and which URLs it governs (Google, "File location
// and range of validity"; RFC 9309 §2.3).

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"

	"github.com/gorep/robots/internal/values"
)

// defaultPorts are the schemes a robots.txt can be fetched with, and the
// port that is the same as none.
var defaultPorts = map[string]uint64{"http": 80, "https": 443, "ftp": 21}

// URL returns the URL of the robots.txt that governs pageURL: its scheme and
// host, lower-cased, with an internationalized host name in its punycode
// (ASCII) form and a port only when it is not the scheme's default, followed
// by /robots.txt. Userinfo, path, query and fragment of pageURL are dropped.
//
//	URL("https://User@WWW.Exämple.com:443/a?b#c") = "https://www.xn--exmple-cua.com/robots.txt"
//	URL("http://[2001:DB8::1]:8080/")             = "http://[2001:db8::1]:8080/robots.txt"
//
// The scheme must be http, https or ftp. URL returns an error for a relative
// URL, another scheme, a missing or invalid host and an invalid port.
func URL(pageURL string) (string, error) {
	origin, _, err := splitOrigin(pageURL)
	if err != nil {
		return "", err
	}
	return origin + robotsTxtPath, nil
}

// Governs reports whether the robots.txt at robotsURL holds the rules for
// pageURL: robotsURL must be a robots.txt URL (path exactly /robots.txt, no
// query) and both must have the same scheme, host and port after the
// normalization that URL does. So https://example.com/robots.txt governs
// https://example.com:443/a but neither http://example.com/a nor
// https://www.example.com/a. Governs reports false if either URL is invalid.
func Governs(robotsURL, pageURL string) bool {
	origin, u, err := splitOrigin(robotsURL)
	if err != nil || u.EscapedPath() != robotsTxtPath || u.RawQuery != "" || u.ForceQuery {
		return false
	}
	pageOrigin, _, err := splitOrigin(pageURL)
	return err == nil && pageOrigin == origin
}

// splitOrigin returns the normalized scheme://host[:port] of rawURL and the
// parsed URL, or why rawURL has no origin a robots.txt can be fetched from.
func splitOrigin(rawURL string) (origin string, u *url.URL, err error) {
	u, err = url.Parse(rawURL)
	if err != nil {
		if uerr, ok := err.(*url.Error); ok {
			err = uerr.Err // url.Error repeats rawURL, which we quote ourselves
		}
		return "", nil, fmt.Errorf("robots: invalid URL %q: %w", rawURL, err)
	}
	if u.Scheme == "" {
		return "", nil, fmt.Errorf("robots: URL %q is relative: it has no scheme", rawURL)
	}
	defaultPort, ok := defaultPorts[u.Scheme] // url.Parse lower-cases the scheme
	if !ok {
		return "", nil, fmt.Errorf("robots: URL %q has scheme %q, want http, https or ftp", rawURL, u.Scheme)
	}
	if u.Host == "" {
		return "", nil, fmt.Errorf("robots: URL %q has no host", rawURL)
	}
	host, err := normalizeHost(u.Hostname())
	if err != nil {
		return "", nil, fmt.Errorf("robots: URL %q has invalid host %q: %w", rawURL, u.Hostname(), err)
	}
	origin = u.Scheme + "://" + host
	if p := u.Port(); p != "" {
		port, err := strconv.ParseUint(p, 10, 16)
		if err != nil || port == 0 {
			return "", nil, fmt.Errorf("robots: URL %q has invalid port %q", rawURL, p)
		}
		if port != defaultPort {
			origin += ":" + strconv.FormatUint(port, 10) // "0080" is port 80
		}
	}
	return origin, u, nil
}

// hostProfile maps a host name to ASCII as browsers do (UTS #46 as the
// WHATWG URL standard uses it), accepting the underscores and hyphens that
// real names use ("r3---sn-ab5l6n7s.googlevideo.com", "my_host.example.com").
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

// normalizeHost returns host (from url.URL.Hostname) as a robots.txt URL
// names it: IPv4 dotted decimal, canonical IPv6 in brackets, or lower-case
// punycode.
func normalizeHost(host string) (string, error) {
	addr, err := netip.ParseAddr(host)
	if strings.Contains(host, ":") { // only an IPv6 literal has a colon here
		if err != nil || !addr.Is6() {
			return "", errors.New("not an IPv6 address")
		}
		zone := addr.Zone()
		if strings.ContainsFunc(zone, func(r rune) bool { return r >= utf8.RuneSelf }) {
			// url.Parse refuses it escaped: it could not be written back (FuzzURL).
			return "", errors.New("the IPv6 zone is not ASCII")
		}
		s := addr.WithZone("").String()
		if zone != "" {
			// RFC 6874: what is not unreserved %-encoded, so that the URL
			// reads back ("%25%20" is parsed as a space; FuzzURL).
			s += "%25" + strings.ReplaceAll(url.QueryEscape(zone), "+", "%20")
		}
		return "[" + s + "]", nil
	}
	if err == nil {
		return addr.String(), nil
	}
	if !utf8.ValidString(host) { // the mapping would turn bad bytes into U+FFFD
		return "", errors.New("not UTF-8")
	}
	ascii, err := hostProfile.ToASCII(host)
	if err != nil {
		return "", err
	}
	if !values.HostName(ascii) {
		return "", errors.New("not a host name")
	}
	// So that URL(URL(u)) is URL(u): the encoder accepts labels (over 63
	// bytes, say) whose punycode the decoder refuses (FuzzURL).
	if again, err := hostProfile.ToASCII(ascii); err != nil || again != ascii {
		return "", errors.New("its punycode does not read back")
	}
	return ascii, nil
}
