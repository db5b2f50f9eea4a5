package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"

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
