package robots

// Where a robots.txt lives and which URLs it governs.
//
// Google, "File location and range of validity": the file sits in the
// top-level directory of a site on HTTP, HTTPS or FTP, and "the rules listed
// in the robots.txt file apply only to the host, protocol, and port number
// where the robots.txt file is hosted". Standard ports (80 for HTTP, 443 for
// HTTPS, 21 for FTP) are the same as no port, and "IDNs are equivalent to
// their punycode versions". RFC 9309 §2.3 says the same of the scheme,
// authority and port.

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// defaultPorts are the ports that mean the same as no port, per scheme. The
// keys are also the schemes a robots.txt can be fetched with.
var defaultPorts = map[string]uint64{
	"http":  80,
	"https": 443,
	"ftp":   21,
}

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

// splitOrigin parses rawURL and returns its normalized scheme://host[:port]
// together with the parsed URL, or an error saying why rawURL has no origin a
// robots.txt can be fetched from.
func splitOrigin(rawURL string) (origin string, u *url.URL, err error) {
	u, err = url.Parse(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
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

// hostProfile maps a host name to its ASCII form the way web browsers do
// (UTS #46 as used by the WHATWG URL standard): case and width folded,
// non-transitional, Bidi and joiner rules checked, but underscores and
// hyphens where RFC 1034 would not have them accepted, because real host
// names such as "r3---sn-ab5l6n7s.googlevideo.com" and "my_host.example.com"
// use them.
var hostProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.StrictDomainName(false),
	idna.CheckHyphens(false),
)

// normalizeHost returns the form of host (as returned by url.URL.Hostname)
// that identifies it in a robots.txt URL: an IPv4 address in dotted decimal,
// an IPv6 address in its canonical text form within brackets, a name in
// lower-case punycode.
func normalizeHost(host string) (string, error) {
	if strings.Contains(host, ":") { // only an IPv6 literal has a colon here
		addr, err := netip.ParseAddr(host)
		if err != nil || !addr.Is6() {
			return "", errors.New("not an IPv6 address")
		}
		zone := addr.Zone()
		if strings.ContainsFunc(zone, func(r rune) bool { return r >= utf8.RuneSelf }) {
			// Go's URL parser refuses a %-escape of a byte over 0x7F in a
			// host, so such a zone could not be written back. Found by
			// FuzzURL.
			return "", errors.New("the IPv6 zone is not ASCII")
		}
		s := addr.WithZone("").String()
		if zone != "" {
			s += "%25" + escapeZone(zone) // RFC 6874
		}
		return "[" + s + "]", nil
	}
	if addr, err := netip.ParseAddr(host); err == nil {
		return addr.String(), nil
	}
	if !utf8.ValidString(host) { // the mapping would turn bad bytes into U+FFFD
		return "", errors.New("not UTF-8")
	}
	ascii, err := hostProfile.ToASCII(host)
	if err != nil {
		return "", err
	}
	if !validHostName(ascii) {
		return "", errors.New("not a host name")
	}
	if ascii != host {
		// The result must read back as itself, so that URL(URL(u)) is
		// URL(u): the encoder accepts labels (over 63 bytes, say) whose
		// punycode the decoder then refuses. Found by FuzzURL.
		if again, err := hostProfile.ToASCII(ascii); err != nil || again != ascii {
			return "", errors.New("its punycode does not read back")
		}
	}
	return ascii, nil
}

// escapeZone %-encodes the bytes of an IPv6 zone that RFC 6874 does not
// allow as they are:
//
//	ZoneID = 1*( unreserved / pct-encoded )
//
// so that the URL reads back ("%25%20" is decoded to a space by the parser,
// and must be written again as "%20"). Found by FuzzURL.
func escapeZone(zone string) string {
	var b strings.Builder
	for i := 0; i < len(zone); i++ {
		switch c := zone[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~':
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(upperHex[c>>4])
			b.WriteByte(upperHex[c&0xF])
		}
	}
	return b.String()
}

// validHostName reports whether s, the ASCII form of a host name, is a
// sequence of non-empty labels of host name characters separated by dots,
// with an optional final dot (a fully qualified name).
func validHostName(s string) bool {
	s = strings.TrimSuffix(s, ".")
	if s == "" {
		return false
	}
	for label := range strings.SplitSeq(s, ".") {
		if label == "" {
			return false
		}
		for i := 0; i < len(label); i++ {
			if !isHostNameChar(label[i]) {
				return false
			}
		}
	}
	return true
}

// isHostNameChar reports whether c may appear in a label of a host name after
// mapping to ASCII:
//
//	let-dig-hyp = ALPHA / DIGIT / "-"   ; RFC 1034 §3.5, RFC 1123 §2.1
//
// and "_", which DNS allows and real host names use. Upper-case letters do not
// occur: the mapping has folded them.
func isHostNameChar(c byte) bool {
	return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_'
}
