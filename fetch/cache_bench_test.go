package fetch_test

import (
	"context"
	"testing"

	"github.com/gorep/robots/fetch"
)

// BenchmarkCacheAllowedHit measures a question answered from memory: the
// robots.txt URL of the page, the entry, the policy, the match.
func BenchmarkCacheAllowedHit(b *testing.B) {
	s := newSite(b)
	c := fetch.NewCache(nil, testUserAgent, fetch.Options{})
	ctx := context.Background()
	for _, bb := range []struct {
		name, agent string
	}{
		{"token", testAgent},
		{"user-agent-header", testUserAgent},
	} {
		b.Run(bb.name, func(b *testing.B) {
			page := s.URL + "/private/page?q=1"
			if _, err := c.Allowed(ctx, bb.agent, page); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				if ok, _ := c.Allowed(ctx, bb.agent, page); ok {
					b.Fatal("allowed")
				}
			}
		})
	}
}
