package redisstore_test

import (
	"context"
	"math"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// The inputs of the sizing model in README.md, measured on the files of
// -corpus:
//
//	go test -run '^$' -bench 'StateBytes|RedisHitCorpus' -count 6 -corpus /path/to/robots.txt/files

// bySize returns the files of the corpus in order of size, and the
// median and 99th-percentile ones (nearest rank).
func bySize(b *testing.B) (files [][]byte, median, p99 []byte) {
	files = corpus(b)
	sort.SliceStable(files, func(i, j int) bool { return len(files[i]) < len(files[j]) })
	rank := func(q float64) []byte { return files[int(math.Ceil(q*float64(len(files))))-1] }
	return files, rank(0.5), rank(0.99)
}

// goodState returns the state of a good fetch of body from robotsURL now.
func goodState(robotsURL string, body []byte) fetch.State {
	now := time.Now()
	return fetch.State{
		RobotsURL: robotsURL, GoodStatus: 200, Body: body, GoodAt: now, GoodUntil: now.Add(24 * time.Hour),
		Outcome: fetch.Success, StatusCode: 200, FetchedAt: now, NextFetch: now.Add(24 * time.Hour),
	}
}

// BenchmarkStateBytes saves the state of every file of the corpus, each
// for its own host, and reports what Redis holds per host (MEMORY USAGE of
// the state key: key, value, and Redis's own bookkeeping) beside the file:
// the mean over the corpus, and for the median and 99th-percentile files.
func BenchmarkStateBytes(b *testing.B) {
	files, median, p99 := bySize(b)
	srv := startServer(b)
	rdb := client(b, srv.Addr())
	store := redisstore.New(rdb, redisstore.Options{})
	ctx := context.Background()
	usage := func(h int, body []byte) int64 {
		u := "http://host" + strconv.Itoa(h) + ".example/robots.txt"
		if err := store.Save(ctx, goodState(u, body)); err != nil {
			b.Fatal(err)
		}
		n, err := rdb.MemoryUsage(ctx, store.StateKey(u), 0).Result()
		if err != nil {
			b.Fatal(err)
		}
		return n
	}
	for b.Loop() {
		var total, bodies int64
		for h, body := range files {
			total += usage(h, body)
			bodies += int64(len(body))
		}
		n := float64(len(files))
		b.ReportMetric(float64(total)/n, "redis-B/host-mean")
		b.ReportMetric(float64(bodies)/n, "file-B-mean")
		b.ReportMetric(float64(usage(-1, median)), "redis-B/host-median")
		b.ReportMetric(float64(len(median)), "file-B-median")
		b.ReportMetric(float64(usage(-2, p99)), "redis-B/host-p99")
		b.ReportMetric(float64(len(p99)), "file-B-p99")
	}
}

// BenchmarkRedisHitCorpus measures, for the median and 99th-percentile
// files of the corpus, a question that a new Cache (a new worker) cannot
// answer from memory but Redis can (GETRANGE, decode, parse, answer), and
// the parse alone (Parse and MemSize, as the Cache does).
func BenchmarkRedisHitCorpus(b *testing.B) {
	_, median, p99 := bySize(b)
	srv := startServer(b)
	store := redisstore.New(client(b, srv.Addr()), redisstore.Options{})
	ctx := context.Background()
	for _, f := range []struct {
		name string
		body []byte
	}{{"median", median}, {"p99", p99}} {
		const robotsURL = "http://bench.example/robots.txt"
		b.Run(f.name+"/redis-hit", func(b *testing.B) {
			if err := store.Save(ctx, goodState(robotsURL, f.body)); err != nil {
				b.Fatal(err)
			}
			opts := fetch.Options{Store: store, Fetched: func(*fetch.Result, error) { b.Fatal("fetched") }}
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				c := fetch.NewCache(nil, userAgent, opts)
				if _, err := c.Allowed(ctx, "FleetBot", "http://bench.example/some/page"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(f.name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			b.ReportAllocs()
			for b.Loop() {
				robots.Parse(f.body).MemSize()
			}
		})
	}
}

// BenchmarkDecode measures reading a value that Load got from Redis, for
// the median and 99th-percentile files of the corpus: kept compressed
// (version 2, inflated on each read) and as is (version 1), beside parsing
// it. It reports the process's CPU time per read too (getrusage), steadier
// than the wall clock on a loaded machine.
func BenchmarkDecode(b *testing.B) {
	_, median, p99 := bySize(b)
	const robotsURL = "http://bench.example/robots.txt"
	for _, f := range []struct {
		name string
		body []byte
	}{{"median", median}, {"p99", p99}} {
		st := goodState(robotsURL, f.body)
		for _, v := range []struct {
			name  string
			value []byte
		}{{"deflated", redisstore.Encode(&st)}, {"as-is", redisstore.EncodeV1(&st)}} {
			b.Run(f.name+"/"+v.name, func(b *testing.B) {
				b.SetBytes(int64(len(f.body)))
				b.ReportAllocs()
				cpu := processCPU()
				for b.Loop() {
					if _, err := redisstore.Decode(v.value, robotsURL); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
				b.ReportMetric(float64(len(v.value)), "value-B")
			})
		}
		b.Run(f.name+"/parse", func(b *testing.B) {
			b.SetBytes(int64(len(f.body)))
			cpu := processCPU()
			for b.Loop() {
				robots.Parse(f.body).MemSize()
			}
			b.ReportMetric(float64((processCPU()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
		})
	}
}
