package robots

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSitemaps(t *testing.T) {
	body := "sitemap: https://example.com/sitemap.xml\nuser-agent: otherbot\ndisallow: /kale\n\nSitemap: https://cdn.example.org/other-sitemap.xml\nsite-map: https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml\nsitemaps: /relative # comment\nsitemap:\n"
	want := []string{
		"https://example.com/sitemap.xml",
		"https://cdn.example.org/other-sitemap.xml",
		"https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml",
		"/relative",
	}
	got := Parse([]byte(body)).Sitemaps()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Sitemaps() = %q, want %q", got, want)
	}
	// The sitemap line does not disturb the group.
	if Parse([]byte(body)).Allowed("otherbot", "/kale") {
		t.Error("otherbot allowed /kale")
	}
}

// TestParseDataReused checks that a parsed file does not refer to the bytes
// it was parsed from, which Parse reads in place: overwriting them changes
// no answer, record, extra or sitemap.
func TestParseDataReused(t *testing.T) {
	tests := []struct{ name, body string }{
		{"rules", "User-agent: Googlebot\nDisallow: /private\nAllow: /private/ok\n"},
		{"escaped", "User-agent: *\nDisallow: /caf\xc3\xa9\nDisallow: /a%2fb\n"},
		{"extras", "Sitemap: https://example.com/s.xml\nUser-agent: Bingbot\nCrawl-delay: 5\nDisallow: /x\n"},
	}
	for _, tt := range tests {
		data := []byte(tt.body)
		r := Parse(data)
		type view struct {
			Records  []Record
			Extras   []Extra
			Sitemaps []string
			Decision Decision
		}
		see := func() view {
			return view{r.Records(), r.Extras(""), r.Sitemaps(), r.Decide("googlebot", "/private/x")}
		}
		before := see()
		for i := range data {
			data[i] = 'z'
		}
		if diff := cmp.Diff(before, see()); diff != "" {
			t.Errorf("%s: overwriting the data changed the parsed file (-before +after):\n%s", tt.name, diff)
		}
	}
}
