package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

// checkURLs returns an error for the first of urls that is not a URL to
// answer, as the tester's API says it (tester.CheckURL): an absolute http,
// https or ftp URL with a host, or a path starting with "/", %-encoded. A
// mistyped subcommand, a host without a scheme ("example.com/a") or a
// space in a host ("https://exa mple.com/") would be read by Google's
// matcher as something else, and answered.
func checkURLs(urls []string) error {
	for _, u := range urls {
		if err := tester.CheckURL(u); err != nil {
			return fmt.Errorf("%q: %v", u, err)
		}
	}
	return nil
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
