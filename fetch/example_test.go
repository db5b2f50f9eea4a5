package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

// A tiny polite crawler: before each page, it asks the cache, which fetches
// the site's robots.txt once and then answers from memory.
func Example() {
	// A site that keeps crawlers out of /private/.
	var robotsFetches atomic.Int32
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			robotsFetches.Add(1)
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
			return
		}
		fmt.Fprintf(w, "<p>%s</p>\n", r.URL.Path)
	}))
	defer site.Close()

	const userAgent = "ExampleBot/1.0 (+https://example.com/bot)"
	agent := robots.ProductToken(userAgent) // "ExampleBot"
	cache := fetch.NewCache(nil, userAgent, fetch.Options{})
	ctx := context.Background()

	for _, path := range []string{"/", "/about", "/private/accounts", "/blog?page=2"} {
		page := site.URL + path
		ok, err := cache.Allowed(ctx, agent, page)
		if err != nil {
			fmt.Println("bad URL:", err)
			continue
		}
		if !ok {
			fmt.Println("skip ", path)
			continue
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, page, nil)
		req.Header.Set("User-Agent", userAgent)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			fmt.Println("error", err)
			continue
		}
		resp.Body.Close()
		fmt.Println("crawl", path, resp.Status)
	}
	fmt.Println("robots.txt fetched", robotsFetches.Load(), "time")
	// Output:
	// crawl / 200 OK
	// crawl /about 200 OK
	// skip  /private/accounts
	// crawl /blog?page=2 200 OK
	// robots.txt fetched 1 time
}

// Fetching one robots.txt: a 503 means that, for now, nothing may be crawled,
// and that the file should be fetched again soon.
func ExampleGet() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer site.Close()

	res, err := fetch.Get(context.Background(), nil, "ExampleBot/1.0", site.URL+"/some/page")
	if err != nil {
		fmt.Println("network error:", err) // res still holds the rules to use
	}
	fmt.Println(res.Outcome, res.StatusCode)
	fmt.Println("allowed:", res.Robots.Allowed("ExampleBot", site.URL+"/some/page"))
	fmt.Println("fetch again in", res.TTL)
	// Output:
	// unreachable 503
	// allowed: false
	// fetch again in 10m0s
}

// Why a host is off limits: State says which part of Google's error policy
// applies, and Decide that the policy, not a rule, decided. The site answers
// 503 with Retry-After: 300, so the file is fetched again in 5 minutes.
func ExampleCache_State() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "300")
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer site.Close()

	now := time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)
	cache := fetch.NewCache(nil, "ExampleBot/1.0", fetch.Options{Now: func() time.Time { return now }})
	d, _ := cache.Decide(context.Background(), "ExampleBot", site.URL+"/page")
	fmt.Println(d)
	st, _ := cache.State(site.URL + "/page")
	fmt.Println(st.Policy)
	s := cache.Stats()
	fmt.Println("misses:", s.Misses, "unreachable fetches:", s.Fetches[fetch.Unreachable])
	// Output:
	// disallowed (disallow all)
	// disallow all: 503 since 2026-11-23T10:00:00Z, retried at 2026-11-23T10:05:00Z
	// misses: 1 unreachable fetches: 1
}

// A site that cannot be reached (a refused connection, a DNS failure, a
// guarded address): Allowed answers false with a nil error, since the error
// policy decided (disallow all), and State gives the network error and says
// the policy in words.
func ExampleCache_State_networkError() {
	refused := &http.Client{Transport: roundTripperFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("dial tcp 192.0.2.1:443: connect: connection refused")
	})}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	cache := fetch.NewCache(refused, "ExampleBot/1.0", fetch.Options{Now: func() time.Time { return now }})
	ok, err := cache.Allowed(context.Background(), "ExampleBot", "https://example.com/page")
	fmt.Println(ok, err)
	st, _ := cache.State("https://example.com/page")
	fmt.Println(st.Err)
	fmt.Println(st.Policy)
	// Output:
	// false <nil>
	// robots: Get "https://example.com/robots.txt": dial tcp 192.0.2.1:443: connect: connection refused
	// disallow all: network error (robots: Get "https://example.com/robots.txt": dial tcp 192.0.2.1:443: connect: connection refused) since 2026-01-01T00:00:00Z, retried at 2026-01-01T01:00:00Z
}
