package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"

	"github.com/gorep/robots/fetch"
)

// A worker pool over a Queue: each worker takes the next URL whose host is
// free, its slot taken, and fetches it at once; a disallowed URL comes out
// refused, never requested. Two workers crawl a host with "Crawl-delay:
// 0.5" and a host with none: the second host's pages all go before the
// first host's second page. With a Store that is a SlotStore (redisstore),
// the slots are those of the whole fleet.
func ExampleQueue() {
	var sites []string
	for _, robotsTxt := range []string{"User-agent: *\nCrawl-delay: 0.5\n", "User-agent: *\nDisallow: /private/\n"} {
		site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				fmt.Fprint(w, robotsTxt)
			}
		}))
		defer site.Close()
		sites = append(sites, site.URL)
	}
	slow, fast := sites[0], sites[1]

	transport, err := fetch.NewTransport(http.DefaultTransport, "ExampleBot/1.0 (+https://example.com/bot)", fetch.TransportOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	client := &http.Client{Transport: transport}
	queue := fetch.NewQueue(transport.Politeness(), fetch.QueueOptions{})
	ctx := context.Background()
	for _, page := range []string{slow + "/a", slow + "/b", slow + "/c", fast + "/a", fast + "/b", fast + "/c", fast + "/private/x"} {
		if err := queue.Push(ctx, page); err != nil {
			fmt.Println(err)
		}
	}
	queue.Close()

	var mu sync.Mutex
	var order []string // host of each page fetched, in order
	refused := 0
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				page, err := queue.Next(ctx)
				if errors.Is(err, fetch.ErrQueueDone) {
					return
				}
				mu.Lock()
				if errors.Is(err, fetch.ErrDisallowed) {
					refused++
				} else if strings.HasPrefix(page, slow) {
					order = append(order, "slow")
				} else {
					order = append(order, "fast")
				}
				mu.Unlock()
				if err != nil {
					continue
				}
				if resp, err := client.Get(page); err == nil {
					resp.Body.Close()
				}
			}
		})
	}
	wg.Wait()

	slowSeen, fastBefore := 0, 0
	for _, host := range order {
		if host == "fast" {
			fastBefore++
		} else if slowSeen++; slowSeen == 2 {
			break
		}
	}
	fmt.Println("pages:", len(order), "refused:", refused)
	fmt.Println("fast pages before the slow host's second:", fastBefore)
	// Output:
	// pages: 6 refused: 1
	// fast pages before the slow host's second: 3
}
