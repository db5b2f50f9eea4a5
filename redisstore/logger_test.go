package redisstore_test

import (
	"log"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
	"github.com/redis/go-redis/v9"
)

// envLogs names the logger of a worker process of TestRedisLogsRouted:
// "default" (go-redis's own) or "routed" (redisstore.NewLogger).
const envLogs = "REDISSTORE_LOGS_WORKER"

// TestRedisLogsRouted runs a worker process whose 4 Caches ask about 20
// hosts while Redis is down, once with go-redis's own logger and once with
// its logs routed through redisstore.NewLogger, and counts the lines
// go-redis writes to stderr.
func TestRedisLogsRouted(t *testing.T) {
	srv := startServer(t)
	srv.kill() // down: every dial is refused
	s := newSite(t)
	run := func(mode string) (lines int, out string) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRedisLogsWorker$", "-test.count=1")
		cmd.Env = append(os.Environ(), envLogs+"="+mode, envRedis+"="+srv.Addr(), envSite+"="+s.srv.Listener.Addr().String())
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s worker: %v\n%s", mode, err, stderr.String())
		}
		for line := range strings.Lines(stderr.String()) {
			if strings.HasPrefix(line, "redis: ") {
				lines++
			}
		}
		return lines, stderr.String()
	}
	def, _ := run("default")
	routed, out := run("routed")
	t.Logf("Redis down, 4 Caches × 20 hosts: go-redis wrote %d lines to stderr with its own logger, %d routed through NewLogger(…, time.Minute)", def, routed)
	if routed > 1 || def <= routed {
		t.Errorf("%d lines routed (want at most 1), %d with go-redis's logger:\n%s", routed, def, out)
	}
}

// TestRedisLogsWorker is the worker process of TestRedisLogsRouted. Run by
// itself, it checks nothing and passes.
func TestRedisLogsWorker(t *testing.T) {
	mode := os.Getenv(envLogs)
	if mode == "" {
		return
	}
	if mode == "routed" {
		redis.SetLogger(redisstore.NewLogger(log.New(os.Stderr, "redis: ", log.LstdFlags), time.Minute))
	}
	store := redisstore.New(client(t, os.Getenv(envRedis)), redisstore.Options{})
	var faults atomic.Int64
	caches := make([]*fetch.Cache, 4)
	for i := range caches {
		caches[i] = fetch.NewCache(siteClient(os.Getenv(envSite)), userAgent, fetch.Options{
			Store: store, StoreFault: func(string, error) { faults.Add(1) },
		})
	}
	askAll(t, caches, 20, 10*time.Second)
	if faults.Load() == 0 {
		t.Errorf("no fault reported with Redis down")
	}
}

// TestLogger checks that a Logger writes one line per interval and counts
// those it left out.
func TestLogger(t *testing.T) {
	var buf strings.Builder
	l := redisstore.NewLogger(log.New(&buf, "redis: ", 0), 100*time.Millisecond)
	for i := range 3 {
		l.Printf(t.Context(), "dial %d refused", i)
	}
	time.Sleep(150 * time.Millisecond)
	l.Printf(t.Context(), "dial %d refused", 3)
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 2 || lines[0] != "redis: dial 0 refused" || !strings.HasPrefix(lines[1], "redis: dial 3 refused (2 more lines left out since ") {
		t.Errorf("Logger wrote %q; want dial 0, then dial 3 with 2 left out", lines)
	}
}
