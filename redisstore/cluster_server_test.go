package redisstore_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// A cluster is a Redis Cluster of six redis-server processes on 127.0.0.1
// that a test started (three masters, each with a replica), and stops at its
// end.
type cluster struct {
	nodes []*server
}

// startCluster starts six cluster-enabled redis-servers on free ports,
// joins them with `redis-cli --cluster create --cluster-replicas 1`, and
// waits until every node sees all 16384 slots served. A master that does
// not answer for nodeTimeout (cluster-node-timeout) is failed over: short
// for a fast failover, long enough that a loaded machine does not fail
// over a busy master.
func startCluster(t testing.TB, nodeTimeout time.Duration) *cluster {
	t.Helper()
	if _, err := exec.LookPath("redis-cli"); err != nil {
		t.Fatalf("redis-cli not found (%v): install it with `apt-get install -y redis-server`", err)
	}
	start := time.Now()
	dir := t.TempDir()
	used := map[int]bool{}
	port := func() int {
		for {
			if p := freePort(t); !used[p] {
				used[p] = true
				return p
			}
		}
	}
	c := &cluster{}
	for range 6 {
		s := &server{port: port()}
		s.args = []string{
			"--cluster-enabled", "yes",
			"--cluster-port", strconv.Itoa(port()),
			"--cluster-config-file", filepath.Join(dir, "nodes-"+strconv.Itoa(s.port)+".conf"),
			"--cluster-node-timeout", strconv.FormatInt(nodeTimeout.Milliseconds(), 10),
			// The healthy masters serve their slots while one fails over,
			// as the README advises.
			"--cluster-require-full-coverage", "no",
			// A replica that never synced does not fail over: sync at once.
			"--repl-diskless-sync-delay", "0",
			"--dir", dir,
		}
		s.start(t)
		t.Cleanup(s.kill)
		c.nodes = append(c.nodes, s)
	}
	args := []string{"--cluster", "create"}
	for _, s := range c.nodes {
		args = append(args, s.Addr())
	}
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.Command("redis-cli", args...).CombinedOutput(); err != nil {
		t.Fatalf("redis-cli %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	c.waitOK(t, c.nodes, 10*time.Second)
	t.Logf("cluster of 6 nodes up in %v", time.Since(start).Round(time.Millisecond))
	return c
}

// waitOK waits until each of nodes says the cluster is ok, with every slot
// served, three masters and three replicas in sync.
func (c *cluster) waitOK(t testing.TB, nodes []*server, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, s := range nodes {
		rdb := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1})
		for {
			info, err := rdb.ClusterInfo(context.Background()).Result()
			if err == nil && strings.Contains(info, "cluster_state:ok") && strings.Contains(info, "cluster_slots_ok:16384") && c.sees(s.Addr()) {
				break
			}
			if time.Now().After(deadline) {
				rdb.Close()
				t.Fatalf("node %s: cluster not ok after %v: %v\n%s", s.Addr(), within, err, info)
			}
			time.Sleep(50 * time.Millisecond)
		}
		rdb.Close()
	}
}

// sees reports whether the node at addr sees three masters and three
// replicas, and each replica it sees has synced with its master.
func (c *cluster) sees(addr string) bool {
	nodes, err := clusterNodes(addr)
	if err != nil || len(nodes) != 6 {
		return false
	}
	replicas := 0
	for _, n := range nodes {
		if n.failed || n.isMaster {
			continue
		}
		replicas++
		rdb := redis.NewClient(&redis.Options{Addr: n.addr, MaxRetries: -1})
		repl, err := rdb.Info(context.Background(), "replication").Result()
		rdb.Close()
		if err != nil || !strings.Contains(repl, "master_link_status:up") {
			return false
		}
	}
	return replicas == 3
}

// addrs returns the addresses of the nodes.
func (c *cluster) addrs() []string {
	var a []string
	for _, s := range c.nodes {
		a = append(a, s.Addr())
	}
	return a
}

// node returns the node at addr.
func (c *cluster) node(addr string) *server {
	for _, s := range c.nodes {
		if s.Addr() == addr {
			return s
		}
	}
	return nil
}

// A nodeInfo is a line of CLUSTER NODES.
type nodeInfo struct {
	id, addr, master string // master: the id of its master, "-" for a master
	isMaster, failed bool
}

// topology returns what the node at addr says of the cluster, by address.
func topology(t testing.TB, addr string) map[string]nodeInfo {
	t.Helper()
	nodes, err := clusterNodes(addr)
	if err != nil {
		t.Fatal(err)
	}
	return nodes
}

// clusterNodes returns what the node at addr says of the cluster, by
// address.
func clusterNodes(addr string) (map[string]nodeInfo, error) {
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	out, err := rdb.ClusterNodes(context.Background()).Result()
	if err != nil {
		return nil, fmt.Errorf("CLUSTER NODES on %s: %v", addr, err)
	}
	nodes := map[string]nodeInfo{}
	for line := range strings.Lines(out) {
		f := strings.Fields(line)
		if len(f) < 8 {
			continue
		}
		a, _, _ := strings.Cut(f[1], "@")
		nodes[a] = nodeInfo{
			id: f[0], addr: a, master: f[3],
			isMaster: strings.Contains(f[2], "master"),
			failed:   strings.Contains(f[2], "fail") && !strings.Contains(f[2], "fail?"),
		}
	}
	return nodes, nil
}

// clusterClient returns a client of c as the README advises, counting the
// MOVED and ASK redirections its nodes answered.
func clusterClient(t testing.TB, c *cluster, redirects *redirectCount) *redis.ClusterClient {
	rdb := redis.NewClusterClient(clusterOptions(c.addrs()))
	if redirects != nil {
		rdb.OnNewNode(func(node *redis.Client) { node.AddHook(redirects) })
	}
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// clusterOptions are the README's advice for a Cluster.
func clusterOptions(addrs []string) *redis.ClusterOptions {
	return &redis.ClusterOptions{
		Addrs:                 addrs,
		ContextTimeoutEnabled: true,
		DialTimeout:           100 * time.Millisecond,
		DialerRetries:         1,
		MaxRetries:            -1,
	}
}

// A redirectCount is a hook on a Cluster's node clients that counts the
// MOVED answers and the ASK redirections followed.
type redirectCount struct {
	moved, ask atomic.Int64
}

func (h *redirectCount) DialHook(next redis.DialHook) redis.DialHook { return next }

func (h *redirectCount) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		err := next(ctx, cmd)
		if err != nil && strings.HasPrefix(err.Error(), "MOVED ") {
			h.moved.Add(1)
		}
		return err
	}
}

func (h *redirectCount) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		if len(cmds) > 0 && cmds[0].Name() == "asking" {
			h.ask.Add(1)
		}
		return next(ctx, cmds)
	}
}

func (h *redirectCount) String() string {
	return fmt.Sprintf("%d MOVED, %d ASK", h.moved.Load(), h.ask.Load())
}
