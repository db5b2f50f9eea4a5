package tester

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CheckURL returns an error saying why rawURL is not a URL the tester and
// the robotstxt command decide: an absolute http, https or ftp URL with a
// host, or a path starting with "/", in either case %-encoded (RFC 3986),
// as robots.Robots.Allowed requires. The library itself takes anything,
// and reads "example.com/a" as the path "/a"; the front ends are stricter
// so that a typing mistake is shown rather than answered. A URL that a
// message suggests is one CheckURL accepts.
func CheckURL(rawURL string) error {
	if rawURL == "" {
		return errors.New("empty URL")
	}
	if i := strings.IndexFunc(rawURL, mustEscape); i >= 0 {
		c, _ := utf8.DecodeRuneInString(rawURL[i:])
		escaped := escape(rawURL)
		err := CheckURL(escaped)
		switch {
		case err == nil:
			return fmt.Errorf("not %%-encoded: %s may not appear in a URL; write %s", describeRune(c), escaped)
		case strings.Contains(rawURL, "://") && strings.HasPrefix(err.Error(), "not a URL: invalid"):
			// %-encoded, the byte is still in the host: "https://exa mple.com/".
			return fmt.Errorf("not a URL: %s may not appear in its host", describeRune(c))
		}
		return err // %-encoding would not make it a URL: say what would
	}
	if rawURL[0] == '/' {
		return nil
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return fmt.Errorf("not a URL: %v", err)
	}
	switch {
	case u.Scheme == "" && looksLikeHost(rawURL):
		return fmt.Errorf("not a URL: give an absolute URL (https://%s) or a path starting with \"/\"", rawURL)
	case u.Scheme == "":
		return errors.New("not a URL: give an absolute URL (such as https://example.com/a) or a path starting with \"/\"")
	case u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ftp":
		return fmt.Errorf("not a URL a robots.txt governs: the scheme is %q, not http, https or ftp", u.Scheme)
	case u.Host == "":
		return errors.New("not a URL: no host")
	}
	return nil
}

// looksLikeHost reports whether s starts with what may be a host name with
// a dot, followed by the end, "/", "?" or "#": "example.com/a" does,
// "not%20a%20url" and "a:b" do not.
func looksLikeHost(s string) bool {
	end := strings.IndexAny(s, "/?#")
	if end < 0 {
		end = len(s)
	}
	host := s[:end]
	if !strings.Contains(host, ".") || host[0] == '.' {
		return false
	}
	for i := 0; i < len(host); i++ {
		c := host[i]
		if !('a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9' || c == '.' || c == '-') {
			return false
		}
	}
	return true
}

// mustEscape reports whether c may not appear as is in a URL: a control
// character, a space, or a non-ASCII character.
func mustEscape(c rune) bool {
	return c <= ' ' || c >= 0x7f
}

// describeRune names c for a message: "a space", "U+0009", "\"é\"".
func describeRune(c rune) string {
	switch {
	case c == ' ':
		return "a space"
	case c < ' ' || c == 0x7f || c == utf8.RuneError:
		return fmt.Sprintf("%U", c)
	}
	return strconv.Quote(string(c))
}

// escape returns s with the bytes of the characters for which mustEscape
// is true %-encoded.
func escape(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}
