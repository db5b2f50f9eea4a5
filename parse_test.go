package robots

import (
	"strings"
	"testing"
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
