package redisstore_test

import (
	"context"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// clusterFleet makes w Caches, each with its own Cluster client and Store,
// as w worker processes would be, counting the faults.
func clusterFleet(t testing.TB, c *cluster, s *site, clock *fakeClock, w int, faults *atomic.Int64, redirects *redirectCount, opts fetch.Options) []*fetch.Cache {
	caches := make([]*fetch.Cache, w)
	opts.Now = clock.Now
	var mu sync.Mutex
	seen := map[string]bool{}
	opts.StoreFault = func(u string, err error) {
		faults.Add(1)
		msg := err.Error()
		if i := strings.LastIndexByte(msg, ':'); i >= 0 && strings.HasPrefix(msg, "dial tcp") {
			msg = msg[i:] // the kind, not the address
		}
		mu.Lock()
		defer mu.Unlock()
		if !seen[msg] && len(seen) < 10 {
			seen[msg] = true
			t.Logf("a fault: %s: %v", u, err)
		}
	}
	for i := range caches {
		opts.Store = redisstore.New(clusterClient(t, c, redirects), redisstore.Options{LeaseTerm: clusterLeaseTerm})
		caches[i] = fetch.NewCache(s.client(), userAgent, opts)
	}
	return caches
}

// clusterLeaseTerm is the lease term of the Cluster tests' Stores. No
// worker of theirs dies: a long term keeps the lease of a holder that a
// loaded machine starves (-race, 20 processes on 2 cores) from running out
// while it fetches, which would let a second worker fetch the file.
const clusterLeaseTerm = 30 * time.Second

// clusterStoreTimeout is the StoreTimeout of the Cluster tests that count
// fetches: a call to a healthy master that times out is rightly a fault,
// and sets the master aside, so it must not time out on a loaded machine.
// A dead master refuses at once, whatever the bound.
const clusterStoreTimeout = 20 * time.Second

// masterOf returns the address of the master that holds the state of the
// host of pageURL, as rdb sees the cluster now.
func masterOf(t testing.TB, rdb *redis.ClusterClient, pageURL string) string {
	t.Helper()
	u, err := url.Parse(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	key := redisstore.New(rdb, redisstore.Options{}).StateKey(u.Scheme + "://" + u.Host + "/robots.txt")
	m, err := rdb.MasterForKey(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	return m.Options().Addr
}

// TestClusterOneFetchPerHost runs W Caches, each with its own Cluster
// client, over H hosts at once, twice: each host is fetched once per round,
// and the hosts are spread over the three masters.
func TestClusterOneFetchPerHost(t *testing.T) {
	const workers, hosts = 4, 60
	start := time.Now()
	c := startCluster(t, 5*time.Second)
	s, clock := newSite(t), newClock()
	var faults atomic.Int64
	opts := fetch.Options{StoreTimeout: clusterStoreTimeout, LeaseWait: 10 * time.Second}
	caches := clusterFleet(t, c, s, clock, workers, &faults, nil, opts)
	for round := 1; round <= 2; round++ {
		askAll(t, caches, hosts, time.Minute)
		if got := s.fetches.Load(); got != int64(round*hosts) {
			t.Errorf("round %d: %d fetches in all, want %d", round, got, round*hosts)
		}
		clock.Add(25 * time.Hour)
	}
	perMaster := map[string]int{}
	rdb := clusterClient(t, c, nil)
	for h := range hosts {
		perMaster[masterOf(t, rdb, page(h, "/"))]++
	}
	if len(perMaster) != 3 || faults.Load() != 0 {
		t.Errorf("hosts by master %v, %d faults; want 3 masters, 0 faults", perMaster, faults.Load())
	}
	t.Logf("%d workers × %d hosts: %d fetches, hosts by master %v, in %v", workers, hosts, s.fetches.Load(), perMaster, time.Since(start).Round(time.Millisecond))
}

// TestClusterFailover kills a master (SIGKILL, by PID) while the fleet asks
// about fresh hosts, round after round: no question fails or waits beyond
// the Cache's bounds, the hosts on the healthy masters are fetched once
// each all along, and the hosts of the killed master are shared again within
// a few seconds of its replica's promotion.
func TestClusterFailover(t *testing.T) {
	const workers, hosts = 4, 30
	// Shared again at most wantGap after the promotion: the Cache leaves a
	// failed shard aside for a second, go-redis then reloads the slots. It
	// is scaled to how slow the machine is now, measured by how long the
	// Cluster took to promote the replica (2.0-2.8 s on an idle machine):
	// five times that, and 3 s at least. Before go-redis was told to reload,
	// it took 57 s.
	wantGap := 3 * time.Second
	start := time.Now()
	c := startCluster(t, time.Second)
	s, clock := newSite(t), newClock()
	var faults atomic.Int64
	// Generous bounds for a loaded machine (see clusterStoreTimeout).
	opts := fetch.Options{StoreTimeout: clusterStoreTimeout, LeaseWait: 10 * time.Second}
	caches := clusterFleet(t, c, s, clock, workers, &faults, nil, opts)
	admin := clusterClient(t, c, nil)

	// The shard of each host, fixed: the victim's slots go to its replica.
	victim := masterOf(t, admin, page(0, "/"))
	onVictim := func(h int) bool { return masterOf(t, admin, page(h, "/")) == victim }
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

	round := 0
	// ask asks every Cache about fresh hosts at once, and returns whether
	// each host of the victim was fetched once; it fails the test if a host
	// of a healthy master was fetched more than once, or a question failed.
	ask := func() (shared bool, fetches int) {
		round++
		first := round * 1000
		askHosts(t, caches, first, hosts, opts.StoreTimeout+opts.LeaseWait+time.Second)
		shared = true
		s.mu.Lock()
		defer s.mu.Unlock()
		for h := first; h < first+hosts; h++ {
			n := s.byHost[fmtHost(h)]
			fetches += n
			switch {
			case onVictim(h):
				shared = shared && n == 1
			case n != 1:
				t.Errorf("round %d: host%d of a healthy master fetched %d times", round, h, n)
			}
		}
		return shared, fetches
	}
	if shared, n := ask(); !shared || n != hosts {
		t.Fatalf("before the failover: %d fetches for %d hosts", n, hosts)
	}

	killed := time.Now()
	c.node(victim).kill()
	var promoted atomic.Int64 // Unix ns
	go func() {
		for time.Since(killed) < 30*time.Second {
			if nodes, err := clusterNodes(replica); err == nil && nodes[replica].isMaster {
				promoted.Store(time.Now().UnixNano())
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	sharedRounds := 0
	var sharedAt time.Time
	lastShared, lastPromoted := true, false
	for sharedRounds < 3 {
		roundStart := time.Now()
		shared, n := ask()
		p := promoted.Load()
		if p != 0 {
			wantGap = max(wantGap, 5*time.Unix(0, p).Sub(killed))
		}
		if shared != lastShared || (p != 0) != lastPromoted {
			t.Logf("round %d at %v after the kill: %d fetches for %d hosts, promoted: %t", round, roundStart.Sub(killed).Round(time.Millisecond), n, hosts, p != 0)
			lastShared, lastPromoted = shared, p != 0
		}
		time.Sleep(50 * time.Millisecond)
		switch {
		case p == 0 && time.Since(killed) > 20*time.Second:
			t.Fatalf("replica %s not promoted 20 s after the kill of %s: it says %v", replica, victim, topology(t, replica))
		case p == 0 || roundStart.UnixNano() < p:
			sharedRounds = 0
		case !shared:
			sharedRounds, sharedAt = 0, time.Time{}
			if roundStart.Sub(time.Unix(0, p)) > wantGap {
				t.Fatalf("not shared again %v after the promotion", roundStart.Sub(time.Unix(0, p)).Round(time.Millisecond))
			}
		default:
			if sharedRounds == 0 {
				sharedAt = roundStart
			}
			sharedRounds++
		}
	}
	p := time.Unix(0, promoted.Load())
	t.Logf("killed %s: replica promoted %v later; shared again %v after the promotion (allowed %v) (%d faults); test took %v",
		victim, p.Sub(killed).Round(time.Millisecond), sharedAt.Sub(p).Round(time.Millisecond), wantGap, faults.Load(), time.Since(start).Round(time.Millisecond))
}

// fmtHost is the host name of host number i, as page writes it.
func fmtHost(i int) string { return "host" + strconv.Itoa(i) + ".example" }

// askHosts asks every cache about hosts first to first+n-1 at once, a
// private and a public page of each, and fails the test on an error, an
// answer slower than bound, or an answer the policy does not give: the
// private page is always refused, the public one allowed unless the policy
// is "disallow all" (not fetched yet, or failing).
func askHosts(t testing.TB, caches []*fetch.Cache, first, n int, bound time.Duration) {
	t.Helper()
	var wg sync.WaitGroup
	for _, c := range caches {
		for h := first; h < first+n; h++ {
			wg.Go(func() {
				ctx := context.Background()
				start := time.Now()
				private, err1 := c.Allowed(ctx, "FleetBot", page(h, "/private/x"))
				public, err2 := c.Allowed(ctx, "FleetBot", page(h, "/public"))
				st, _ := c.State(page(h, "/"))
				if took := time.Since(start); err1 != nil || err2 != nil || took > bound {
					t.Errorf("host%d: errors %v, %v after %v; want none within %v", h, err1, err2, took, bound)
				}
				if private || !public && !strings.HasPrefix(st.Policy, "disallow all") {
					t.Errorf("host%d: /private/x %t, /public %t (%s); want false, true unless disallow all", h, private, public, st.Policy)
				}
			})
		}
	}
	wg.Wait()
}
