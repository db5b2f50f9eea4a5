package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gorep/robots"
)

// checkURLs returns an error for the first of urls that is neither an
// absolute URL ("https://example.com/a") nor a path starting with "/": a
// mistyped subcommand or a host without a scheme ("example.com/a"), which
// Google's matcher would read as something else.
func checkURLs(urls []string) error {
	for _, u := range urls {
		if !isAbsoluteURL(u) && !strings.HasPrefix(u, "/") {
			return fmt.Errorf("%q is not an absolute URL (such as https://example.com/a) nor a path starting with /", u)
		}
	}
	return nil
}

// isAbsoluteURL reports whether s starts with a scheme, "://" and a host.
func isAbsoluteURL(s string) bool {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || scheme == "" || rest == "" || strings.ContainsAny(rest[:1], "/?#") {
		return false
	}
	for i := 0; i < len(scheme); i++ {
		c := scheme[i]
		letter := 'a' <= c|0x20 && c|0x20 <= 'z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// productTokens returns the product tokens to ask for the -agent values.
// A value that is a product token (letters, "-" and "_"), or "*", is kept.
// A value shaped like a User-Agent header, with "/", spaces or a comment
// ("EvalBot/1.0 (+http://x)"), would match no group and silently get the
// answers of "*": its token is derived with robots.ProductToken and a
// warning names it, and one that names no crawler is an error. Any other
// value ("MJ12bot") is kept as given, as Google's matcher does, with a
// warning that no user-agent line can name it. No value means Googlebot.
func productTokens(agents []string, stderr io.Writer) ([]string, error) {
	if len(agents) == 0 {
		return []string{"Googlebot"}, nil
	}
	tokens := make([]string, len(agents))
	for i, a := range agents {
		tokens[i] = a
		switch {
		case a == "*" || isProductToken(a):
		case strings.ContainsAny(a, "/ \t();"):
			t := robots.ProductToken(a)
			if t == "" {
				return nil, fmt.Errorf("-agent %q names no crawler: give its product token, such as Googlebot", a)
			}
			fmt.Fprintf(stderr, "robotstxt: warning: -agent %q is a User-Agent header, not a product token: asking as %q\n", a, t)
			tokens[i] = t
		default:
			fmt.Fprintf(stderr, "robotstxt: warning: -agent %q is not a product token (letters, \"-\" and \"_\"): no user-agent line can name it, so the groups for \"*\" answer\n", a)
		}
	}
	return tokens, nil
}

// isProductToken reports whether s is a product token as robots.txt groups
// match them: one or more letters, "-" and "_".
func isProductToken(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !('a' <= c && c <= 'z') && s[i] != '-' && s[i] != '_' {
			return false
		}
	}
	return s != ""
}
