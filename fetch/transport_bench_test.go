package fetch_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gorep/robots/fetch"
)

// cannedTransport answers every request at once without a network: the
// robots.txt with rules, any other URL with an empty 200. It stands for the
// base transport, so that the benchmarks measure what Transport adds.
type cannedTransport struct{ page http.Response }

func (c *cannedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Path == "/robots.txt" {
		body := "User-agent: *\nDisallow: /private/\nAllow: /private/press/\n"
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(body)), Request: req}, nil
	}
	return &c.page, nil
}

// BenchmarkTransport measures the cost per request of a Transport on the
// cache-hit path, against the base transport alone.
func BenchmarkTransport(b *testing.B) {
	base := &cannedTransport{page: http.Response{StatusCode: 200, Body: http.NoBody}}
	plain, err := fetch.NewTransport(base, testUA, fetch.TransportOptions{})
	if err != nil {
		b.Fatal(err)
	}
	polite, err := fetch.NewTransport(base, testUA, fetch.TransportOptions{Polite: true})
	if err != nil {
		b.Fatal(err)
	}
	benchmarks := []struct {
		name      string
		rt        http.RoundTripper
		url       string
		userAgent string
		wantErr   bool
	}{
		{"base", base, "https://example.com/private/press/2026/launch.html?ref=home", testUA, false},
		{"obey", plain, "https://example.com/private/press/2026/launch.html?ref=home", testUA, false},
		{"obey/other-user-agent", plain, "https://example.com/private/press/2026/launch.html?ref=home", "Go-http-client/1.1", false},
		{"obey/refused", plain, "https://example.com/private/accounts?id=7", testUA, true},
		{"obey-polite", polite, "https://example.com/private/press/2026/launch.html?ref=home", testUA, false},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			req, err := http.NewRequest(http.MethodGet, bm.url, nil)
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("User-Agent", bm.userAgent)
			if _, err := bm.rt.RoundTrip(req); (err != nil) != bm.wantErr { // fills the cache
				b.Fatalf("RoundTrip(%s): %v", bm.url, err)
			}
			b.ReportAllocs()
			for b.Loop() {
				bm.rt.RoundTrip(req)
			}
		})
	}
}
