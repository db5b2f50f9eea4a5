package fetch_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/fetch"
)

// A sleepClock is a fake clock whose Sleep records the time asked for and
// moves the clock on by it, at once.
type sleepClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func newSleepClock(now time.Time) *sleepClock { return &sleepClock{now: now} }

func (c *sleepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *sleepClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *sleepClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept = append(c.slept, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

// sleeps returns the sleeps so far and forgets them.
func (c *sleepClock) sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.slept
	c.slept = nil
	return s
}

// robotsServer starts a host whose robots.txt is body.
func robotsServer(t *testing.T, body string) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

// newPoliteness returns a Politeness for testUA with opts, on clock.
func newPoliteness(t *testing.T, clock *sleepClock, opts fetch.PoliteOptions) *fetch.Politeness {
	t.Helper()
	opts.Now, opts.Sleep = clock.Now, clock.Sleep
	p, err := fetch.NewPoliteness(fetch.NewCache(nil, testUA, fetch.Options{}), opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPolitenessDelay(t *testing.T) {
	noon := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name      string
		robotsTxt string
		opts      fetch.PoliteOptions
		want      time.Duration // between two requests
	}{
		{"none", "User-agent: *\nDisallow: /x\n", fetch.PoliteOptions{}, 0},
		{"none/default-delay", "User-agent: *\nDisallow: /x\n", fetch.PoliteOptions{DefaultDelay: 3 * time.Second}, 3 * time.Second},
		{"crawl-delay", "User-agent: *\nCrawl-delay: 2\n", fetch.PoliteOptions{}, 2 * time.Second},
		{"crawl-delay/fraction", "User-agent: *\nCrawl-delay: 0.5\n", fetch.PoliteOptions{}, 500 * time.Millisecond},
		{"crawl-delay/zero-beats-default", "User-agent: *\nCrawl-delay: 0\n", fetch.PoliteOptions{DefaultDelay: 3 * time.Second}, 0},
		{"crawl-delay/replaces-default", "User-agent: *\nCrawl-delay: 1\n", fetch.PoliteOptions{DefaultDelay: 3 * time.Second}, time.Second},
		{"crawl-delay/capped", "User-agent: *\nCrawl-delay: 86400\n", fetch.PoliteOptions{}, time.Minute},
		// Every value over the cap is the cap, those too large for a
		// time.Duration included (issue 26 item 12).
		{"crawl-delay/capped-huge", "User-agent: *\nCrawl-delay: 9223372036\n", fetch.PoliteOptions{}, time.Minute},
		{"crawl-delay/capped-huger", "User-agent: *\nCrawl-delay: 99999999999999999999999\n", fetch.PoliteOptions{}, time.Minute},
		{"crawl-delay/own-cap", "User-agent: *\nCrawl-delay: 86400\n", fetch.PoliteOptions{MaxDelay: 10 * time.Second}, 10 * time.Second},
		{"crawl-delay/own-group", "User-agent: *\nDisallow: /a\nCrawl-delay: 9\n\nUser-agent: EvalBot\nDisallow: /b\nCrawl-delay: 4\n", fetch.PoliteOptions{}, 4 * time.Second},
		{"crawl-delay/other-group", "User-agent: OtherBot\nCrawl-delay: 9\n", fetch.PoliteOptions{}, 0},
		{"request-rate", "User-agent: *\nRequest-rate: 1/5\n", fetch.PoliteOptions{}, 5 * time.Second},
		{"request-rate/several", "User-agent: *\nRequest-rate: 6/1m\n", fetch.PoliteOptions{}, 10 * time.Second},
		{"request-rate/larger-wins", "User-agent: *\nCrawl-delay: 2\nRequest-rate: 1/5\n", fetch.PoliteOptions{}, 5 * time.Second},
		{"request-rate/smaller-loses", "User-agent: *\nCrawl-delay: 7\nRequest-rate: 1/5\n", fetch.PoliteOptions{}, 7 * time.Second},
		{"request-rate/in-window", "User-agent: *\nRequest-rate: 1/5 1100-1300\n", fetch.PoliteOptions{}, 5 * time.Second},
		{"request-rate/out-of-window", "User-agent: *\nRequest-rate: 1/5 0100-0300\n", fetch.PoliteOptions{DefaultDelay: time.Second}, time.Second},
		{"visit-time/ignored", "User-agent: *\nVisit-time: 0100-0300\nCrawl-delay: 1\n", fetch.PoliteOptions{}, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := robotsServer(t, tt.robotsTxt)
			clock := newSleepClock(noon)
			p := newPoliteness(t, clock, tt.opts)
			for range 3 {
				if err := p.Wait(t.Context(), host.URL+"/page"); err != nil {
					t.Fatal(err)
				}
			}
			var want []time.Duration
			if tt.want > 0 {
				want = []time.Duration{tt.want, tt.want}
			}
			if diff := cmp.Diff(want, clock.sleeps()); diff != "" {
				t.Errorf("sleeps of three Waits (-want +got):\n%s", diff)
			}
			if got, want := p.Stats(), (fetch.WaitStats{Waits: int64(len(want)), Waited: 2 * tt.want, Slots: 3}); got != want {
				t.Errorf("Stats() = %+v, want %+v", got, want)
			}
		})
	}
}

// A gateClock is a fake clock whose Sleep blocks until the context ends, and
// says when it has started.
type gateClock struct {
	now      time.Time
	sleeping chan time.Duration
}

func (c *gateClock) Now() time.Time { return c.now }

func (c *gateClock) Sleep(ctx context.Context, d time.Duration) error {
	c.sleeping <- d
	<-ctx.Done()
	return ctx.Err()
}

// TestPolitenessFair checks that a request waiting for a slow host does not
// delay another host, and that a cancelled wait gives its slot back.
func TestPolitenessFair(t *testing.T) {
	slow := robotsServer(t, "User-agent: *\nCrawl-delay: 30\n")
	fast := robotsServer(t, "User-agent: *\nDisallow: /x\n")
	clock := &gateClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), sleeping: make(chan time.Duration, 1)}
	p, err := fetch.NewPoliteness(fetch.NewCache(nil, testUA, fetch.Options{}),
		fetch.PoliteOptions{Now: func() time.Time { return clock.now }, Sleep: clock.Sleep})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	if err := p.Wait(ctx, slow.URL+"/1"); err != nil {
		t.Fatal(err)
	}
	waitCtx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- p.Wait(waitCtx, slow.URL+"/2") }()
	if d := <-clock.sleeping; d != 30*time.Second {
		t.Errorf("second request to the slow host sleeps %v, want 30s", d)
	}
	for i := range 3 {
		if err := p.Wait(ctx, fast.URL+fmt.Sprint("/", i)); err != nil {
			t.Fatalf("Wait for the fast host while the slow one sleeps: %v", err)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled Wait returned %v, want context.Canceled", err)
	}
	// The cancelled request gave its slot back: the next one waits 30s,
	// not 60s.
	waitCtx, cancel = context.WithCancel(ctx)
	go func() { done <- p.Wait(waitCtx, slow.URL+"/3") }()
	if d := <-clock.sleeping; d != 30*time.Second {
		t.Errorf("request after a cancelled one sleeps %v, want 30s", d)
	}
	cancel()
	<-done
	// Slots: the first slow page, the three fast ones, and the two
	// cancelled (given back).
	if got := p.Stats(); got != (fetch.WaitStats{Slots: 6}) {
		t.Errorf("Stats() = %+v after cancelled waits only, want no waits and 6 slots", got)
	}
}

