package redisstore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
)

// BenchmarkClusterFailover measures, shard by shard, what the SIGKILL of a
// master costs a fleet with the default Options (StoreTimeout 200 ms,
// LeaseWait 500 ms) on a Cluster of 3 masters and 3 replicas
// (cluster-node-timeout 1 s). Open loop: every tick (50 ms), each of the 4
// Caches asks about the same 6 fresh hosts, whatever the earlier questions
// still wait for, so that a slow shard does not slow the questions about the
// others. A host is shared when it was fetched once for the 4 Caches. It
// reports, for the killed master's hosts and the healthy masters' apart,
// the share of hosts shared in the worst second after the kill, when
// sharing came back after the promotion, and the slowest answer. Run it
// once: go test -run '^$' -bench ClusterFailover -benchtime 1x -v.
func BenchmarkClusterFailover(b *testing.B) {
	const (
		workers, perTick = 4, 6
		tick             = 50 * time.Millisecond
		before, after    = 2 * time.Second, 10 * time.Second
	)
	ticks := int((before + after) / tick)
	c := startCluster(b, time.Second)
	s, clock := newSite(b), newClock()
	var faults atomic.Int64
	caches := clusterFleet(b, c, s, clock, workers, &faults, nil, fetch.Options{})
	admin := clusterClient(b, c, nil)
	victim := masterOf(b, admin, page(0, "/"))
	var replica string
	top := topology(b, victim)
	for _, n := range top {
		if n.master == top[victim].id {
			replica = n.addr
		}
	}
	// The shard of each host, as the Cluster placed it before the kill:
	// the victim's slots go to its replica.
	onVictim := make([]bool, ticks*perTick)
	for h := range onVictim {
		onVictim[h] = masterOf(b, admin, page(h, "/")) == victim
	}

	type answer struct {
		at, took time.Duration // since the kill (negative: before)
		host     int
		err      error
		wrong    bool
	}
	var mu sync.Mutex
	var answers []answer
	var wg sync.WaitGroup
	var killed, promoted time.Time
	var promotedOnce sync.Once
	start := time.Now()
	b.ResetTimer()
	for i := range ticks {
		time.Sleep(time.Until(start.Add(time.Duration(i) * tick)))
		if i == int(before/tick) {
			killed = time.Now()
			c.node(victim).kill()
			wg.Go(func() {
				for time.Since(killed) < after {
					if nodes, err := clusterNodes(replica); err == nil && nodes[replica].isMaster {
						promotedOnce.Do(func() { promoted = time.Now() })
						return
					}
					time.Sleep(20 * time.Millisecond)
				}
			})
		}
		k := killed
		for _, cache := range caches {
			for h := i * perTick; h < (i+1)*perTick; h++ {
				wg.Go(func() {
					t0 := time.Now()
					ok, err := cache.Allowed(context.Background(), "FleetBot", page(h, "/public"))
					took := time.Since(t0)
					st, _ := cache.State(page(h, "/"))
					wrong := !ok && !strings.HasPrefix(st.Policy, "disallow all")
					at := t0.Sub(start) - before
					if !k.IsZero() {
						at = t0.Sub(k)
					}
					mu.Lock()
					answers = append(answers, answer{at: at, took: took, host: h, err: err, wrong: wrong})
					mu.Unlock()
				})
			}
		}
	}
	wg.Wait()
	b.StopTimer()

	// By second since the kill and shard: hosts asked, hosts shared, the
	// slowest answer, answers over StoreTimeout + LeaseWait.
	type bucket struct {
		hosts, shared, slow int
		max                 time.Duration
		seen                map[int]bool
	}
	buckets := map[[2]int]*bucket{} // [second, 1 if victim]
	errs, wrong := 0, 0
	var slowest [2]time.Duration
	s.mu.Lock()
	for _, a := range answers {
		if a.err != nil {
			errs++
		}
		if a.wrong {
			wrong++
		}
		sec := int(a.at / time.Second)
		if a.at < 0 {
			sec = -1
		}
		v := 0
		if onVictim[a.host] {
			v = 1
		}
		bk := buckets[[2]int{sec, v}]
		if bk == nil {
			bk = &bucket{seen: map[int]bool{}}
			buckets[[2]int{sec, v}] = bk
		}
		if !bk.seen[a.host] {
			bk.seen[a.host] = true
			bk.hosts++
			if s.byHost[fmtHost(a.host)] == 1 {
				bk.shared++
			}
		}
		bk.max = max(bk.max, a.took)
		slowest[v] = max(slowest[v], a.took)
		if a.took > 700*time.Millisecond {
			bk.slow++
		}
	}
	s.mu.Unlock()
	var keys [][2]int
	for k := range buckets {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(x, y [2]int) int { return (x[0]-y[0])*2 + x[1] - y[1] })
	var out strings.Builder
	fmt.Fprintf(&out, "killed %s; replica %s promoted %v after the kill; %d answers, %d errors, %d wrong, %d faults\n",
		victim, replica, promoted.Sub(killed).Round(time.Millisecond), len(answers), errs, wrong, faults.Load())
	fmt.Fprintf(&out, "second  shard    hosts shared  slowest  over 700ms\n")
	worst := [2]float64{1, 1}
	backAt := time.Duration(-1)
	for _, k := range keys {
		bk := buckets[k]
		name := "healthy"
		if k[1] == 1 {
			name = "killed"
		}
		ratio := float64(bk.shared) / float64(bk.hosts)
		if k[0] >= 0 {
			worst[k[1]] = min(worst[k[1]], ratio)
		}
		fmt.Fprintf(&out, "%6d  %-7s  %5d %6d  %7v  %d\n", k[0], name, bk.hosts, bk.shared, bk.max.Round(time.Millisecond), bk.slow)
	}
	// When the killed master's hosts were shared again for good: the first
	// tick after which every one of its hosts was fetched once.
	sort := append([]answer(nil), answers...)
	slices.SortFunc(sort, func(x, y answer) int { return int(x.at - y.at) })
	s.mu.Lock()
	for i := len(sort) - 1; i >= 0; i-- {
		a := sort[i]
		if a.at < 0 || !onVictim[a.host] {
			continue
		}
		if s.byHost[fmtHost(a.host)] != 1 {
			break
		}
		backAt = a.at
	}
	s.mu.Unlock()
	b.Log(out.String())
	b.Logf("killed master's hosts shared again from %v after the kill (%v after the promotion)",
		backAt.Round(time.Millisecond), (backAt - promoted.Sub(killed)).Round(time.Millisecond))
	b.ReportMetric(100*worst[0], "%shared-healthy-worst-s")
	b.ReportMetric(100*worst[1], "%shared-killed-worst-s")
	b.ReportMetric(float64(slowest[0].Milliseconds()), "ms-slowest-healthy")
	b.ReportMetric(float64(slowest[1].Milliseconds()), "ms-slowest-killed")
	b.ReportMetric((backAt - promoted.Sub(killed)).Seconds(), "s-shared-after-promotion")
	if errs != 0 || wrong != 0 {
		b.Errorf("%d errors, %d wrong answers; want none", errs, wrong)
	}
}
