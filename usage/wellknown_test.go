package usage_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gorep/robots/fetch"
	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

// wellKnownSite serves robots (or the status robotsStatus for robots.txt),
// a tdmrep.json and pages, counting the tdmrep.json requests.
func wellKnownSite(t *testing.T, robotsStatus int, robots string) (*httptest.Server, *atomic.Int32) {
	var tdm atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.WriteHeader(robotsStatus)
			w.Write([]byte(robots))
		case "/.well-known/tdmrep.json":
			tdm.Add(1)
			w.Write([]byte(`[{"location":"/","tdm-reservation":1}]`))
		default:
			w.Write([]byte("page"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, &tdm
}

// TestWellKnownObeysRobots checks that no route fetches tdmrep.json where
// robots.txt disallows it to the crawler (RFC 9309 exempts /robots.txt
// alone), or where robots.txt answered a server error (everything is then
// disallowed), and that the refusal matches ErrDisallowed.
func TestWellKnownObeysRobots(t *testing.T) {
	sites := []struct {
		name   string
		status int
		robots string
		page   bool // whether the page itself is allowed
	}{
		{"disallow-all", 200, "User-agent: *\nDisallow: /\n", false},
		{"disallow-all-for-the-crawler", 200, "User-agent: TrainBot\nDisallow: /\n\nUser-agent: *\nAllow: /\n", false},
		{"server-error", 503, "", false},
		{"too-many-requests", 429, "", false},
		{"disallow-well-known", 200, "User-agent: *\nDisallow: /.well-known/\n", true},
	}
	for _, site := range sites {
		t.Run(site.name, func(t *testing.T) {
			srv, tdm := wellKnownSite(t, site.status, site.robots)
			page := srv.URL + "/page"

			tr, err := fetch.NewTransport(nil, "TrainBot/1.0", fetch.TransportOptions{})
			if err != nil {
				t.Fatal(err)
			}
			client := &http.Client{Transport: mustUsage(t, tr, usage.Options{Purposes: []signals.Use{signals.UseAITrain}, RefuseBody: true})}
			resp, err := client.Get(page)
			if site.page {
				if err != nil {
					t.Fatalf("usage.Transport: %v, want the page", err)
				}
				resp.Body.Close()
			} else if !errors.Is(err, fetch.ErrDisallowed) || errors.Is(err, usage.ErrDenied) {
				t.Errorf("usage.Transport: err = %v, want ErrDisallowed only", err)
			}

			res, err := usage.GetSignals(t.Context(), nil, "TrainBot/1.0", "TrainBot", page)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(res.Decision.Problems, "\n"), "tdmrep.json not fetched: robots: ") {
				t.Errorf("GetSignals: problems %q do not say why tdmrep.json was not fetched", res.Decision.Problems)
			}

			if _, err := usage.GetTDMRep(t.Context(), nil, "TrainBot/1.0", page); !errors.Is(err, fetch.ErrDisallowed) {
				t.Errorf("GetTDMRep: err = %v, want ErrDisallowed", err)
			}
			c := fetch.NewCache(nil, "TrainBot/1.0", fetch.Options{})
			if f, _, err := usage.TDMRep(t.Context(), c, "TrainBot", page); f != nil || !errors.Is(err, fetch.ErrDisallowed) {
				t.Errorf("TDMRep = %v, %v, want nil and ErrDisallowed", f, err)
			}
			if n := tdm.Load(); n != 0 {
				t.Errorf("tdmrep.json requested %d times, want 0", n)
			}
		})
	}
}
