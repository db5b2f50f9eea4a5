package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestFleet is the check of issue 31, run as a black box: two fleet
// processes × 4 workers on one redis-server, over five hosts on 127.0.0.1:
// three with a Crawl-delay of D and 8 pages each (one more page of the
// first disallowed), one without a delay and 40 pages, one without a
// delay that answers its first page request 503 with a Retry-After of R
// (its first request goes alone: no other is sent before its answer).
// Measured at the hosts: every two page
// requests to a delayed host reach it at least 0.95 D apart; each
// robots.txt is fetched once in all; the disallowed page is never
// requested; no request reaches the 503 host for R after it; and the run
// takes about 7 D (the delayed hosts' pages), not the 24 D that one worker
// at a time would take.
//
// D = 1 s and R = 3 s with ROBOTS_LONG=1, as the issue says (.ci/run);
// D = 250 ms and R = 1 s otherwise.
func TestFleet(t *testing.T) {
	delay, retryAfter := 250*time.Millisecond, time.Second
	if longTests() {
		delay, retryAfter = time.Second, 3*time.Second
	}
	redisAddr := startRedis(t)
	bin := filepath.Join(t.TempDir(), "fleet")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	secs := strconv.FormatFloat(delay.Seconds(), 'f', -1, 64)
	var slow []*host
	for i := range 3 {
		slow = append(slow, newHost(t, fmt.Sprint("slow", i), "User-agent: *\nDisallow: /private/\nCrawl-delay: "+secs+"\n", nil))
	}
	fast := newHost(t, "fast", "User-agent: *\nDisallow: /private/\n", nil)
	busy := newHost(t, "busy", "User-agent: *\nDisallow: /private/\n",
		func(n int) (int, string) {
			if n == 0 {
				return 503, strconv.Itoa(int(retryAfter.Seconds()))
			}
			return 200, ""
		})
	var perHost [][]string
	for _, h := range slow {
		var urls []string
		for p := range 8 {
			urls = append(urls, fmt.Sprintf("%s/page%d", h.srv.URL, p))
		}
		perHost = append(perHost, urls)
	}
	perHost[0] = append(perHost[0], slow[0].srv.URL+"/private/x")
	var urls []string
	for p := range 40 {
		urls = append(urls, fmt.Sprintf("%s/page%d", fast.srv.URL, p))
	}
	perHost = append(perHost, urls)
	urls = nil
	for p := range 4 {
		urls = append(urls, fmt.Sprintf("%s/page%d", busy.srv.URL, p))
	}
	perHost = append(perHost, urls)
	// Interleaved, and dealt to the two processes in turn.
	var input [2][]string
	n := 0
	for i := 0; ; i++ {
		more := false
		for _, urls := range perHost {
			if i < len(urls) {
				input[n%2] = append(input[n%2], urls[i])
				n++
				more = true
			}
		}
		if !more {
			break
		}
	}

	type result struct {
		out, errOut bytes.Buffer
		err         error
	}
	var results [2]result
	var wg sync.WaitGroup
	begin := time.Now()
	for i := range 2 {
		cmd := exec.Command(bin, "-redis", redisAddr, "-workers", "4", "-agent", "EvalBot", "-ua", ua)
		cmd.Stdin = strings.NewReader(strings.Join(input[i], "\n") + "\n")
		cmd.Stdout, cmd.Stderr = &results[i].out, &results[i].errOut
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { results[i].err = cmd.Wait() })
	}
	wg.Wait()
	elapsed := time.Since(begin)

	for i, r := range results {
		if r.err != nil {
			t.Fatalf("process %d: %v\n%s", i, r.err, r.errOut.String())
		}
		t.Logf("process %d: %s", i, strings.TrimSpace(r.errOut.String()))
		// Shared: the spacing below holds across the two processes only
		// if they share the slots. (A call to Redis slower than a second,
		// on a loaded machine, takes a slot alone: counted, not failed.)
		if strings.Contains(r.errOut.String(), " (0 shared,") {
			t.Errorf("process %d took no slot in Redis: %s", i, r.errOut.String())
		}
		got := parseLines(t, r.out.Bytes())
		if len(got) != len(input[i]) {
			t.Errorf("process %d: %d lines for %d URLs", i, len(got), len(input[i]))
		}
		for _, u := range input[i] {
			l, ok := got[u]
			switch {
			case !ok:
				t.Errorf("process %d: no line for %s", i, u)
			case strings.HasSuffix(u, "/private/x"):
				if l.Status != 0 || l.Error == "" || l.Uses.Fetch != "deny" {
					t.Errorf("line for the disallowed page %+v, want status 0, an error, fetch deny", l)
				}
			case len(busy.paths) > 0 && u == busy.srv.URL+busy.paths[0]: // whichever came first
				if l.Status != 503 {
					t.Errorf("line for %s: %+v, want status 503", u, l)
				}
			case l.Status != 200 || l.Error != "" || l.Uses.Fetch != "allow":
				t.Errorf("line for %s: %+v, want status 200, fetch allow", u, l)
			}
		}
	}

	for _, h := range append(slow, fast, busy) {
		if h.robot != 1 {
			t.Errorf("%s: robots.txt fetched %d times, want once in all", h.name, h.robot)
		}
	}
	var minGap time.Duration = -1
	for _, h := range slow {
		if len(h.pages) != 8 {
			t.Errorf("%s: %d page requests (%v), want 8", h.name, len(h.pages), h.paths)
		}
		times := append([]time.Time(nil), h.pages...)
		sort.Slice(times, func(i, j int) bool { return times[i].Before(times[j]) })
		for i := 1; i < len(times); i++ {
			gap := times[i].Sub(times[i-1])
			if minGap < 0 || gap < minGap {
				minGap = gap
			}
			if gap < delay*95/100 {
				t.Errorf("%s: page requests %d and %d reached it %v apart, want at least %v", h.name, i-1, i, gap, delay*95/100)
			}
		}
		for _, p := range h.paths {
			if strings.HasPrefix(p, "/private/") {
				t.Errorf("%s: the disallowed page %s was requested", h.name, p)
			}
		}
	}
	if len(fast.pages) != 40 {
		t.Errorf("fast host: %d page requests, want 40", len(fast.pages))
	}
	var quiet time.Duration
	if len(busy.pages) != 4 || busy.codes[0] != 503 {
		t.Errorf("503 host: requests %v answered %v, want 4, the first 503", busy.paths, busy.codes)
	} else if quiet = busy.pages[1].Sub(busy.pages[0]); quiet < retryAfter {
		t.Errorf("503 host: the next request reached it %v after the 503, want at least the Retry-After, %v", quiet, retryAfter)
	}
	t.Logf("D = %v, R = %v: run %v (serial: %v); smallest gap on a delayed host %v; 503 host quiet %v after its 503",
		delay, retryAfter, elapsed.Round(time.Millisecond), 24*delay, minGap.Round(time.Millisecond), quiet.Round(time.Millisecond))
	if bound := 16*delay + time.Second; elapsed > bound {
		t.Errorf("the run took %v, want well under the %v of one worker at a time (at most %v)", elapsed, 24*delay, bound)
	}
}

// startRedis starts a redis-server on a free port of 127.0.0.1, without
// persistence, stops it by its PID at the end of the test, and returns its
// address.
func startRedis(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		t.Fatalf("redis-server not found (%v): install it with `apt-get install -y redis-server` or `brew install redis`", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("redis-server", "--port", strconv.Itoa(port), "--bind", "127.0.0.1",
		"--save", "", "--appendonly", "no", "--loglevel", "warning")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	rdb := redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1})
	defer rdb.Close()
	for deadline := time.Now().Add(10 * time.Second); rdb.Ping(context.Background()).Err() != nil; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("redis-server on port %d does not answer", port)
		}
	}
	return addr
}
