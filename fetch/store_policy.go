package fetch

import (
	"strconv"
	"time"

	"github.com/gorep/robots"
)

// HostState is what a Cache knows now of one robots.txt URL: why its rules
// are what they are, for logs, metrics and error messages.
type HostState struct {
	RobotsURL    string
	Outcome      Outcome   // of the last fetch; meaningless if FetchedAt is zero
	StatusCode   int       // HTTP status of the last fetch, 0 for a network error or none
	FetchedAt    time.Time // last fetch attempt; zero if never fetched
	GoodUntil    time.Time // the last good copy is fresh until then; zero if none
	FailingSince time.Time // first of the current run of failed fetches; zero if none
	NextFetch    time.Time // when the file is fetched again (Retry-After applied)
	// Err is the error of the last fetch when it failed on the network
	// (StatusCode 0), as Options.Fetched had it; nil otherwise, or when
	// another Cache made that fetch (a Store shares no errors).
	Err error
	// Policy says in words what applies now, such as "rules fetched
	// 2026-11-23T10:00:00Z", "disallow all: 503 since 2026-11-23T10:00:00Z,
	// retried at 2026-11-23T10:10:00Z" or "disallow all: network error
	// (robots: ... connection refused) since ...".
	Policy string
}

// String returns the robots.txt URL and the policy that applies to it.
func (s HostState) String() string {
	return s.RobotsURL + ": " + s.Policy
}

// A phase is the part of Google's error policy that applies to a host.
type phase uint8

const (
	phaseUnknown   phase = iota // never fetched, or only by someone else still
	phaseGood                   // the last fetch was good
	phaseDisallow               // failing, for less than DisallowFor
	phaseStale                  // failing, less than StaleFor: the last good copy
	phaseReachable              // failing beyond StaleFor, the site reachable
	phaseGone                   // failing beyond StaleFor, the site unreachable
)

// phaseOf returns the phase of the policy that applies at now to a host in
// state st. This is where Google's policy for server errors lives:
//
//	"1. For the first 12 hours, Google stops crawling the site but keeps
//	trying to fetch the robots.txt file.
//	2. If Google can't fetch a new version, for the next 30 days Google will
//	use the last good version, while still trying to fetch a new version.
//	[...] If there's no cached version available Google assumes there's no
//	crawl restrictions.
//	3. If the errors are still not fixed after 30 days:
//	- If the site is generally available to Google, Google will behave as if
//	there is no robots.txt file (but still keep checking for a new version).
//	- If the site has general availability problems, Google will stop
//	crawling the site, while still periodically requesting a robots.txt
//	file."
func (o *Options) phaseOf(st *State, now time.Time) phase {
	switch failing := now.Sub(st.FailingSince); {
	case st.FetchedAt.IsZero():
		return phaseUnknown
	case st.FailingSince.IsZero():
		return phaseGood
	case failing < o.DisallowFor:
		return phaseDisallow
	case failing < o.StaleFor:
		return phaseStale
	case o.Reachable != nil && o.Reachable(st.RobotsURL):
		return phaseReachable
	}
	return phaseGone
}

// rulesIn returns the rules that apply in phase p, good being the parsed
// last good copy or nil.
func rulesIn(p phase, good *robots.Robots) *robots.Robots {
	switch p {
	case phaseGood, phaseStale:
		if good != nil {
			return good
		}
		return robots.AllowAll()
	case phaseReachable:
		return robots.AllowAll()
	}
	return robots.DisallowAll()
}

// describe returns in words the policy that applies in phase p; err is the
// error of the last fetch if it failed on the network, or nil.
func describe(p phase, st *State, err error) string {
	switch p {
	case phaseUnknown:
		return "disallow all: robots.txt not fetched yet"
	case phaseGood:
		return good(st) + " fetched " + stamp(st.GoodAt)
	case phaseDisallow:
		return "disallow all: " + failure(st, err)
	case phaseStale:
		if st.GoodStatus == 0 {
			return "allow all (no good copy): " + failure(st, err)
		}
		return "last good copy, " + good(st) + " fetched " + stamp(st.GoodAt) + ": " + failure(st, err)
	case phaseReachable:
		return "allow all (site reachable): " + failure(st, err)
	}
	return "disallow all (site unreachable): " + failure(st, err)
}

// good names the last good copy of st: "rules", or "allow all: 404".
func good(st *State) string {
	if 200 <= st.GoodStatus && st.GoodStatus <= 299 {
		return "rules"
	}
	return "allow all: " + strconv.Itoa(st.GoodStatus)
}

// failure describes the run of failures of st: "503 since …, retried at …",
// or "network error (err) since …".
func failure(st *State, err error) string {
	what := "network error"
	if st.StatusCode == 0 && err != nil {
		what += " (" + err.Error() + ")"
	} else if st.StatusCode != 0 {
		what = strconv.Itoa(st.StatusCode)
	}
	return what + " since " + stamp(st.FailingSince) + ", retried at " + stamp(st.NextFetch)
}

// stamp formats t for a policy description.
func stamp(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}
