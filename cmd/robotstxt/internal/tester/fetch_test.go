package tester_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

type fetchAnswer struct {
	URL       string `json:"url"`
	Status    int    `json:"status"`
	Outcome   string `json:"outcome"`
	Redirects int    `json:"redirects"`
	Robots    string `json:"robots"`
	Size      int    `json:"size"`
	Truncated bool   `json:"truncated"`
	Error     string `json:"error"`
}

// site starts a server on 127.0.0.1 whose /robots.txt answers with status
// and body, and returns its URL.
func site(t *testing.T, status int, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		if ua := r.Header.Get("User-Agent"); ua != tester.DefaultUserAgent {
			t.Errorf("User-Agent = %q, want %q", ua, tester.DefaultUserAgent)
		}
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestFetch(t *testing.T) {
	// The sites are on 127.0.0.1: AllowPrivate lifts the guard.
	h := tester.NewHandler(tester.Options{AllowFetch: true, AllowPrivate: true})
	const file = "User-agent: *\nDisallow: /private/\n"
	ok := site(t, 200, file)
	full := strings.Repeat("#", robots.MaxSize)
	exact := site(t, 200, full)
	over := site(t, 200, full+"\nDisallow: /\n")
	missing := site(t, 404, "not found")
	down := site(t, 503, "down")
	moved := httptest.NewServer(http.RedirectHandler(ok+"/robots.txt", http.StatusMovedPermanently))
	defer moved.Close()
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // nothing listens there any more

	tests := []struct {
		name string
		url  string
		want fetchAnswer
	}{
		{"success", ok + "/some/page?q", fetchAnswer{URL: ok + "/robots.txt", Status: 200, Outcome: "success", Robots: file, Size: len(file)}},
		{"success/robots-url", ok + "/robots.txt", fetchAnswer{URL: ok + "/robots.txt", Status: 200, Outcome: "success", Robots: file, Size: len(file)}},
		{"success/redirect", moved.URL, fetchAnswer{URL: moved.URL + "/robots.txt", Status: 200, Outcome: "success", Redirects: 1, Robots: file, Size: len(file)}},
		{"success/max-size", exact, fetchAnswer{URL: exact + "/robots.txt", Status: 200, Outcome: "success", Robots: full, Size: robots.MaxSize}},
		{"success/over-max-size", over, fetchAnswer{URL: over + "/robots.txt", Status: 200, Outcome: "success", Robots: full, Size: robots.MaxSize, Truncated: true}},
		{"unavailable", missing, fetchAnswer{URL: missing + "/robots.txt", Status: 404, Outcome: "unavailable"}},
		{"unreachable/503", down, fetchAnswer{URL: down + "/robots.txt", Status: 503, Outcome: "unreachable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got fetchAnswer
			post(t, h, "/api/fetch", map[string]string{"url": tt.url}, http.StatusOK, &got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("POST /api/fetch %s: answer mismatch (-want +got):\n%s", tt.url, diff)
			}
		})
	}

	t.Run("unreachable/network", func(t *testing.T) {
		var got fetchAnswer
		post(t, h, "/api/fetch", map[string]string{"url": gone.URL}, http.StatusOK, &got)
		if got.Outcome != "unreachable" || got.Status != 0 || got.Robots != "" || !strings.Contains(got.Error, "connection refused") {
			t.Errorf("POST /api/fetch %s = %+v, want unreachable, status 0, connection refused", gone.URL, got)
		}
	})

	for _, tt := range []struct{ name, url, error string }{
		{"bad/empty", "", "bad request: url: give the URL"},
		{"bad/relative", "/robots.txt", `bad request: robots: URL "/robots.txt" is relative`},
		{"bad/ftp", "ftp://127.0.0.1/", "bad request: robots: cannot fetch ftp://127.0.0.1/robots.txt: FTP is not supported"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got errorAnswer
			post(t, h, "/api/fetch", map[string]string{"url": tt.url}, http.StatusBadRequest, &got)
			if !strings.HasPrefix(got.Error, tt.error) {
				t.Errorf("error = %q, want it to start with %q", got.Error, tt.error)
			}
		})
	}
}

// TestFetchGuard checks that /api/fetch, whose URLs come from whoever uses
// the page, never connects to the server's own network: not to a site on
// 127.0.0.1, not to a cloud's metadata service, not through a redirect, and
// hands no body back (issue 26 item 15). The refusal is fetch.Guard's,
// before any packet; Options.AllowPrivate lifts it.
func TestFetchGuard(t *testing.T) {
	h := tester.NewHandler(tester.Options{AllowFetch: true})
	local := site(t, 200, "User-agent: *\nDisallow: /private/\n")
	moved := httptest.NewServer(http.RedirectHandler("http://169.254.169.254/latest/meta-data/", http.StatusFound))
	defer moved.Close()
	for _, url := range []string{local, "http://169.254.169.254/", "http://10.0.0.1/", "http://[::ffff:10.0.0.1]/", "http://localhost/", moved.URL} {
		t.Run(url, func(t *testing.T) {
			var got fetchAnswer
			post(t, h, "/api/fetch", map[string]string{"url": url}, http.StatusOK, &got)
			if got.Outcome != "unreachable" || got.Status != 0 || got.Robots != "" ||
				!strings.Contains(got.Error, "refusing to connect to an address of the crawler's own network") {
				t.Errorf("POST /api/fetch %s = %+v, want unreachable, status 0, no body, refused by fetch.Guard", url, got)
			}
		})
	}
	open := tester.NewHandler(tester.Options{AllowFetch: true, AllowPrivate: true})
	var got fetchAnswer
	post(t, open, "/api/fetch", map[string]string{"url": local}, http.StatusOK, &got)
	if got.Outcome != "success" {
		t.Errorf("with AllowPrivate: POST /api/fetch %s = %+v, want success", local, got)
	}
}
