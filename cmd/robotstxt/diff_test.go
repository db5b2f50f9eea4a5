package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

const (
	oldFile = "testdata/diff/old.txt"
	newFile = "testdata/diff/new.txt"
)

// TestDiffGolden runs diff on the bundled files and compares its output
// with testdata/diff/NAME.golden; go test -run TestDiffGolden -update
// rewrites them.
func TestDiffGolden(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stdin  string
		status int
	}{
		{"example", []string{"diff", oldFile, newFile}, "", 1},
		{"example-json", []string{"diff", "-json", oldFile, newFile}, "", 1},
		{"reverse", []string{"diff", newFile, oldFile}, "", 1},
		{"urls", []string{"diff", "-urls", "testdata/diff/urls.txt", "-url", "/search/about/team", oldFile, newFile}, "", 1},
		{"same", []string{"diff", oldFile, oldFile}, "", 0},
		{"same-json", []string{"diff", "-json", oldFile, oldFile}, "", 0},
		{"incomplete", []string{"diff", "testdata/diff/wild.txt", "testdata/diff/wild.txt"}, "", 0},
		{"stdin", []string{"diff", "-", good}, "user-agent: *\ndisallow: /private/\ncrawl-delay: 5\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr); status != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr: %s", tt.args, status, tt.status, stderr.String())
			}
			compareGolden(t, filepath.Join("testdata", "diff", tt.name+".golden"), stdout.Bytes())
		})
	}
}

func TestDiffCommand(t *testing.T) {
	before := newSite(t, 200, "user-agent: *\ndisallow: /private\n")
	after := newSite(t, 200, "user-agent: *\ndisallow: /private\n")
	down := newSite(t, 503, "")
	for _, tt := range []runCase{
		{"url/same", []string{"diff", before.URL, after.URL + "/some/page"}, "", 0,
			"--- " + before.URL + "/robots.txt (200, success: the rules of the file apply)\n" +
				"+++ " + after.URL + "/robots.txt (200, success: the rules of the file apply)\n" +
				"no change for 28 crawlers on 4 paths\n"},
		{"url/503", []string{"diff", "-url", "/robots.txt", before.URL, down.URL}, "", 1,
			"--- " + before.URL + "/robots.txt (200, success: the rules of the file apply)\n" +
				"+++ " + down.URL + "/robots.txt (503, unreachable: the site erred or could not be reached: everything is disallowed for now)\n" +
				"User-agent: * (and the crawlers without a group of their own: " +
				"Amazonbot, ClaudeBot, Claude-SearchBot, Claude-User, Applebot, Applebot-Extended, Baiduspider, Brightbot, " +
				"Bytespider, cohere-ai, cohere-training-data-crawler, CCBot, DuckDuckBot, Google-CloudVertexBot, Google-Extended, " +
				"Googlebot, GoogleOther, FacebookBot, meta-externalagent, meta-externalfetcher, bingbot, ChatGPT-User, GPTBot, " +
				"OAI-SearchBot, PerplexityBot, Perplexity-User, YandexBot)\n" +
				"  / (and 1 more)\n" +
				"    - allowed (no matching rule)\n" +
				"    + disallowed (disallow all)\n"},
		{"url/network-error", []string{"diff", good, deadURL(t)}, "", 2, ""},
		{"usage/one-file", []string{"diff", good}, "", 2, ""},
		{"usage/three-files", []string{"diff", good, good, good}, "", 2, ""},
		{"usage/two-stdin", []string{"diff", "-", "-"}, "", 2, ""},
		{"usage/bad-url", []string{"diff", "-url", "example.com/a", good, good}, "", 2, ""},
		{"usage/help", []string{"diff", "-h"}, "", 0, ""},
		{"input/missing-file", []string{"diff", good, "testdata/missing.txt"}, "", 2, ""},
		{"input/missing-urls", []string{"diff", "-urls", "testdata/missing.txt", good, good}, "", 2, ""},
	} {
		t.Run(tt.name, tt.run)
	}
}
