package tester_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

// largest is the largest real file of the repository's testdata (231 KB,
// 1,709 lines).
const largest = "../../../../testdata/realworld/avuim__www.expert.de.txt"

// largestURLs are 20 URLs of the site of largest.
var largestURLs = []string{
	"https://www.expert.de/",
	"https://www.expert.de/suche?q=fernseher",
	"https://www.expert.de/api/v1/cart",
	"https://www.expert.de/test/a",
	"https://www.expert.de/handbuch.pdf",
	"https://www.expert.de/shop/unsere-produkte/tv-audio/fernseher",
	"https://www.expert.de/shop/unsere-produkte/tv-audio/fernseher?page=2",
	"https://www.expert.de/shop/unsere-produkte/tv-audio/fernseher?page=2&sort=price",
	"https://www.expert.de/shop/unsere-produkte/tv-audio/fernseher/123.html?adword=abc",
	"https://www.expert.de/shop/unsere-produkte/tv-audio/fernseher/123.html?campaignid",
	"https://www.expert.de/shop/unsere-produkte/computer-zubehor/drucker-scanner/druckerpatronen?manufacturers=e_16.HP&s=hp-druckerpatrone",
	"https://www.expert.de/shop/unsere-produkte/computer-zubehor/drucker-scanner/druckerpatronen?manufacturers=e_16.HP&s=hp-druckerpatrone&page=3",
	"https://www.expert.de/shop/unsere-produkte/computer-zubehor/drucker-scanner/multifunktionsdrucker?feature=59ba4502a7b11b000152d66c.ja&s=drucker-mit-bluetooth",
	"https://www.expert.de/shop/unsere-produkte/haushalt/kaffeemaschinen?brand=x",
	"https://www.expert.de/advancedstorefinder/berlin",
	"https://www.expert.de/cdn-cgi/rum?x",
	"https://www.expert.de/static/resources/private/javascript/econda/emos3.js",
	"https://www.expert.de/angebote/prospekt.html/",
	"https://www.expert.de/_api/x",
	"https://www.expert.de/robots.txt",
}

// BenchmarkLargest measures the answers of the API for the largest real
// file: what the page waits for after each change, network aside.
func BenchmarkLargest(b *testing.B) {
	body, err := os.ReadFile(largest)
	if err != nil {
		b.Fatal(err)
	}
	h := tester.NewHandler(tester.Options{})
	for _, bb := range []struct {
		name, path string
		req        any
	}{
		{"test-20-urls", "/api/test", map[string]any{"robots": string(body), "agents": []string{"Googlebot"}, "urls": largestURLs}},
		{"check", "/api/check", map[string]any{"robots": string(body)}},
	} {
		b.Run(bb.name, func(b *testing.B) {
			req, err := json.Marshal(bb.req)
			if err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			for b.Loop() {
				r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1"+bb.path, strings.NewReader(string(req)))
				r.Header.Set("Content-Type", "application/json")
				w := httptest.NewRecorder()
				h.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					b.Fatalf("status %d: %s", w.Code, w.Body)
				}
			}
		})
	}
}
