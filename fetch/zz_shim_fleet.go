// Stand-in for the fleet branch's API; delete at merge.

package fetch

import (
	"context"
	"time"

	"github.com/gorep/robots"
)

// HostState is what a Cache knows of one host (stand-in).
type HostState struct {
	RobotsURL    string
	Outcome      Outcome
	StatusCode   int
	FetchedAt    time.Time
	GoodUntil    time.Time
	FailingSince time.Time
	NextFetch    time.Time
	Policy       string // in words what applies now, e.g. "disallow all: 503 since 10:00, retried at 10:10"
}

// String returns the policy in words (stand-in).
func (s HostState) String() string { return s.Policy }

// State returns what the cache knows of the host of pageURL (stand-in).
func (c *Cache) State(pageURL string) (HostState, bool) {
	u, _ := robots.URL(pageURL)
	return HostState{RobotsURL: u}, false
}

// Decide returns the decision for agent and pageURL under the rules that
// apply now (stand-in).
func (c *Cache) Decide(ctx context.Context, agent, pageURL string) (robots.Decision, error) {
	r, err := c.Robots(ctx, pageURL)
	if err != nil {
		return robots.Decision{}, err
	}
	return r.Decide(agent, pageURL), nil
}

// UserAgent returns the User-Agent header the cache sends (stand-in).
func (c *Cache) UserAgent() string { return c.userAgent }
