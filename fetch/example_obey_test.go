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
// host is spaced by its own crawl-delay, and a host's schedule never delays
// another host's. But a worker waits inside the request for its host's
// slot: while the workers all wait on hosts with long crawl-delays, the
// other hosts' pages wait in the queue. ExamplePoliteness_Reserve shows a
// pool that never waits on a host.
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

// A worker pool that never lets one host hold up the others: a worker
// reserves the page's slot, fetches at once if the slot is now, and
// otherwise sets the page aside until its slot and takes the next page. Two
// workers here crawl a host with "Crawl-delay: 0.5" and a host with none;
// the second is done long before the first (with Wait, both workers would
// soon sleep on the slow host's pages, one behind the other).
func ExamplePoliteness_Reserve() {
	var sites []*httptest.Server
	for _, robotsTxt := range []string{"User-agent: *\nCrawl-delay: 0.5\n", "User-agent: *\nDisallow: /private/\n"} {
		sites = append(sites, httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				fmt.Fprint(w, robotsTxt)
			}
		})))
		defer sites[len(sites)-1].Close()
	}
	slow, fast := sites[0].URL, sites[1].URL

	// The client obeys the rules; the pool keeps the crawl-delays itself,
	// so the client is not Polite (it would wait for a second slot).
	client, err := fetch.NewClient("ExampleBot/1.0 (+https://example.com/bot)", fetch.TransportOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	polite, err := fetch.NewPoliteness(client.Transport.(*fetch.Transport).Cache(), fetch.PoliteOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}

	type job struct {
		page     string
		reserved bool // its slot is taken and has come
	}
	jobs := make(chan job, 16)
	var pending sync.WaitGroup // pages not yet fetched
	var mu sync.Mutex
	var order []string // host of each page fetched, in order
	for _, site := range []string{slow, fast} {
		for _, path := range []string{"/a", "/b", "/c"} {
			pending.Add(1)
			jobs <- job{page: site + path}
		}
	}
	ctx := context.Background()
	for range 2 {
		go func() {
			for j := range jobs {
				if !j.reserved {
					start, err := polite.Reserve(ctx, j.page)
					if err != nil {
						fmt.Println(err)
						pending.Done()
						continue
					}
					if wait := time.Until(start); wait > 0 {
						// Back in the queue when its slot comes; this
						// worker goes on with other pages meanwhile.
						time.AfterFunc(wait, func() { jobs <- job{page: j.page, reserved: true} })
						continue
					}
				}
				if resp, err := client.Get(j.page); err == nil {
					resp.Body.Close()
				}
				mu.Lock()
				host := "fast"
				if strings.HasPrefix(j.page, slow) {
					host = "slow"
				}
				order = append(order, host)
				mu.Unlock()
				pending.Done()
			}
		}()
	}
	pending.Wait()
	close(jobs)

	slowSeen, fastBefore := 0, 0
	for _, host := range order {
		if host == "fast" {
			fastBefore++
		} else if slowSeen++; slowSeen == 2 {
			break
		}
	}
	fmt.Println("pages:", len(order))
	fmt.Println("fast pages fetched before the slow host's second page:", fastBefore)
	// Output:
	// pages: 6
	// fast pages fetched before the slow host's second page: 3
}
