package fetch

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestAbandonedRefreshesEnd checks that a refresh still waiting for its
// turn among MaxFetches ends when every caller that waited for it has
// left, rather than stay queued with its entry for as long as the fetches
// ahead of it take: a crawler whose workers ask about ever new hosts of a
// tarpit (every robots.txt fetch slow), each with a short deadline, would
// otherwise queue a goroutine and an entry (never forgotten while in
// flight) per question, without bound.
func TestAbandonedRefreshesEnd(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	slow := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		select { // a tarpit: the fetch holds its turn
		case <-release:
		case <-r.Context().Done():
		}
		return nil, errors.New("tarpit")
	})}
	c := NewCache(slow, "TestBot/1.0", Options{MaxFetches: 2, Timeout: time.Hour})
	const asked = 100
	for i := range asked {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Millisecond)
		if _, err := c.Robots(ctx, "http://h"+strconv.Itoa(i)+".example/"); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("question %d: %v, want the context's deadline", i, err)
		}
		cancel()
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		c.mu.Lock()
		n := c.inFlight
		c.mu.Unlock()
		if n <= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d refreshes in flight after %d abandoned questions, want the 2 fetching (MaxFetches)", n, asked)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if st, ok := c.State("http://h99.example/"); !ok || !st.NextFetch.IsZero() {
		t.Errorf("State of an abandoned host: %+v, %t; want known, to be fetched at the next question", st, ok)
	}
}

// roundTripFunc makes a function an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestAbandonedRefreshRejoined checks that a caller who asks about a host
// just as the last caller before it left (its refresh abandoned while
// waiting for a turn) gets the file's rules, never the answer of a file
// not fetched.
func TestAbandonedRefreshRejoined(t *testing.T) {
	gate := make(chan struct{})
	var once sync.Once
	open := func() { once.Do(func() { close(gate) }) }
	defer open()
	client := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if r.URL.Host == "a.example" {
			<-gate // holds the only turn
		}
		return &http.Response{StatusCode: 200, Header: http.Header{}, Request: r,
			Body: io.NopCloser(strings.NewReader("User-agent: *\nDisallow: /private\n"))}, nil
	})}
	c := NewCache(client, "TestBot/1.0", Options{MaxFetches: 1, Timeout: time.Minute})
	go c.Robots(context.Background(), "http://a.example/")
	for c.Stats().Misses == 0 {
		time.Sleep(time.Millisecond)
	}
	const hosts = 200
	var wg sync.WaitGroup
	for i := range hosts {
		u := "http://b" + strconv.Itoa(i) + ".example/"
		ctx, cancel := context.WithCancel(context.Background())
		ready := make(chan struct{})
		go func() {
			close(ready)
			c.Robots(ctx, u) // leaves when cancelled
		}()
		<-ready
		time.Sleep(100 * time.Microsecond)
		cancel()
		wg.Add(1)
		go func() {
			defer wg.Done()
			r, err := c.Robots(context.Background(), u)
			if err != nil || !r.Allowed("TestBot", "/public") || r.Allowed("TestBot", "/private") {
				t.Errorf("%s: rules %v, %v; want the file's (Disallow: /private)", u, r, err)
			}
		}()
	}
	open()
	wg.Wait()
}
