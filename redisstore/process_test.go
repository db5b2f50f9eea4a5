package redisstore_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/redisstore"
)

// The environment of a worker process of TestFleetProcesses.
const (
	envRedis = "REDISSTORE_WORKER_REDIS"
	envSite  = "REDISSTORE_WORKER_SITE"
	envHosts = "REDISSTORE_WORKER_HOSTS"
)

// TestFleetProcesses runs the fleet as separate OS processes: this test
// binary, started again W times as workers, each with its own Cache, all
// sharing one Redis. Each host is fetched once in all.
func TestFleetProcesses(t *testing.T) {
	const workers, hosts = 4, 25
	srv := startServer(t)
	s := newSite(t)
	procs := make([]*exec.Cmd, workers)
	outs := make([]strings.Builder, workers)
	for i := range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestFleetWorker$", "-test.count=1")
		cmd.Env = append(os.Environ(),
			envRedis+"="+srv.Addr(),
			envSite+"="+s.srv.Listener.Addr().String(),
			envHosts+"="+strconv.Itoa(hosts))
		cmd.Stdout, cmd.Stderr = &outs[i], &outs[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		procs[i] = cmd
	}
	for i, cmd := range procs {
		if err := cmd.Wait(); err != nil {
			t.Errorf("worker %d: %v\n%s", i, err, outs[i].String())
		}
		t.Logf("worker %d:\n%s", i, outs[i].String())
	}
	if got := s.fetches.Load(); got != hosts {
		t.Errorf("%d worker processes over %d hosts: %d fetches, want %d", workers, hosts, got, hosts)
	}
}

// TestFleetWorker is a worker process of TestFleetProcesses; run by itself,
// it checks nothing and passes.
func TestFleetWorker(t *testing.T) {
	addr := os.Getenv(envRedis)
	if addr == "" {
		return // not started as a worker
	}
	hosts, err := strconv.Atoi(os.Getenv(envHosts))
	if err != nil {
		t.Fatal(err)
	}
	var faults atomic.Int64
	c := fetch.NewCache(siteClient(os.Getenv(envSite)), userAgent, fetch.Options{
		Store:        redisstore.New(client(t, addr), redisstore.Options{}),
		StoreTimeout: 2 * time.Second,
		LeaseWait:    10 * time.Second,
		StoreFault:   func(string, error) { faults.Add(1) },
	})
	for h := range hosts {
		ok, err := c.Allowed(context.Background(), "FleetBot", page(h, "/private/x"))
		if ok || err != nil {
			t.Errorf("Allowed(host%d) = %t, %v; want false, nil", h, ok, err)
		}
	}
	// The last fetch is saved after its answer: without Flush the process
	// would exit first, and another worker fetch that host again.
	if err := c.Flush(context.Background()); err != nil {
		t.Errorf("Flush: %v", err)
	}
	if n := faults.Load(); n != 0 {
		t.Errorf("%d store faults", n)
	}
	fmt.Fprintf(os.Stderr, "worker %d: %+v\n", os.Getpid(), c.Stats())
}
