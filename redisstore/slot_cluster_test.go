package redisstore_test

import (
	"context"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// TestClusterSlotsFailover runs two processes' worth of Queues (two
// workers each, each process its own Cluster client, FleetSize 2) over 12
// hosts with "Crawl-delay: 0.5" on the 6-node Cluster, and kills the master
// of host 0 mid-crawl. No worker stalls: each gets a URL at least every
// few seconds. No host is hammered: in any 2 s, at most the 4 requests
// its delay allows and 2 more. Each process takes slots alone while the
// master is down, and shares them again after its replica's promotion.
func TestClusterSlotsFailover(t *testing.T) {
	const hosts, delay, window = 12, 500 * time.Millisecond, 2 * time.Second
	c := startCluster(t, time.Second)
	s := newSite(t)
	s.body = "User-agent: *\nCrawl-delay: 0.5\n"
	admin := clusterClient(t, c, nil)
	victim := masterOf(t, admin, page(0, "/"))
	var replica string
	top := topology(t, victim)
	for _, n := range top {
		if n.master == top[victim].id {
			replica = n.addr
		}
	}
	if replica == "" {
		t.Fatalf("no replica of %s in %v", victim, top)
	}

	type start struct {
		host int
		at   time.Time
	}
	var mu sync.Mutex
	var starts []start
	var ps []*fetch.Politeness
	var queues []*fetch.Queue
	for range 2 {
		store := redisstore.New(clusterClient(t, c, nil), redisstore.Options{})
		cache := fetch.NewCache(s.client(), userAgent, fetch.Options{Store: store, StoreTimeout: time.Second,
			StoreFault: func(string, error) {}})
		p, err := fetch.NewPoliteness(cache, fetch.PoliteOptions{FleetSize: 2})
		if err != nil {
			t.Fatal(err)
		}
		q := fetch.NewQueue(p, fetch.QueueOptions{})
		ps, queues = append(ps, p), append(queues, q)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var wg sync.WaitGroup
	var maxGap time.Duration
	for i, q := range queues {
		wg.Go(func() { // the pages: more than the crawl can take
			for n := 0; ctx.Err() == nil; n++ {
				if q.Push(ctx, page(n%hosts, "/"+string(rune('a'+i)))) != nil {
					return
				}
			}
		})
		for range 2 {
			wg.Go(func() {
				last := time.Now()
				for {
					u, err := q.Next(ctx)
					if err != nil {
						return
					}
					now := time.Now()
					var h int
					for h = 0; page(h, "/"+string(rune('a'+i))) != u; h++ {
					}
					ps[i].Answered(ctx, u, http.StatusOK, nil) // as a Transport would
					mu.Lock()
					starts = append(starts, start{h, now})
					maxGap = max(maxGap, now.Sub(last))
					mu.Unlock()
					last = now
				}
			})
		}
	}
	time.Sleep(time.Second)
	killed := time.Now()
	c.node(victim).kill()
	var before [2]fetch.WaitStats
	for deadline := killed.Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if nodes, err := clusterNodes(replica); err == nil && nodes[replica].isMaster {
			t.Logf("promoted %v after the kill", time.Since(killed).Round(time.Millisecond))
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no promotion 30 s after the kill")
		}
	}
	// Shared again: a second in which both processes take slots in Redis
	// and none alone, within 10 s of the promotion.
	promoted := time.Now()
	for {
		for i, p := range ps {
			before[i] = p.Stats()
		}
		time.Sleep(time.Second)
		again := true
		for i, p := range ps {
			st := p.Stats()
			again = again && st.Shared-before[i].Shared >= 2 && st.Alone == before[i].Alone
		}
		if again {
			t.Logf("shared again within %v of the promotion", time.Since(promoted).Round(time.Millisecond))
			break
		}
		if time.Since(promoted) > 10*time.Second {
			t.Errorf("not shared again 10 s after the promotion: %+v, %+v", ps[0].Stats(), ps[1].Stats())
			break
		}
	}
	cancel()
	wg.Wait()
	for i, p := range ps {
		st := p.Stats()
		t.Logf("process %d: %+v", i, st)
		if st.Alone == 0 {
			t.Errorf("process %d took no slot alone while a master was down", i)
		}
	}
	if maxGap > 5*time.Second {
		t.Errorf("a worker waited %v for a URL, with 12 hosts a delay of 0.5 s", maxGap)
	}
	byHost := make([][]time.Time, hosts)
	for _, s := range starts {
		byHost[s.host] = append(byHost[s.host], s.at)
	}
	worst := 0
	for h, ts := range byHost {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Before(ts[j]) })
		for i := range ts {
			n := sort.Search(len(ts), func(j int) bool { return !ts[j].Before(ts[i].Add(window)) }) - i
			worst = max(worst, n)
			if n > int(window/delay)+2 {
				t.Errorf("host%d: %d requests within %v from %v after the kill", h, n, window, ts[i].Sub(killed).Round(time.Millisecond))
				break
			}
		}
	}
	t.Logf("%d requests; the most to one host in %v: %d; the longest wait for a URL %v", len(starts), window, worst, maxGap.Round(time.Millisecond))
}
