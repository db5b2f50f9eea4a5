package fetch_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorep/robots"
	"github.com/gorep/robots/fetch"
)

// handler answers robots.txt with status, header fields and body, counting
// the requests.
type handler struct {
	requests atomic.Int32
	status   int
	header   map[string]string
	body     string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.requests.Add(1)
	for k, v := range h.header {
		w.Header().Set(k, v)
	}
	w.WriteHeader(h.status)
	fmt.Fprint(w, h.body)
}

func TestGetRetryAfter(t *testing.T) {
	future := time.Now().Add(48 * time.Hour).UTC().Format(http.TimeFormat)
	past := time.Now().Add(-time.Hour).UTC().Format(http.TimeFormat)
	tests := []struct {
		name       string
		status     int
		retryAfter string
		want       time.Duration
	}{
		{"503/seconds", 503, "120", 2 * time.Minute},
		{"429/seconds", 429, "7200", 2 * time.Hour},
		{"503/none", 503, "", 10 * time.Minute},
		{"429/none", 429, "", time.Hour},
		{"503/below-min", 503, "5", time.Minute},
		{"429/above-disallow-phase", 429, "86400", 12 * time.Hour},
		{"503/overflow", 503, "99999999999999", 12 * time.Hour},
		{"503/date-future", 503, future, 12 * time.Hour},
		{"503/date-past", 503, past, time.Minute},
		{"503/garbage", 503, "soon", 10 * time.Minute},
		{"500/ignored", 500, "120", time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := &handler{status: tt.status, header: map[string]string{"Retry-After": tt.retryAfter}}
			srv := serve(t, h.ServeHTTP)
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if res.TTL != tt.want {
				t.Errorf("Retry-After %q after %d: TTL = %v, want %v", tt.retryAfter, tt.status, res.TTL, tt.want)
			}
		})
	}
}

func TestGetBody(t *testing.T) {
	long := strings.Repeat("# filler\n", robots.MaxSize/9+1)
	tests := []struct {
		name          string
		status        int
		body          string
		wantBody      int
		wantTruncated bool
	}{
		{"ok", 200, privateRules, len(privateRules), false},
		{"exactly-max", 200, long[:robots.MaxSize], robots.MaxSize, false},
		{"truncated", 200, long, robots.MaxSize, true},
		{"404-no-body", 404, privateRules, 0, false},
		{"503-no-body", 503, privateRules, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, (&handler{status: tt.status, body: tt.body}).ServeHTTP)
			res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Body) != tt.wantBody || res.Truncated != tt.wantTruncated {
				t.Errorf("Body %d bytes, Truncated %t; want %d, %t", len(res.Body), res.Truncated, tt.wantBody, tt.wantTruncated)
			}
			if tt.wantBody > 0 && string(res.Body) != tt.body[:tt.wantBody] {
				t.Errorf("Body differs from what the server sent")
			}
		})
	}
}

// TestGetHeaderBound checks that the default client refuses a response
// header of a megabyte.
func TestGetHeaderBound(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		for i := range 64 {
			w.Header().Set(fmt.Sprintf("X-Filler-%d", i), strings.Repeat("x", 16<<10))
		}
		fmt.Fprint(w, privateRules)
	})
	res, err := fetch.Get(context.Background(), nil, testUserAgent, srv.URL+"/")
	if err == nil || res.Outcome != fetch.Unreachable {
		t.Errorf("Get with a 1 MiB header = %v, %v; want unreachable and an error", res.Outcome, err)
	}
}
