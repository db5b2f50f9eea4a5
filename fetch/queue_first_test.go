package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// failFirst is a RoundTripper that fails the requests for /fail, and hands
// the others to http.DefaultTransport.
type failFirst struct{}

func (failFirst) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/fail" {
		return nil, errors.New("connection refused, as a test says")
	}
	return http.DefaultTransport.RoundTrip(req)
}

// TestQueueFirstAlone: in memory, on a fake clock, a host's first URL goes
// alone: its second comes out of the Queue only once the first has been
// answered (through the Transport: a status, or a failed request), or
// FirstHold has passed; other hosts' URLs come out meanwhile.
func TestQueueFirstAlone(t *testing.T) {
	clock := newSleepClock(time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC))
	tr, err := fetch.NewTransport(failFirst{}, testUA, fetch.TransportOptions{
		Politeness: fetch.PoliteOptions{Now: clock.Now, Sleep: clock.Sleep, FirstHold: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	q := fetch.NewQueue(tr.Politeness(), fetch.QueueOptions{})
	ctx := t.Context()
	ok := robotsServer(t, "User-agent: *\nAllow: /\n").URL
	other := robotsServer(t, "User-agent: *\nAllow: /\n").URL
	hung := robotsServer(t, "User-agent: *\nAllow: /\n").URL
	for _, u := range []string{ok + "/fail", ok + "/2", ok + "/3", other + "/1", hung + "/1", hung + "/2"} {
		if err := q.Push(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	q.Close()
	next := func(want string) {
		t.Helper()
		if u, err := q.Next(ctx); u != want || err != nil {
			t.Fatalf("Next = %q, %v; want %q", u, err, want)
		}
	}
	// The Queue asks a held host again firstPoll (50 ms) later, on the
	// Politeness's clock: each step moves it on by that.
	nothing := func(why string) {
		t.Helper()
		clock.advance(50 * time.Millisecond)
		short, cancel := context.WithTimeout(ctx, 150*time.Millisecond)
		defer cancel()
		if u, err := q.Next(short); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Next = %q, %v; want nothing, %s", u, err, why)
		}
	}
	next(ok + "/fail")
	got := map[string]bool{}
	for range 2 { // hosts never served take turns, in any order
		u, err := q.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got[u] = true
	}
	if !got[other+"/1"] || !got[hung+"/1"] {
		t.Fatalf("Next twice = %v, want %s/1 and %s/1", got, other, hung)
	}
	nothing("every host's first request is out")
	if _, err := client.Get(ok + "/fail"); err == nil {
		t.Fatal("Get(/fail) = nil error")
	}
	clock.advance(50 * time.Millisecond)
	next(ok + "/2") // a failed request is an answer
	next(ok + "/3") // and the host is known: no hold
	nothing("hung's first request is out")
	clock.advance(10*time.Second - 100*time.Millisecond) // FirstHold, since hung/1
	next(hung + "/2")
	if u, err := q.Next(ctx); !errors.Is(err, fetch.ErrQueueDone) {
		t.Fatalf("Next = %q, %v; want ErrQueueDone", u, err)
	}
}

// TestPolitenessFirstAlone: a polite Transport's first request to a host
// goes alone: a second, concurrent, waits for its answer, in polls (on the
// real clock: a fake one's Sleep would end the hold at once); Wait, whose
// caller may never report an answer, takes no hold.
func TestPolitenessFirstAlone(t *testing.T) {
	release := make(chan struct{})
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nAllow: /\n"))
			return
		}
		if r.URL.Path == "/first" {
			<-release
		}
	})
	tr, err := fetch.NewTransport(http.DefaultTransport, testUA, fetch.TransportOptions{
		Polite: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Transport: tr}
	first := make(chan error, 1)
	go func() {
		resp, err := client.Get(srv.URL + "/first")
		if err == nil {
			resp.Body.Close()
		}
		first <- err
	}()
	// Once the first request holds the host, a second waits in polls.
	for p := tr.Politeness(); ; {
		at, err := p.Next(ctx(t), srv.URL+"/x")
		if err != nil {
			t.Fatal(err)
		}
		if at.After(time.Now()) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	second := make(chan error, 1)
	go func() {
		resp, err := client.Get(srv.URL + "/second")
		if err == nil {
			resp.Body.Close()
		}
		second <- err
	}()
	select {
	case err := <-second:
		t.Fatalf("the second request went (%v) before the first was answered", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	// Wait takes no hold: two in a row go at once on another host.
	other := robotsServer(t, "User-agent: *\nAllow: /\n").URL
	for range 2 {
		if err := tr.Politeness().Wait(ctx(t), other+"/page"); err != nil {
			t.Fatal(err)
		}
	}
}

func ctx(t *testing.T) context.Context { return t.Context() }
