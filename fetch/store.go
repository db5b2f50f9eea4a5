package fetch

import (
	"context"
	"errors"
	"time"

	"github.com/gorep/robots"
)

// A Store keeps the state of Google's policy for robots.txt URLs (and the
// well-known files a Cache keeps alike, such as tdmrep.json) where
// several Caches can share it, so that a fleet of crawler processes fetches
// each file once and answers alike. A Cache reads a State from its Store
// before fetching, fetches only under a Lease, and saves what it fetched.
// The parsed rules stay in each Cache.
//
// A Store's methods must be safe for concurrent use and return soon: a Cache
// gives each call Options.StoreTimeout, and on an error (a fault) goes on as
// if it had no Store, reporting the fault to Options.StoreFault.
//
// A State holds times written by the clock of the Cache that fetched it. A
// Cache that loads one believes them only as far as its own clock and
// policy allow: a State fetched more than a minute after the reader's now
// (a writer's clock ahead) is read as fetched now and due now, so the
// reader fetches the file itself; no State stays fresh longer after its
// fetch than the policy's longest lifetime (or, after a failure, its
// longest retry delay), and no run of failures starts after the fetch that
// records it. A clock behind the others makes the States it writes look
// older: the others fetch again sooner. Keep a fleet's clocks in agreement
// (NTP).
//
// A Store spread over shards that fail apart (a Redis Cluster's masters)
// implements ShardedStore too, so that a fault sets aside one shard only.
// The package redisstore (module github.com/gorep/robots/redisstore)
// implements a Store on Redis, and a ShardedStore on a Redis Cluster.
type Store interface {
	// Load returns the state saved for robotsURL, and false if there is
	// none (never saved, expired, or unreadable).
	Load(ctx context.Context, robotsURL string) (State, bool, error)
	// Save records st under st.RobotsURL, replacing what was there.
	Save(ctx context.Context, st State) error
	// Lease tries to take, for at most ttl, the right to fetch robotsURL.
	// It returns a Lease if no one else holds one, and ErrLeased if someone
	// does. A lease that is not released expires on its own after ttl; it
	// should end sooner if its holder dies, since the others wait for it
	// (redisstore keeps a lease in 2-second terms that the holder's process
	// renews). A Cache that knows nothing of the file waits for the holder's
	// fetch at most ttl, then fetches it itself.
	Lease(ctx context.Context, robotsURL string, ttl time.Duration) (Lease, error)
}

// A Lease is the right to fetch one robots.txt URL, taken from a Store.
type Lease interface {
	// Release gives the lease up before it expires, if it is still held.
	Release(ctx context.Context) error
}

// ErrLeased is returned by Store.Lease when another Cache holds the lease.
var ErrLeased = errors.New("robots: another fetch of this robots.txt is in progress")

// A State is what Google's policy needs to know of one robots.txt URL: the
// last good copy, and the current run of failures. Every Cache that reads
// the same State at the same time gives the same answers.
type State struct {
	// RobotsURL is the robots.txt URL, as robots.URL returns it.
	RobotsURL string

	// GoodStatus is the HTTP status of the last good fetch: a 2xx, whose
	// file is Body, or a 3xx or 4xx (too many redirects, or no file), which
	// allows everything. Zero if no fetch has been good.
	GoodStatus int
	// Body is the file of the last good fetch when GoodStatus is a 2xx, at
	// most robots.MaxSize bytes.
	Body []byte
	// GoodURL is the URL Body came from when a redirect led there from
	// RobotsURL (Result.FinalURL), to say which file a rule's line is in;
	// "" otherwise.
	GoodURL string
	// GoodAt is when the last good copy was fetched, and GoodUntil until
	// when it is fresh (its lifetime).
	GoodAt, GoodUntil time.Time

	// FailingSince is the time of the first of the fetches that have failed
	// since the last good one; zero if the last fetch was good.
	FailingSince time.Time

	// Outcome and StatusCode are those of the last fetch (StatusCode 0 for
	// a network error); FetchedAt is when it ended, zero if never fetched.
	Outcome    Outcome
	StatusCode int
	FetchedAt  time.Time
	// NextFetch is when the file is to be fetched again: after the lifetime
	// of a good copy, or the retry delay (Retry-After applied) of a failure.
	NextFetch time.Time
}

// after returns st updated with the result of a fetch that ended at now.
func (st State) after(res *Result, now time.Time) State {
	st.Outcome, st.StatusCode, st.FetchedAt = res.Outcome, res.StatusCode, now
	st.NextFetch = now.Add(res.TTL)
	if res.Outcome == Unreachable {
		if st.FailingSince.IsZero() {
			st.FailingSince = now
		}
		return st
	}
	st.GoodStatus, st.Body, st.GoodURL = res.StatusCode, res.Body, ""
	if res.Redirects > 0 && res.FinalURL != res.URL {
		st.GoodURL = res.FinalURL
	}
	st.GoodAt, st.GoodUntil = now, now.Add(res.TTL)
	st.FailingSince = time.Time{}
	return st
}

// goodRules returns the parsed last good copy of st, or nil if there is none.
func (st *State) goodRules() *robots.Robots {
	if st.GoodStatus == 0 {
		return nil
	}
	return robots.FromStatus(st.GoodStatus, st.Body)
}
