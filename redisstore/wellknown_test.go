package redisstore_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

// TestFleetOneTDMRepPerOrigin runs W Caches sharing one Redis over H sites
// at once, each asking usage.Ask about a page of each site: tdmrep.json,
// kept by the Cache as robots.txt is, is fetched once per site for the
// whole fleet (issue 32: one tdmrep.json fetch per origin for a fleet),
// and its reservation reaches every Cache's answer; a site whose robots.txt
// disallows it is never asked for it.
func TestFleetOneTDMRepPerOrigin(t *testing.T) {
	const workers, hosts = 6, 10
	var robotsFetches, tdmFetches, forbidden atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			robotsFetches.Add(1)
			if r.Host == "host0.example" {
				fmt.Fprint(w, "User-agent: *\nDisallow: /.well-known/\n")
				return
			}
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/.well-known/tdmrep.json":
			if r.Host == "host0.example" {
				forbidden.Add(1)
			}
			tdmFetches.Add(1)
			fmt.Fprint(w, `[{"location":"/articles/","tdm-reservation":1}]`)
		default:
			fmt.Fprint(w, "page")
		}
	}))
	defer srv.Close()
	redis := startServer(t)
	store := redisstore.New(client(t, redis.Addr()), redisstore.Options{})
	opts := fetch.Options{Store: store, StoreTimeout: 2 * time.Second, LeaseWait: 10 * time.Second}
	caches := make([]*fetch.Cache, workers)
	for i := range caches {
		caches[i] = fetch.NewCache(siteClient(srv.Listener.Addr().String()), userAgent, opts)
	}
	var wg sync.WaitGroup
	for _, c := range caches {
		for h := range hosts {
			wg.Go(func() {
				p, err := usage.Ask(context.Background(), c, "FleetBot", page(h, "/articles/a"))
				if err != nil {
					t.Errorf("Ask(host%d): %v", h, err)
					return
				}
				want := signals.Deny
				if h == 0 {
					want = signals.Unknown // tdmrep.json not fetched: nothing known
				}
				if got := p.Decision.Uses.AITrain.Answer; got != want {
					t.Errorf("host%d: ai-train %s, want %s (%q)", h, got, want, p.Decision.Problems)
				}
			})
		}
	}
	wg.Wait()
	for _, c := range caches {
		if err := c.Flush(context.Background()); err != nil {
			t.Error(err)
		}
	}
	if got := tdmFetches.Load(); got != hosts-1 {
		t.Errorf("%d Caches over %d sites: %d tdmrep.json fetches, want %d (one per site that allows it)", workers, hosts, got, hosts-1)
	}
	if got := robotsFetches.Load(); got != hosts {
		t.Errorf("%d robots.txt fetches, want %d", got, hosts)
	}
	if n := forbidden.Load(); n != 0 {
		t.Errorf("tdmrep.json fetched %d times where robots.txt disallows it", n)
	}
}
