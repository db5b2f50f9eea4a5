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

// crawlers returns the crawlers to ask for the -agent values, each as the
// product tokens it obeys. Each value is one crawler. A value without "/",
// ";", "(" or ")" may list tokens separated by commas, for a crawler that
// obeys several ("googlebot-news,googlebot", as Googlebot-News does); a
// User-Agent header is one value whatever its commas. Each token goes
// through robots.CrawlerToken, the rule of every front end: "*" and product
// tokens are kept, a User-Agent header is cut to its product token and one
// that names no crawler is an error, and any other value ("MJ12bot") is
// kept; the warnings it gives are printed on stderr. No value means
// Googlebot.
func crawlers(agents []string, stderr io.Writer) ([][]string, error) {
	if len(agents) == 0 {
		return [][]string{{"Googlebot"}}, nil
	}
	var all [][]string
	for _, a := range agents {
		names := []string{a}
		if !strings.ContainsAny(a, "/;()") && strings.Contains(a, ",") {
			names = strings.Split(a, ",")
		}
		tokens := make([]string, len(names))
		for i, n := range names {
			if len(names) > 1 {
				n = strings.TrimSpace(n)
			}
			t, warning, err := robots.CrawlerToken(n)
			if err != nil {
				return nil, fmt.Errorf("-agent: %s", strings.TrimPrefix(err.Error(), "robots: "))
			}
			if warning != "" {
				fmt.Fprintf(stderr, "robotstxt: warning: -agent %s\n", warning)
			}
			tokens[i] = t
		}
		all = append(all, tokens)
	}
	return all, nil
}
