package fetch

import (
	"net/http"
	"time"
)

// Options tune a Cache. The zero value means Google's policy as described in
// the package documentation; a zero or negative field means its default.
type Options struct {
	// Lifetime is how long a good copy (a file, or the absence of one) is
	// used before it is fetched again, when the response has no
	// Cache-Control max-age. Default: 24 hours.
	Lifetime time.Duration
	// MinLifetime and MaxLifetime bound the lifetime that a Cache-Control
	// max-age sets. Default: 1 minute and 7 days.
	MinLifetime time.Duration
	MaxLifetime time.Duration

	// Retry is how long after a failed fetch (429, 5xx or network error)
	// the file is fetched again. Default: 1 hour.
	Retry time.Duration
	// Retry503 replaces Retry after a 503 Service Unavailable, which Google
	// retries "fairly frequently". Default: 10 minutes.
	Retry503 time.Duration
	// DisallowFor is how long, from the first of a run of failed fetches,
	// everything is disallowed. Default: 12 hours.
	DisallowFor time.Duration
	// StaleFor is how long, from the first of a run of failed fetches, the
	// last good copy is used once DisallowFor has passed. Default: 30 days.
	StaleFor time.Duration
	// Reachable reports whether the site whose robots.txt is at robotsURL
	// (as returned by robots.URL) is otherwise reachable. It is asked only
	// when fetches have failed for StaleFor: if it reports true, everything
	// is allowed, as if there were no robots.txt; if it is nil or reports
	// false, everything is disallowed. It must be safe for concurrent use.
	Reachable func(robotsURL string) bool

	// MaxBytes bounds the memory, in bytes, of what the Cache keeps: for
	// each host its state, its last good file and the parsed rules, and
	// the index from the origins of page URLs to robots.txt URLs (at most
	// a quarter of MaxBytes). The least recently used hosts are forgotten
	// beyond it. A host whose file alone takes more is kept while it is
	// the most recently used, and forgotten once another host is asked
	// about: the bound is then exceeded by that one host. Default: 256 MiB.
	MaxBytes int64
	// MaxHosts is the number of files (robots.txt URLs, and the
	// well-known files that Cache.Site asks about) kept;
	// the least recently used are forgotten beyond it. Hosts whose file is being
	// fetched do not count, and are never forgotten: more callers asking
	// about more hosts at once than MaxHosts each get their answer, and
	// the bound holds again once the fetches end. Default: 10,000.
	MaxHosts int
	// MaxFetches bounds the fetches in progress at once; more wait for
	// their turn. A fetch still waiting for its turn when every caller
	// waiting for it has left (its context ended, or Timeout passed) is
	// dropped, so that the queue holds no more than the callers: the next
	// question about the host starts another. Default: 64.
	MaxFetches int
	// Timeout bounds one fetch: connection, redirects and body. The fetch
	// goes on when the caller that started it gives up, so that the callers
	// waiting with it get an answer. It holds whatever the client's
	// transport does with the request's context (which carries the
	// deadline; a transport must keep req.Context() for the fetch itself
	// to stop): the Cache stops waiting, records a network error, and
	// drops what comes later. A caller waits for a fetch, its own or one
	// in progress (its turn among MaxFetches included), at most as long as
	// a refresh may take: Timeout + LeaseWait + 2 × StoreTimeout without a
	// Store; with one, Timeout + max(LeaseWait, Timeout + StoreTimeout) +
	// 3 × StoreTimeout (a wait for another process's fetch, then one of
	// its own); and then gets an error; the fetch goes on for the
	// callers after it. Default: 30 seconds.
	Timeout time.Duration
	// AllowPrivate, if true, lets the Cache's default client (when
	// NewCache is given none) connect to every address, those of the
	// crawler's own network included: for an intranet crawler whose hosts
	// have names. Without it, a Guard refuses them (see Guard).
	AllowPrivate bool
	// Now returns the current time. Default: time.Now.
	Now func() time.Time
	// Fetched, if not nil, is called after each fetch with what Robots
	// would have returned, before the callers waiting for the fetch go on;
	// for instance to log network errors. A well-known file's fetch is
	// reported too: its Result.URL is that file's. It must be safe
	// for concurrent use.
	Fetched func(res *Result, err error)

	// Store, if not nil, is where the state of each host is shared with
	// other Caches (in other processes, on other machines): they fetch
	// each file once between them and answer alike. Nil: the state lives
	// in this Cache alone.
	Store Store
	// StoreTimeout bounds each call to Store; past it, the call is a
	// fault. Default: 200 milliseconds.
	StoreTimeout time.Duration
	// LeaseWait bounds how long a Cache that knows a copy of a file (the
	// last good one, or a run of failures) waits for another Cache's fetch
	// of it before it answers by the policy on that copy and looks again.
	// A Cache that knows nothing of the file waits for the other's fetch as
	// for one of its own, up to Timeout and StoreTimeout, rather than
	// answer "disallow all: not fetched yet" to a page the file may allow;
	// past that, or as soon as the lease comes free, it fetches the file
	// itself. Default: 500 milliseconds.
	LeaseWait time.Duration
	// StoreFault, if not nil, is called when a call to Store fails (an
	// error, or no answer within StoreTimeout). The Cache then goes on as
	// if it had no Store, applying the policy to what it knows itself, and
	// tries the Store again a second later: a Store that is down or slow
	// delays a question by at most StoreTimeout, and LeaseWait bounds the
	// wait for another Cache's fetch of a file this one knows. A
	// ShardedStore (a Redis Cluster) is set aside only in the shard that
	// failed. It must be safe for concurrent use.
	StoreFault func(robotsURL string, err error)
}

