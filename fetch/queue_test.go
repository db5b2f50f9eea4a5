package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// TestQueue runs two workers over a Queue: a host with a crawl-delay, a
// host without, and a disallowed page. The requests to the slow host reach
// it a delay apart; the fast host's pages go meanwhile, not after; the
// disallowed page comes out refused, never requested.
func TestQueue(t *testing.T) {
	const delay = 300 * time.Millisecond
	var mu sync.Mutex
	seen := map[string][]time.Time{} // by host: page requests
	var order []string               // "slow" or "fast", per page request
	site := func(name, robotsTxt string) string {
		return serve(t, func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/robots.txt" {
				fmt.Fprint(w, robotsTxt)
				return
			}
			mu.Lock()
			seen[name+r.URL.Path] = append(seen[name+r.URL.Path], time.Now())
			seen[name] = append(seen[name], time.Now())
			order = append(order, name)
			mu.Unlock()
		}).URL
	}
	slow := site("slow", "User-agent: *\nDisallow: /admin/\nCrawl-delay: 0.3\n")
	fast := site("fast", "User-agent: *\nDisallow: /admin/\n")

	tr, err := fetch.NewTransport(http.DefaultTransport, testUA, fetch.TransportOptions{})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	q := fetch.NewQueue(tr.Politeness(), fetch.QueueOptions{})
	ctx := t.Context()
	for i := range 4 {
		for _, host := range []string{slow, fast} {
			if err := q.Push(ctx, fmt.Sprintf("%s/%d", host, i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, u := range []string{fast + "/4", fast + "/5", slow + "/admin/x"} {
		if err := q.Push(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	if err := q.Push(ctx, "/relative"); err == nil {
		t.Error("Push(/relative) = nil error, want one")
	}
	q.Close()
	if err := q.Push(ctx, slow+"/late"); err == nil {
		t.Error("Push after Close = nil error, want one")
	}

	var refused []string
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				page, err := q.Next(ctx)
				if errors.Is(err, fetch.ErrQueueDone) {
					return
				}
				if errors.Is(err, fetch.ErrDisallowed) {
					mu.Lock()
					refused = append(refused, page)
					mu.Unlock()
					continue
				}
				if err != nil {
					t.Error(err)
					return
				}
				resp, err := client.Get(page)
				if err != nil {
					t.Error(err)
					continue
				}
				resp.Body.Close()
			}
		})
	}
	wg.Wait()

	if len(refused) != 1 || refused[0] != slow+"/admin/x" {
		t.Errorf("refused %v, want [%s/admin/x]", refused, slow)
	}
	if got := seen["slow/admin/x"]; len(got) != 0 {
		t.Errorf("the disallowed page was requested %d times", len(got))
	}
	if len(seen["slow"]) != 4 || len(seen["fast"]) != 6 {
		t.Fatalf("requests: slow %d, fast %d; want 4, 6", len(seen["slow"]), len(seen["fast"]))
	}
	times := seen["slow"]
	for i := 1; i < len(times); i++ {
		if gap := times[i].Sub(times[i-1]); gap < delay*95/100 {
			t.Errorf("slow host: requests %d and %d reached it %v apart, want at least %v", i-1, i, gap, delay*95/100)
		}
	}
	// Every fast page before the slow host's second: no worker waited on
	// the slow host while the fast one had pages.
	slows, fasts := 0, 0
	for _, name := range order {
		if name == "fast" {
			fasts++
		} else if slows++; slows == 2 {
			break
		}
	}
	if fasts != 6 {
		t.Errorf("order of requests %v: %d fast pages before the slow host's second, want 6", order, fasts)
	}
	if got := tr.Politeness().Stats(); got.Slots != 10 {
		t.Errorf("Stats() = %+v, want 10 slots (one per page fetched)", got)
	}
}

// TestQueueBounds checks that Next and Push wait no longer than their
// contexts: Next on an empty queue, Push on a full one.
func TestQueueBounds(t *testing.T) {
	site := serve(t, func(w http.ResponseWriter, r *http.Request) {})
	p, err := fetch.NewPoliteness(fetch.NewCache(nil, testUA, fetch.Options{AllowPrivate: true}), fetch.PoliteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	q := fetch.NewQueue(p, fetch.QueueOptions{MaxURLs: 2})
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if page, err := q.Next(ctx); page != "" || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Next on an empty queue = %q, %v; want \"\", context.DeadlineExceeded", page, err)
	}
	for i := range 2 {
		if err := q.Push(t.Context(), fmt.Sprint(site.URL, "/", i)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel = context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := q.Push(ctx, site.URL+"/2"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Push on a full queue = %v, want context.DeadlineExceeded", err)
	}
	// A Next makes room.
	done := make(chan error)
	go func() { done <- q.Push(t.Context(), site.URL+"/2") }()
	if page, err := q.Next(t.Context()); page != site.URL+"/0" || err != nil {
		t.Errorf("Next = %q, %v; want %s/0", page, err, site.URL)
	}
	if err := <-done; err != nil {
		t.Errorf("Push once there is room = %v", err)
	}
	if q.Len() != 2 {
		t.Errorf("Len() = %d, want 2", q.Len())
	}
}
