package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestCrawl(t *testing.T) {
	s := newSite()
	defer s.Close()
	rep, err := crawl(s.URL+"/", localOnly())
	if err != nil {
		t.Fatal(err)
	}
	// Disallowed pages are never requested; robots.txt once, by the cache;
	// /tie, under equal Allow and Disallow rules, is fetched as Google would.
	wantRequests := map[string]int{"/robots.txt": 1, "/": 1, "/a": 1, "/b": 1, "/c": 1, "/tie": 1}
	if diff := cmp.Diff(wantRequests, s.requested()); diff != "" {
		t.Errorf("requests the site got (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/private/more", "/private/secret"}, rep.Refused); diff != "" {
		t.Errorf("refused (-want +got):\n%s", diff)
	}
	if len(rep.Fetched) != 5 || rep.Delays != 4*50*time.Millisecond {
		t.Errorf("fetched %v with crawl-delays %v, want 5 pages and 200ms", rep.Fetched, rep.Delays)
	}
	if rep.Elapsed < rep.Delays {
		t.Errorf("crawl took %v, less than the crawl-delays %v", rep.Elapsed, rep.Delays)
	}

	var out bytes.Buffer
	rep.print(&out)
	for _, want := range []string{"fetched 5: ", "refused 2: [/private/more /private/secret]", "(elapsed >= crawl-delays: true)"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report %q does not say %q", out.String(), want)
		}
	}
}

func TestLocalOnly(t *testing.T) {
	s := newSite()
	defer s.Close()
	u, err := url.Parse(s.URL)
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()
	client := &http.Client{Transport: localOnly()}
	tests := []struct {
		name, url string
		ok        bool
	}{
		{"loopback-ipv4", "http://127.0.0.1:" + port + "/", true},
		{"name/localhost", "http://localhost:" + port + "/", false},
		{"name/off-site", "http://example.org/", false},
		{"loopback-ipv6", "http://[::1]:" + port + "/", false},
		{"address/other", "http://192.0.2.1/", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, err := client.Get(tt.url)
			if err == nil {
				resp.Body.Close()
			}
			if (err == nil) != tt.ok {
				t.Errorf("GET %s: err = %v, want ok %t", tt.url, err, tt.ok)
			}
			if !tt.ok && !strings.Contains(fmt.Sprint(err), "only 127.0.0.1 is allowed") {
				t.Errorf("GET %s: err = %v, want the guard's refusal", tt.url, err)
			}
		})
	}
}