// withDefaults returns o with each unset field set to its default.
func (o Options) withDefaults() Options {
	orDefault := func(d *time.Duration, def time.Duration) {
		if *d <= 0 {
			*d = def
		}
	}
	orDefault(&o.Lifetime, 24*time.Hour)
	orDefault(&o.MinLifetime, time.Minute)
	orDefault(&o.MaxLifetime, 7*24*time.Hour)
	orDefault(&o.Retry, time.Hour)
	orDefault(&o.Retry503, 10*time.Minute)
	orDefault(&o.DisallowFor, 12*time.Hour)
	orDefault(&o.StaleFor, 30*24*time.Hour)
	orDefault(&o.Timeout, 30*time.Second)
	orDefault(&o.StoreTimeout, 200*time.Millisecond)
	orDefault(&o.LeaseWait, 500*time.Millisecond)
	if o.MaxBytes <= 0 {
		o.MaxBytes = 256 << 20
	}
	if o.MaxHosts <= 0 {
		o.MaxHosts = 10_000
	}
	if o.MaxFetches <= 0 {
		o.MaxFetches = 64
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// maxRefresh returns the longest a refresh takes (Cache.update): a load
// and a lease; a wait for another Cache's fetch, LeaseWait or, when
// nothing is known of the file, Timeout + StoreTimeout, whose last poll
// may overrun it by a load and a lease; then a load and a fetch of its
// own. A caller waits no longer for a refresh.
// Without a Store, a refresh is a fetch: Timeout, and the slack the bound
// always had (LeaseWait + 2 × StoreTimeout).
func (o *Options) maxRefresh() time.Duration {
	if o.Store == nil {
		return o.Timeout + o.LeaseWait + 2*o.StoreTimeout
	}
	return max(o.LeaseWait, o.Timeout+o.StoreTimeout) + o.Timeout + 3*o.StoreTimeout
}

// lifetime returns how long a good copy fetched with response header h is
// used: its max-age kept within bounds, or the default lifetime.
func (o *Options) lifetime(h http.Header) time.Duration {
	if age, ok := maxAge(h); ok {
		return min(max(age, o.MinLifetime), o.MaxLifetime)
	}
	return o.Lifetime
}

// retry returns the delay before fetching again after a failure with HTTP
// status code (0 for a network error).
func (o *Options) retry(code int) time.Duration {
	if code == http.StatusServiceUnavailable {
		return o.Retry503
	}
	return o.Retry
}
