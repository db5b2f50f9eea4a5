package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
)

// demoRobotsTxt is the robots.txt of the demo site. Its /tie lines match
// with equal length: Google allows the URL (the allow rule wins a tie,
// wherever it stands), where temoto/robotstxt, Colly's own, takes the
// first line and disallows it.
const demoRobotsTxt = `User-agent: *
Disallow: /private/
Disallow: /tie
Allow: /tie
Crawl-delay: 0.05
`

// demoPages are the pages of the demo site and the links on each. One link
// leaves the site; a crawler must not follow it.
var demoPages = map[string][]string{
	"/":    {"/a", "/b", "/private/secret", "/tie"},
	"/a":   {"/b", "/c", "/private/more"},
	"/b":   {"/", "http://example.org/elsewhere"},
	"/c":   {"/private/secret"},
	"/tie": {"/a"},
	// Disallowed: a crawler that obeys never gets them.
	"/private/secret": {"/private/more"},
	"/private/more":   nil,
}

// A site is the demo site on 127.0.0.1, which counts the requests of each
// path.
type site struct {
	*httptest.Server
	mu       sync.Mutex
	requests map[string]int
}

// newSite starts the demo site.
func newSite() *site {
	s := &site{requests: make(map[string]int)}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// serve answers with robots.txt or a page of links.
func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.requests[r.URL.Path]++
	s.mu.Unlock()
	if r.URL.Path == "/robots.txt" {
		fmt.Fprint(w, demoRobotsTxt)
		return
	}
	links, ok := demoPages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<html><body><h1>%s</h1>\n", r.URL.Path)
	for _, l := range links {
		fmt.Fprintf(w, "<a href=%q>%s</a>\n", l, l)
	}
	fmt.Fprint(w, "</body></html>\n")
}

// requested returns how many times each path was requested.
func (s *site) requested() map[string]int {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]int, len(s.requests))
	for k, v := range s.requests {
		m[k] = v
	}
	return m
}
