package fetch

import (
	"context"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A rulesEverywhere is a transport that answers every request with the same
// robots.txt, without a network.
type rulesEverywhere string

func (body rulesEverywhere) RoundTrip(req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(string(body))), Request: req}, nil
}

// TestURLAgreesWithString checks that what a Transport reads in place from a
// request's URL is what the Cache and the rules read from u.String(): the
// same robots.txt URL or an error alike, and the same decision, for parsed
// URLs and for URLs built by hand that no parse gives.
func TestURLAgreesWithString(t *testing.T) {
	rules := rulesEverywhere("User-agent: *\nDisallow: /private/\nAllow: /private/press/\n" +
		"Disallow: /*?id=\nDisallow: /*.pdf$\nDisallow: //double\nDisallow: /*;jsessionid\nAllow: /$\n")
	tests := []struct {
		name string
		u    *url.URL
	}{
		{"parsed/plain", mustParse(t, "https://a.example/private/press/x?ref=home")},
		{"parsed/refused", mustParse(t, "https://a.example/private/x")},
		{"parsed/query-refused", mustParse(t, "http://a.example/list?id=7")},
		{"parsed/no-path", mustParse(t, "http://a.example")},
		{"parsed/no-path-query", mustParse(t, "http://a.example?id=7")},
		{"parsed/force-query", mustParse(t, "http://a.example/x.pdf?")},
		{"parsed/dollar", mustParse(t, "http://a.example/x.pdf")},
		{"parsed/fragment", mustParse(t, "http://a.example/x.pdf#top")},
		{"parsed/params", mustParse(t, "http://a.example/a;jsessionid=1")},
		{"parsed/escaped-slash", mustParse(t, "http://a.example/private%2Fx")},
		{"parsed/escapes", mustParse(t, "http://a.example/%70rivate/x")},
		{"parsed/non-ascii", mustParse(t, "http://a.example/é?q=é")},
		{"parsed/double-slash", mustParse(t, "http://a.example//double/x")},
		{"parsed/triple-slash", mustParse(t, "http://a.example///private/x")},
		{"parsed/default-port", mustParse(t, "http://a.example:80/private/x")},
		{"parsed/zero-padded-port", mustParse(t, "http://a.example:0080/x")},
		{"parsed/other-port", mustParse(t, "http://a.example:8080/private/x")},
		{"parsed/empty-port", mustParse(t, "http://a.example:/x")},
		{"parsed/new-host", mustParse(t, "http://b.example/private/x")},
		{"parsed/upper-case-host", mustParse(t, "http://A.EXAMPLE/private/x")},
		{"parsed/user", mustParse(t, "http://user:pw@a.example/private/x")},
		{"parsed/ipv6", mustParse(t, "http://[::1]:8080/private/x")},
		{"parsed/trailing-dot", mustParse(t, "http://a.example./private/x")},
		{"parsed/long-query", mustParse(t, "http://a.example/x?id="+strings.Repeat("7", 3000))},
		{"built/path-to-escape", &url.URL{Scheme: "http", Host: "a.example", Path: "/private /x"}},
		{"built/relative-path", &url.URL{Scheme: "http", Host: "a.example", Path: "private/x"}},
		{"built/star", &url.URL{Scheme: "http", Host: "a.example", Path: "*"}},
		{"built/bad-raw-path", &url.URL{Scheme: "http", Host: "a.example", Path: "/private/x", RawPath: "/public/x"}},
		{"built/query-with-hash", &url.URL{Scheme: "http", Host: "a.example", Path: "/x", RawQuery: "a#?id=7"}},
		{"built/query-with-bad-fragment", &url.URL{Scheme: "http", Host: "a.example", Path: "/x", RawQuery: "a#%zz"}},
		{"built/query-with-control", &url.URL{Scheme: "http", Host: "a.example", Path: "/x", RawQuery: "a\x00b"}},
		{"built/query-with-space", &url.URL{Scheme: "http", Host: "a.example", Path: "/x", RawQuery: "id=a b"}},
		{"built/upper-case-scheme", &url.URL{Scheme: "HTTP", Host: "a.example", Path: "/private/x"}},
		{"built/ftp", &url.URL{Scheme: "ftp", Host: "a.example", Path: "/x"}},
		{"built/opaque", &url.URL{Scheme: "http", Opaque: "//b.example/private/x", Host: "a.example"}},
		{"built/no-host", &url.URL{Scheme: "http", Path: "/x"}},
		{"built/bad-port", &url.URL{Scheme: "http", Host: "a.example:99999", Path: "/x"}},
		{"built/two-colons", &url.URL{Scheme: "http", Host: "a.example:1:2", Path: "/x"}},
		{"built/long-host", &url.URL{Scheme: "http", Host: strings.Repeat("a", 300) + ".example", Path: "/private/x"}},
	}
	ctx := context.Background()
	c := NewCache(&http.Client{Transport: rules}, "EvalBot/1.0", Options{})
	for _, seed := range []string{"http://a.example/seed", "https://a.example/seed", "http://a.example:8080/seed"} {
		if _, err := c.Robots(ctx, seed); err != nil {
			t.Fatal(err)
		}
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := tt.u.String()
			wantURL, wantErr := fetchableURL(page)
			gotURL, r, err := c.robotsOfURL(ctx, tt.u)
			if (err != nil) != (wantErr != nil) || gotURL != wantURL {
				t.Fatalf("robotsOfURL(%q) = %q, %v; want %q, %v", page, gotURL, err, wantURL, wantErr)
			}
			if err != nil {
				return
			}
			want := r.Decide("EvalBot", page)
			if diff := cmp.Diff(want, decide(r, "EvalBot", tt.u)); diff != "" {
				t.Errorf("decide(%q) differs from Decide (-want +got):\n%s", page, diff)
			}
		})
	}
}

// mustParse returns rawURL parsed.
func mustParse(t *testing.T, rawURL string) *url.URL {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
