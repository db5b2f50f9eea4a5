package redisstore_test

import (
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// The scale of BenchmarkFleetScale, and the real files its hosts serve.
var (
	scaleHosts   = flag.Int("scale.hosts", 2000, "hosts in BenchmarkFleetScale")
	scaleWorkers = flag.Int("scale.workers", 8, "Caches (worker processes) in BenchmarkFleetScale")
	corpusDir    = flag.String("corpus", "../testdata/realworld", "directory of robots.txt files that the hosts of the benchmarks serve")
)

// corpus returns the files of *corpusDir, in order of name (of any size).
func corpus(b *testing.B) [][]byte {
	names, err := filepath.Glob(filepath.Join(*corpusDir, "*"))
	if err != nil || len(names) == 0 {
		b.Fatalf("no files in %s: %v", *corpusDir, err)
	}
	var files [][]byte
	for _, n := range names {
		body, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, body)
	}
	return files
}

// A corpusSite serves file h mod len(files) of the corpus as the robots.txt
// of host h, and counts the fetches.
type corpusSite struct {
	srv     *httptest.Server
	fetches atomic.Int64
}

func newCorpusSite(b *testing.B, files [][]byte) *corpusSite {
	s := &corpusSite{}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.Host, "host"), ".example"))
		if r.URL.Path == "/robots.txt" {
			s.fetches.Add(1)
		}
		w.Write(files[h%len(files)])
	}))
	b.Cleanup(s.srv.Close)
	return s
}

// client returns an HTTP client that sends every request, whatever its
// host, to the site as to a proxy: one pool of connections for all the
// fake hosts, rather than a connection (and a port) per host.
func (s *corpusSite) client() *http.Client {
	c := siteClient(s.srv.Listener.Addr().String())
	proxy, _ := url.Parse(s.srv.URL)
	c.Transport.(*http.Transport).Proxy = http.ProxyURL(proxy)
	c.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	return c
}

// A cmdCount counts the commands a client sends for the Store, not those
// that set up a connection (HELLO, CLIENT SETINFO) or learn the slots of a
// Cluster.
type cmdCount struct{ n atomic.Int64 }

func (h *cmdCount) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *cmdCount) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		switch cmd.Name() {
		case "hello", "client", "cluster":
		default:
			h.n.Add(1)
		}
		return next(ctx, cmd)
	}
}
func (h *cmdCount) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

// BenchmarkFleetScale runs a fleet at scale: -scale.workers Caches (each
// with its own client, as worker processes) over -scale.hosts hosts that
// serve the files of -corpus, over one Redis and over a Cluster of three
// masters. Each Cache asks about every host once, 16 questions at a time,
// starting at a different host; then again (local hits); then a new fleet
// of as many Caches asks about every host (local misses that Redis
// answers). It reports the fetches (must be the hosts), Redis memory per
// host (INFO used_memory, all masters), the commands per question of each
// phase, the time and process CPU per question, and Redis CPU per command.
//
//	go test -run '^$' -bench FleetScale -benchtime 1x -scale.hosts 20000 -corpus /path/to/robots.txt/files
func BenchmarkFleetScale(b *testing.B) {
	files := corpus(b)
	b.Run("redis", func(b *testing.B) {
		srv := startServer(b)
		scale(b, files, []string{srv.Addr()}, func(hook redis.Hook) redis.UniversalClient {
			rdb := client(b, srv.Addr())
			rdb.AddHook(hook)
			return rdb
		})
	})
	b.Run("cluster", func(b *testing.B) {
		c := startCluster(b, 15*time.Second)
		rdb := clusterClient(b, c, nil)
		var masters []string
		rdb.ForEachMaster(context.Background(), func(_ context.Context, m *redis.Client) error {
			masters = append(masters, m.Options().Addr)
			return nil
		})
		scale(b, files, masters, func(hook redis.Hook) redis.UniversalClient {
			rdb := clusterClient(b, c, nil)
			rdb.OnNewNode(func(n *redis.Client) { n.AddHook(hook) })
			return rdb
		})
	})
}

