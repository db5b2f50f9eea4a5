package redisstore_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// countHook counts the commands a client sends: its round trips, since
// none is pipelined.
type countHook struct{ n atomic.Int64 }

func (h *countHook) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *countHook) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}
func (h *countHook) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(int64(len(cmds)))
		return next(ctx, cmds)
	}
}

// BenchmarkReserve measures the reservation of a slot by
// Politeness.Reserve: in memory (no Store), and in Redis (one script call,
// EVALSHA), and reports the commands sent to Redis per reservation. The
// host's robots.txt is in the Cache already; its Crawl-delay is 0, so the
// slots do not run ahead.
func BenchmarkReserve(b *testing.B) {
	d := &delaySite{robots: map[string]int{}, pages: map[string][]time.Time{}}
	host := d.host(b, "User-agent: *\nCrawl-delay: 0\n")
	page := host + "/page"
	for _, where := range []string{"local", "redis"} {
		b.Run(where, func(b *testing.B) {
			opts := fetch.Options{AllowPrivate: true}
			var hook countHook
			if where == "redis" {
				rdb := client(b, redisAddr)
				rdb.AddHook(&hook)
				opts.Store = redisstore.New(rdb, redisstore.Options{Prefix: "bench-reserve:"})
			}
			p, err := fetch.NewPoliteness(fetch.NewCache(nil, userAgent, opts), fetch.PoliteOptions{})
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			if _, err := p.Reserve(ctx, page); err != nil { // the robots.txt, and the script loaded
				b.Fatal(err)
			}
			cmds := hook.n.Load()
			b.ReportAllocs()
			for b.Loop() {
				if _, err := p.Reserve(ctx, page); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(hook.n.Load()-cmds)/float64(b.N), "cmds/op")
			if st := p.Stats(); where == "redis" && st.Shared != st.Slots {
				b.Fatalf("Stats() = %+v: slots taken alone", st)
			}
		})
	}
}
