package fetch_test

import (
	"context"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// TestCacheSharedTimesBounded saves States whose times no policy could have
// written (a damaged value, or a writer's bug) and checks that a Cache
// sharing them keeps within the policy's bounds.
func TestCacheSharedTimesBounded(t *testing.T) {
	const tenYears = 10 * 365 * day
	tests := []struct {
		name string
		st   func(robotsURL string) fetch.State
		// at is when the Cache asks, after epoch; want is the answer for
		// "/", the site now disallowing everything.
		at   time.Duration
		want bool
	}{
		{
			// A good copy said to be fresh for ten years is fetched again
			// after MaxLifetime (7 days).
			name: "next-fetch-ten-years-on",
			st: func(u string) fetch.State {
				return fetch.State{RobotsURL: u, GoodStatus: 404, GoodAt: epoch, GoodUntil: epoch.Add(tenYears),
					Outcome: fetch.Unavailable, StatusCode: 404, FetchedAt: epoch, NextFetch: epoch.Add(tenYears)}
			},
			at: 7*day + time.Minute, want: false,
		},
		{
			// A run of failures said to start ten years after its last
			// fetch would disallow everything for ten years; it starts at
			// the fetch at the latest, so the last good copy applies after
			// 12 hours.
			name: "failing-since-after-fetch",
			st: func(u string) fetch.State {
				return fetch.State{RobotsURL: u, GoodStatus: 404, GoodAt: epoch.Add(-day), GoodUntil: epoch,
					FailingSince: epoch.Add(tenYears), Outcome: fetch.Unreachable, StatusCode: 500,
					FetchedAt: epoch, NextFetch: epoch.Add(tenYears)}
			},
			at: 13 * time.Hour, want: false, // fetched again (due after Retry), and the site disallows all
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &handler{status: 200, body: "User-agent: *\nDisallow: /\n"}
			srv := serve(t, h.ServeHTTP)
			store := newMemStore()
			store.Put(tt.st(srv.URL + "/robots.txt"))
			clock := &fakeClock{t: epoch.Add(tt.at)}
			c := fetch.NewCache(nil, testUserAgent, fetch.Options{Now: clock.Now, Store: store})
			ok, err := c.Allowed(context.Background(), testAgent, srv.URL+"/")
			st, _ := c.State(srv.URL + "/")
			if ok != tt.want || err != nil || h.requests.Load() != 1 {
				t.Errorf("Allowed(/) at epoch+%v = %t, %v after %d fetches (%s); want %t after 1 fetch",
					tt.at, ok, err, h.requests.Load(), st.Policy, tt.want)
			}
		})
	}
}
