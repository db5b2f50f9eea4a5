package tester

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkURL returns an error saying why rawURL is not a URL the tester
// decides: an absolute http, https or ftp URL with a host, or a path
// starting with "/", in either case %-encoded (RFC 3986), as
// robots.Robots.Allowed requires. The library itself takes anything, and
// reads "example.com/a" as the path "/a"; the tester is stricter so that a
// typing mistake is shown rather than answered.
func checkURL(rawURL string) error {
	if rawURL == "" {
		return errors.New("empty URL")
	}
	if i := strings.IndexFunc(rawURL, mustEscape); i >= 0 {
		c, _ := utf8.DecodeRuneInString(rawURL[i:])
		return fmt.Errorf("not %%-encoded: %s may not appear in a URL; write %s", describeRune(c), escape(rawURL))
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
	case u.Scheme == "":
		return fmt.Errorf("not a URL: give an absolute URL (https://%s) or a path starting with \"/\"", strings.TrimPrefix(rawURL, "//"))
	case u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "ftp":
		return fmt.Errorf("not a URL a robots.txt governs: the scheme is %q, not http, https or ftp", u.Scheme)
	case u.Host == "":
		return errors.New("not a URL: no host")
	}
	return nil
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
