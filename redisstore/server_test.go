package redisstore_test

import (
	"context"
	"net"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// A server is a redis-server that a test started on 127.0.0.1, without
// persistence, and stops at its end.
type server struct {
	port int
	args []string // more arguments to redis-server, such as a Cluster node's
	cmd  *exec.Cmd
}

// startServer starts redis-server on a free port. It fails the test, saying
// how to install it, if the binary is missing.
func startServer(t testing.TB) *server {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatalf("redis-server not found (%v): install it with `apt-get install -y redis-server` (Debian, Ubuntu) or `brew install redis`", err)
	}
	s := &server{port: freePort(t)}
	s.start(t)
	t.Cleanup(s.kill)
	return s
}

// freePort returns a TCP port that was free on 127.0.0.1 a moment ago.
func freePort(t testing.TB) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// Addr returns the address of the server.
func (s *server) Addr() string { return "127.0.0.1:" + strconv.Itoa(s.port) }

// start starts the server, empty, on its port and waits until it answers.
func (s *server) start(t testing.TB) {
	t.Helper()
	args := []string{"--port", strconv.Itoa(s.port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--loglevel", "warning"}
	s.cmd = exec.Command("redis-server", append(args, s.args...)...)
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(&redis.Options{Addr: s.Addr(), MaxRetries: -1})
	defer rdb.Close()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if rdb.Ping(context.Background()).Err() == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on port %d does not answer", s.port)
		}
	}
}

// kill stops the server by its PID, as a crash would.
func (s *server) kill() {
	if s.cmd != nil {
		s.cmd.Process.Kill()
		s.cmd.Wait()
		s.cmd = nil
	}
}

// client returns a client of addr as the Store's documentation advises:
// deadlines from the context, no retries.
func client(t testing.TB, addr string) *redis.Client {
	rdb := redis.NewClient(&redis.Options{
		Addr:                  addr,
		ContextTimeoutEnabled: true,
		DialTimeout:           time.Second, // the context's deadline is shorter
		DialerRetries:         1,
		MaxRetries:            -1,
	})
	t.Cleanup(func() { rdb.Close() })
	return rdb
}

// A proxy forwards TCP connections on 127.0.0.1 to a server, delaying each
// chunk it forwards by a delay that can change: a slow Redis.
type proxy struct {
	ln    net.Listener
	to    string
	delay atomic.Int64 // nanoseconds
	wg    sync.WaitGroup

	mu    sync.Mutex
	conns []net.Conn // to close at the end
}

func startProxy(t testing.TB, to string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{ln: ln, to: to}
	p.wg.Go(p.serve)
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		for _, c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
		p.wg.Wait()
	})
	return p
}

func (p *proxy) Addr() string { return p.ln.Addr().String() }

func (p *proxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", p.to)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, s)
		p.mu.Unlock()
		p.wg.Go(func() { p.pipe(s, c) })
		p.wg.Go(func() { p.pipe(c, s) })
	}
}

// pipe copies from src to dst, chunk by chunk, each after the delay.
func (p *proxy) pipe(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			time.Sleep(time.Duration(p.delay.Load()))
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}
