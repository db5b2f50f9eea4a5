package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

const ua = "EvalBot/1.0 (+https://example.com/bot)"

func TestUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-nosuchflag"},
		{"-agent", "EvalBot", "extra"},
		{"-agent", "EvalBot", "-workers", "0"},
		{"-workers", "4"},
		{"-agent", "EvalBot", "-ua", "OtherBot/1.0"},
		{"-ua", "Mozilla/5.0"},
		{"-h"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, strings.NewReader(""), &out, &errOut); code != 2 || out.Len() != 0 || errOut.Len() == 0 {
			t.Errorf("run(%q) = %d, stdout %q, stderr %q; want 2, nothing on stdout, a message", args, code, out.String(), errOut.String())
		}
	}
}

// A host is a site on its own port of 127.0.0.1, recording its requests.
type host struct {
	name  string
	srv   *httptest.Server
	mu    sync.Mutex
	robot int         // robots.txt fetches
	pages []time.Time // page requests, when they reached it
	paths []string
	codes []int
}

// newHost starts a host serving robotsTxt; answer, if not nil, gives the
// status and Retry-After of page request number n (0 first).
func newHost(t testing.TB, name, robotsTxt string, answer func(n int) (int, string)) *host {
	h := &host{name: name}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		now := time.Now()
		h.mu.Lock()
		defer h.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			h.robot++
			fmt.Fprint(w, robotsTxt)
			return
		}
		code, retryAfter := http.StatusOK, ""
		if answer != nil {
			code, retryAfter = answer(len(h.pages))
		}
		h.pages, h.paths, h.codes = append(h.pages, now), append(h.paths, r.URL.Path), append(h.codes, code)
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/noai" {
			w.Header().Set("X-Robots-Tag", "noai")
		}
		w.WriteHeader(code)
		fmt.Fprint(w, "<html><head><title>x</title></head><body>page</body></html>")
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// parseLines reads fleet's output: one JSON line per URL.
func parseLines(t testing.TB, out []byte) map[string]line {
	t.Helper()
	got := map[string]line{}
	for _, s := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if s == "" {
			continue
		}
		var l line
		dec := json.NewDecoder(strings.NewReader(s))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&l); err != nil {
			t.Fatalf("output line %q: %v", s, err)
		}
		if _, dup := got[l.URL]; dup {
			t.Errorf("two lines for %s", l.URL)
		}
		got[l.URL] = l
	}
	return got
}

// TestInMemory runs fleet in this process with an empty -redis: a line per URL,
// in the shape of the contract.
func TestInMemory(t *testing.T) {
	h := newHost(t, "a", "User-agent: *\nDisallow: /private/\n", nil)
	urls := []string{h.srv.URL + "/", h.srv.URL + "/noai", h.srv.URL + "/private/x", "not a url"}
	var out, errOut bytes.Buffer
	code := run([]string{"-redis", "", "-workers", "2", "-agent", "EvalBot", "-ua", ua},
		strings.NewReader(strings.Join(urls, "\n")+"\n\n"), &out, &errOut)
	if code != 0 {
		t.Fatalf("run = %d, stderr %s", code, errOut.String())
	}
	got := parseLines(t, out.Bytes())
	if len(got) != len(urls) {
		t.Fatalf("%d lines for %d URLs:\n%s", len(got), len(urls), out.String())
	}
	check := func(u string, status int, hasErr bool, fetchUse, aiTrain string) {
		t.Helper()
		l := got[u]
		if l.Status != status || (l.Error != "") != hasErr || string(l.Uses.Fetch) != fetchUse || (aiTrain != "" && string(l.Uses.AITrain) != aiTrain) {
			t.Errorf("line for %s = %+v; want status %d, error %t, fetch %s, ai-train %q", u, l, status, hasErr, fetchUse, aiTrain)
		}
	}
	check(h.srv.URL+"/", 200, false, "allow", "")
	check(h.srv.URL+"/noai", 200, false, "allow", "deny")
	check(h.srv.URL+"/private/x", 0, true, "deny", "")
	check("not a url", 0, true, "unknown", "")
	if len(h.paths) != 2 || h.robot != 1 {
		t.Errorf("host saw pages %v and %d robots.txt fetches; want 2 pages, 1 fetch", h.paths, h.robot)
	}
	if !strings.Contains(errOut.String(), "fleet: 2 slots") {
		t.Errorf("stderr %q, want the counts", errOut.String())
	}
}

// longTests reports whether the fleet test runs at the scale
// (ROBOTS_LONG=1). The variable is read as the test runs, where the test
// cache records it: a run with it set never answers from the cache of a
// run without.
func longTests() bool { return os.Getenv("ROBOTS_LONG") == "1" }