func TestPolitenessForgetsHosts(t *testing.T) {
	var hosts []string
	for range 3 {
		hosts = append(hosts, robotsServer(t, "User-agent: *\nCrawl-delay: 10\n").URL)
	}
	clock := newSleepClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	p := newPoliteness(t, clock, fetch.PoliteOptions{MaxHosts: 2})
	// Hosts 0, 1, 2 are busy until 10s, 11s, 12s; adding 2 forgets 0,
	// the one due soonest, and adding 0 again forgets 1.
	for _, h := range hosts {
		if err := p.Wait(t.Context(), h+"/a"); err != nil {
			t.Fatal(err)
		}
		clock.advance(time.Second)
	}
	if err := p.Wait(t.Context(), hosts[0]+"/b"); err != nil {
		t.Fatal(err)
	}
	if got := clock.sleeps(); len(got) != 0 {
		t.Errorf("forgotten host slept %v, want no sleep", got)
	}
	if err := p.Wait(t.Context(), hosts[2]+"/b"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Duration{9 * time.Second}, clock.sleeps()); diff != "" {
		t.Errorf("remembered host's sleeps (-want +got):\n%s", diff)
	}
}

func TestPolitenessInvalidURL(t *testing.T) {
	p := newPoliteness(t, newSleepClock(time.Time{}), fetch.PoliteOptions{})
	for _, u := range []string{"/relative", "mailto:x@example.com", "http://"} {
		if err := p.Wait(t.Context(), u); err == nil {
			t.Errorf("Wait(%q) = nil, want an error", u)
		}
	}
}