// scale runs the phases of BenchmarkFleetScale with clients made by
// newClient over the Redis masters at masters.
func scale(b *testing.B, files [][]byte, masters []string, newClient func(redis.Hook) redis.UniversalClient) {
	hosts, workers := *scaleHosts, *scaleWorkers
	site := newCorpusSite(b, files)
	var bodyBytes int64
	for h := range hosts {
		bodyBytes += int64(len(files[h%len(files)]))
	}
	for b.Loop() {
		for _, m := range masters {
			admin := redis.NewClient(&redis.Options{Addr: m})
			admin.FlushAll(context.Background())
			admin.Close()
		}
		site.fetches.Store(0)
		mem0, cpu0 := redisInfo(b, masters)
		var cmds cmdCount
		fleet := func() []*fetch.Cache {
			caches := make([]*fetch.Cache, workers)
			for i := range caches {
				caches[i] = fetch.NewCache(site.client(), userAgent, fetch.Options{
					Store:        redisstore.New(newClient(&cmds), redisstore.Options{}),
					StoreTimeout: 2 * time.Second, LeaseWait: 10 * time.Second,
					MaxHosts: hosts, MaxBytes: 1 << 30, // every host kept: local hits
					StoreFault: func(u string, err error) { b.Errorf("fault: %s: %v", u, err) },
				})
			}
			return caches
		}
		phase := func(name string, caches []*fetch.Cache) {
			c0, f0, t0, p0 := cmds.n.Load(), site.fetches.Load(), time.Now(), processCPU()
			askEvery(b, caches, hosts)
			took := time.Since(t0)
			settle(&cmds) // the saves and releases after the answers
			cpu := processCPU() - p0
			questions := float64(workers * hosts)
			b.ReportMetric(float64(cmds.n.Load()-c0)/questions, "cmds/q-"+name)
			b.ReportMetric(float64(took.Microseconds())/questions, "µs/q-"+name)
			b.ReportMetric(float64(cpu.Microseconds())/questions, "cpu-µs/q-"+name)
			if name == "miss" {
				b.ReportMetric(float64(site.fetches.Load()-f0), "fetches")
				b.ReportMetric(took.Seconds(), "s-miss")
			} else if n := site.fetches.Load() - f0; n != 0 {
				b.Errorf("%s: %d fetches, want 0", name, n)
			}
		}
		caches := fleet()
		phase("miss", caches)
		mem1, cpu1 := redisInfo(b, masters)
		c1 := cmds.n.Load()
		phase("localhit", caches)
		var kept int
		var held int64
		for _, c := range caches {
			st := c.Stats()
			kept, held = kept+st.Hosts, held+st.Bytes
		}
		b.ReportMetric(float64(kept)/float64(workers*hosts), "kept-ratio")
		b.ReportMetric(float64(held)/float64(kept), "cache-B/host")
		caches = nil
		runtime.GC()
		c2 := cmds.n.Load()
		_, cpu2 := redisInfo(b, masters)
		phase("redishit", fleet())
		_, cpu3 := redisInfo(b, masters)
		c3 := cmds.n.Load()
		b.ReportMetric(float64(mem1-mem0)/float64(hosts), "redis-B/host")
		b.ReportMetric(keyBytes(b, masters), "key-B/host")
		b.ReportMetric(float64(bodyBytes)/float64(hosts), "body-B/host")
		b.ReportMetric((cpu1-cpu0)/float64(c1)*1e6, "redis-cpu-µs/cmd-miss")
		b.ReportMetric((cpu3-cpu2)/float64(c3-c2)*1e6, "redis-cpu-µs/cmd-hit")
		if got := site.fetches.Load(); got != int64(hosts) {
			b.Errorf("%d fetches for %d hosts", got, hosts)
		}
	}
}

// askEvery has each Cache ask about every host once, 16 questions at a
// time, Cache i starting at host i×hosts/len(caches).
func askEvery(b *testing.B, caches []*fetch.Cache, hosts int) {
	var wg sync.WaitGroup
	for i, c := range caches {
		var next atomic.Int64
		for range 16 {
			wg.Go(func() {
				for {
					n := int(next.Add(1)) - 1
					if n >= hosts {
						return
					}
					h := (n + i*hosts/len(caches)) % hosts
					if _, err := c.Allowed(context.Background(), "FleetBot", page(h, "/some/page")); err != nil {
						b.Errorf("host%d: %v", h, err)
					}
				}
			})
		}
	}
	wg.Wait()
}

// redisInfo returns the memory the masters use, in bytes, and the CPU
// time they spent, in seconds.
func redisInfo(b *testing.B, masters []string) (mem int64, cpu float64) {
	for _, m := range masters {
		rdb := redis.NewClient(&redis.Options{Addr: m})
		info, err := rdb.Info(context.Background(), "memory", "cpu").Result()
		rdb.Close()
		if err != nil {
			b.Fatal(err)
		}
		for line := range strings.Lines(info) {
			k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
			switch k {
			case "used_memory":
				n, _ := strconv.ParseInt(v, 10, 64)
				mem += n
			case "used_cpu_sys", "used_cpu_user":
				f, _ := strconv.ParseFloat(v, 64)
				cpu += f
			}
		}
	}
	return mem, cpu
}

// processCPU returns the CPU time this process has spent.
func processCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// settle waits until no command has been sent for 200 ms.
func settle(cmds *cmdCount) {
	for n := int64(-1); n != cmds.n.Load(); {
		n = cmds.n.Load()
		time.Sleep(200 * time.Millisecond)
	}
}

// keyBytes returns the mean MEMORY USAGE of up to 1,000 state keys, and
// their TTL and expiry entries.
func keyBytes(b *testing.B, masters []string) float64 {
	ctx := context.Background()
	var total, n int64
	for _, m := range masters {
		rdb := redis.NewClient(&redis.Options{Addr: m})
		keys, _, err := rdb.Scan(ctx, 0, "robots:*:state", 1000).Result()
		if err != nil {
			b.Fatal(err)
		}
		for _, k := range keys {
			size, err := rdb.MemoryUsage(ctx, k).Result()
			if err != nil {
				b.Fatal(err)
			}
			total += size
			n++
		}
		rdb.Close()
	}
	if n == 0 {
		b.Fatal("no state keys")
	}
	return float64(total) / float64(n)
}
