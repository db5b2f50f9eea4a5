package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gorep/robots/fetch"
)

// A client that obeys robots.txt, in one line: a disallowed page is never
// requested, the error says which line refused it, and with Polite the
// requests to a host are spaced by its Crawl-delay (here half a second).
// Base, if set, is the transport the requests go through: a proxy, a dialer
// of your own.
func ExampleNewClient() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n\nUser-agent: ExampleBot\nDisallow: /drafts/\nAllow: /drafts/public\nCrawl-delay: 0.5\n")
			return
		}
		fmt.Fprintf(w, "page %s, for %s", r.URL.Path, r.UserAgent())
	}))
	defer site.Close()

	client, err := fetch.NewClient("ExampleBot/1.0 (+https://example.com/bot)", fetch.TransportOptions{
		Polite: true,
		// Base: &http.Transport{Proxy: http.ProxyURL(proxy)},
	})
	if err != nil {
		fmt.Println(err) // a User-Agent that names no crawler
		return
	}
	for _, path := range []string{"/private/x", "/drafts/x", "/drafts/public"} {
		resp, err := client.Get(site.URL + path)
		if errors.Is(err, fetch.ErrDisallowed) {
			var refusal *fetch.DisallowedError
			errors.As(err, &refusal)
			fmt.Println(path, "refused:", refusal)
			continue
		}
		if err != nil {
			fmt.Println(path, "error:", err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		fmt.Println(path, "fetched:", string(body))
	}
	fmt.Println("waited for the crawl-delay:", client.Transport.(*fetch.Transport).Politeness().Stats().Waits, "time")
	// Output:
	// /private/x fetched: page /private/x, for ExampleBot/1.0 (+https://example.com/bot)
	// /drafts/x refused: robots: disallowed by line 5: Disallow: /drafts/
	// /drafts/public fetched: page /drafts/public, for ExampleBot/1.0 (+https://example.com/bot)
	// waited for the crawl-delay: 1 time
}

// Honouring Crawl-delay with the cache: Wait returns when the next request
// to the page's host may start.
func ExamplePoliteness_Wait() {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "User-agent: *\nCrawl-delay: 0.2\n") // 200 ms
	}))
	defer site.Close()

	cache := fetch.NewCache(nil, "ExampleBot/1.0 (+https://example.com/bot)", fetch.Options{})
	polite, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{MaxDelay: 10 * time.Second})
	if err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()
	start := time.Now()
	for _, path := range []string{"/a", "/b", "/c"} {
		if err := polite.Wait(ctx, site.URL+path); err != nil {
			fmt.Println(err)
			return
		}
		// ... fetch the page ...
	}
	fmt.Println("three requests took at least two crawl-delays:", time.Since(start) >= 400*time.Millisecond)
	fmt.Println("waits:", polite.Stats().Waits)
	// Output:
	// three requests took at least two crawl-delays: true
	// waits: 2
}

// A worker pool over many hosts: four workers share one polite client. Each
// host is spaced by its own crawl-delay, and a slow host never holds up the
// others: the workers waiting for it leave the other hosts' slots alone.
func ExampleNewTransport_workerPool() {
	var hosts []string
	for i := range 3 {
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				fmt.Fprintf(w, "User-agent: *\nDisallow: /admin/\nCrawl-delay: 0.0%d\n", i+1) // 10, 20, 30 ms
				return
			}
			fmt.Fprint(w, "ok")
		}))
		defer site.Close()
		hosts = append(hosts, site.URL)
	}

	transport, err := fetch.NewTransport(http.DefaultTransport, "ExampleBot/1.0 (+https://example.com/bot)",
		fetch.TransportOptions{Polite: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	client := &http.Client{Transport: transport}

	pages := make(chan string)
	var mu sync.Mutex
	results := map[string]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for page := range pages {
				outcome := "fetched"
				resp, err := client.Get(page)
				switch {
				case errors.Is(err, fetch.ErrDisallowed):
					outcome = "refused"
				case err != nil:
					outcome = "error"
				default:
					resp.Body.Close()
				}
				mu.Lock()
				results[outcome]++
				mu.Unlock()
			}
		})
	}
	for _, host := range hosts {
		for _, path := range []string{"/", "/a", "/b", "/admin/", "/c"} {
			pages <- host + path
		}
	}
	close(pages)
	wg.Wait()

	var lines []string
	for outcome, n := range results {
		lines = append(lines, fmt.Sprintf("%s: %d", outcome, n))
	}
	sort.Strings(lines)
	fmt.Println(strings.Join(lines, "\n"))
	fmt.Println("waits:", transport.Politeness().Stats().Waits > 0)
	// Output:
	// fetched: 12
	// refused: 3
	// waits: true
}