// TestPolitenessRealTime waits with the real clock at small delays, and
// checks lower bounds only: two hosts at once, each spacing its own
// requests, neither adding to the other's time.
func TestPolitenessRealTime(t *testing.T) {
	const delay = 30 * time.Millisecond
	a := robotsServer(t, "User-agent: *\nCrawl-delay: 0.03\n")
	b := robotsServer(t, "User-agent: *\nRequest-rate: 100/3\n")
	p, err := fetch.NewPoliteness(fetch.NewCache(nil, testUA, fetch.Options{}), fetch.PoliteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, host := range []string{a.URL, b.URL} {
		wg.Go(func() {
			begin := time.Now()
			for i := range 4 {
				if err := p.Wait(t.Context(), host+fmt.Sprint("/", i)); err != nil {
					t.Error(err)
					return
				}
				if since, want := time.Since(begin), time.Duration(i)*delay; since < want {
					t.Errorf("%s: request %d started %v after the first Wait, want at least %v", host, i, since, want)
				}
			}
		})
	}
	wg.Wait()
}

// TestPolitenessDeadlineSaysCrawlDelay checks that a Wait whose slot comes
// after the request's deadline fails at once, saying it was the crawl-delay
// of that host rather than a bare "context deadline exceeded", and gives its
// slot back (issue 26 item 13).
func TestPolitenessDeadlineSaysCrawlDelay(t *testing.T) {
	host := robotsServer(t, "User-agent: *\nCrawl-delay: 30\n")
	clock := newSleepClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	p := newPoliteness(t, clock, fetch.PoliteOptions{MaxDelay: time.Hour})
	if err := p.Wait(t.Context(), host.URL+"/1"); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	err := p.Wait(ctx, host.URL+"/2")
	want := "robots: the crawl-delay of " + host.URL + "/robots.txt (30s between requests) puts this request 30s away, past its deadline"
	if !errors.Is(err, context.DeadlineExceeded) || err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("Wait past the deadline = %v, want an error wrapping context.DeadlineExceeded that starts %q", err, want)
	}
	if got := clock.sleeps(); len(got) != 0 {
		t.Errorf("Wait past the deadline slept %v, want no sleep", got)
	}
	if err := p.Wait(t.Context(), host.URL+"/3"); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]time.Duration{30 * time.Second}, clock.sleeps()); diff != "" {
		t.Errorf("the request after: sleeps (-want +got), the slot given back:\n%s", diff)
	}
}

// TestPolitenessNextAndReserve checks the ways that do not block: Next says
// when a host is next free without taking the slot, Reserve takes it and
// says when it starts (issue 26 item 13).
func TestPolitenessNextAndReserve(t *testing.T) {
	slow := robotsServer(t, "User-agent: *\nCrawl-delay: 30\n")
	fast := robotsServer(t, "User-agent: *\nDisallow: /x\n")
	noon := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := newSleepClock(noon)
	p := newPoliteness(t, clock, fetch.PoliteOptions{})
	ctx := t.Context()
	type step struct {
		call, page string
		want       time.Time
	}
	steps := []step{
		{"Next", slow.URL + "/a", noon},
		{"Next", slow.URL + "/a", noon}, // Next takes nothing
		{"Reserve", slow.URL + "/a", noon},
		{"Next", slow.URL + "/b", noon.Add(30 * time.Second)},
		{"Reserve", slow.URL + "/b", noon.Add(30 * time.Second)},
		{"Reserve", slow.URL + "/c", noon.Add(60 * time.Second)},
		{"Next", fast.URL + "/a", noon}, // another host is free
		{"Reserve", fast.URL + "/a", noon},
		{"Reserve", fast.URL + "/b", noon},
	}
	for _, s := range steps {
		var got time.Time
		var err error
		if s.call == "Next" {
			got, err = p.Next(ctx, s.page)
		} else {
			got, err = p.Reserve(ctx, s.page)
		}
		if err != nil || !got.Equal(s.want) {
			t.Errorf("%s(%s) = %v, %v; want %v", s.call, s.page, got, err, s.want)
		}
	}
	if got := clock.sleeps(); len(got) != 0 {
		t.Errorf("Next and Reserve slept %v, want never", got)
	}
	if _, err := p.Reserve(ctx, "/relative"); err == nil {
		t.Error("Reserve(/relative) = nil error, want one")
	}
}
