package semdiff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/gorep/robots"
)

// ignoreCounts ignores the counts of what was compared and whether it is
// complete, which TestCompareCounts and the tests of guarantee_test.go
// check.
var ignoreCounts = cmpopts.IgnoreFields(Report{}, "Crawlers", "Paths", "Complete")

func TestCompareCounts(t *testing.T) {
	old := robots.Parse([]byte("user-agent: a\ndisallow: /p\n"))
	new := robots.Parse([]byte("user-agent: b\nuser-agent: GPTBot\ndisallow: /p$\n"))
	got := Compare(old, new, Options{Agents: []string{"GPTBot", "CCBot"}, URLs: []string{"/q", "/r"}})
	// "*", a, b, GPTBot, CCBot; "/", "/x", "/p", "/px", "/p/", "/p/x", and the URLs.
	if got.Crawlers != 5 || got.Paths != 8 || !got.Complete {
		t.Errorf("Compare counted %d crawlers and %d paths, complete %t; want 5, 8, true", got.Crawlers, got.Paths, got.Complete)
	}
}

func TestCompare(t *testing.T) {
	// The verdicts of the groups for "*", and of a named group.
	allow := func(line int, text string) Verdict {
		return Verdict{Allowed: true, Line: line, Decision: text, Global: true}
	}
	deny := func(line int, text string) Verdict {
		return Verdict{Allowed: false, Line: line, Decision: text, Global: true}
	}
	named := func(v Verdict) Verdict { v.Global = false; return v }
	tests := []struct {
		name     string
		old, new string
		opts     Options
		want     *Report
	}{
		{"same", "user-agent: *\ndisallow: /a\n", "# moved\nUser-Agent: *\nDisallow: /a\n", Options{},
			&Report{Agents: []AgentChange{}}},
		{"new-group", "user-agent: *\ndisallow: /a\n", "user-agent: *\ndisallow: /a\n\nuser-agent: GPTBot\ndisallow: /\n",
			Options{Agents: []string{"GPTBot", "CCBot"}},
			&Report{Agents: []AgentChange{{Agent: "GPTBot", Verdicts: []VerdictChange{
				{Path: "/", Paths: 2, Old: allow(0, "allowed (no matching rule)"), New: named(deny(5, "disallowed by line 5: Disallow: /"))},
			}}}}},
		{"same-changes", "user-agent: *\nallow: /\n", "user-agent: GPTBot\nuser-agent: CCBot\ndisallow: /\n\nuser-agent: *\nallow: /\n",
			Options{Agents: []string{"GPTBot", "CCBot", "ClaudeBot"}},
			&Report{Agents: []AgentChange{{Agent: "CCBot", Like: []string{"GPTBot"}, Verdicts: []VerdictChange{
				{Path: "/", Paths: 2, Old: allow(2, "allowed by line 2: Allow: /"), New: named(deny(3, "disallowed by line 3: Disallow: /"))},
			}}}}},
		{"star-with-like", "user-agent: *\ndisallow: /a/\n", "user-agent: *\ndisallow: /a\n",
			Options{Agents: []string{"GPTBot"}},
			&Report{Agents: []AgentChange{{Agent: "*", Like: []string{"GPTBot"}, Verdicts: []VerdictChange{
				{Path: "/a", Paths: 2, Old: allow(0, "allowed (no matching rule)"), New: deny(2, "disallowed by line 2: Disallow: /a")},
			}}}}},
		{"two-pairs", "user-agent: *\nallow: /a/b\ndisallow: /a/\n", "user-agent: *\ndisallow: /a\n",
			Options{Agents: []string{}},
			&Report{Agents: []AgentChange{{Agent: "*", Verdicts: []VerdictChange{
				{Path: "/a", Paths: 2, Old: allow(0, "allowed (no matching rule)"), New: deny(2, "disallowed by line 2: Disallow: /a")},
				{Path: "/a/b", Paths: 2, Old: allow(2, "allowed by line 2: Allow: /a/b"), New: deny(2, "disallowed by line 2: Disallow: /a")},
			}}}}},
		{"user-url", "user-agent: *\ndisallow: /*a*b\n", "user-agent: *\ndisallow: /*a*b$\n",
			Options{Agents: []string{}, URLs: []string{"https://example.com/ab?x"}},
			&Report{Agents: []AgentChange{{Agent: "*", Verdicts: []VerdictChange{
				{Path: "/ab/", Paths: 4, Old: deny(2, "disallowed by line 2: Disallow: /*a*b"), New: allow(0, "allowed (no matching rule)")},
				{Path: "https://example.com/ab?x", Paths: 1, Old: deny(2, "disallowed by line 2: Disallow: /*a*b"), New: allow(0, "allowed (no matching rule)")},
			}}}}},
		{"crawl-delay", "user-agent: bingbot\ncrawl-delay: 5\n", "user-agent: Bingbot\ncrawl-delay: 10\ndisallow:\n\nuser-agent: *\ncrawl-delay: 1\n",
			Options{},
			&Report{Agents: []AgentChange{
				// The known crawlers in table order, without bingbot (named)
				// and the retired Claude-Web and anthropic-ai.
				{Agent: "*", Like: []string{"Amazonbot", "ClaudeBot", "Claude-SearchBot", "Claude-User",
					"Applebot", "Applebot-Extended", "Baiduspider", "Brightbot", "Bytespider",
					"cohere-ai", "cohere-training-data-crawler", "CCBot", "DuckDuckBot",
					"Google-CloudVertexBot", "Google-Extended", "Googlebot", "GoogleOther",
					"FacebookBot", "meta-externalagent", "meta-externalfetcher",
					"ChatGPT-User", "GPTBot", "OAI-SearchBot", "PerplexityBot", "Perplexity-User", "YandexBot"},
					CrawlDelay: &ValueChange{Old: "", New: "1s"}},
				// Spelled as in the table.
				{Agent: "bingbot", CrawlDelay: &ValueChange{Old: "5s", New: "10s"}},
			}}},
		{"usage", "content-signal: search=yes\nuser-agent: *\ncontent-signal: ai-train=no\n",
			"user-agent: *\ncontent-signal: ai-train=yes\ncontent-usage: train-ai=n\n", Options{Agents: []string{}},
			&Report{Agents: []AgentChange{{Agent: "*", Extras: []ExtraChange{
				{Key: "Content-Signal", Old: []string{"ai-train=no"}, New: []string{"ai-train=yes"}},
				{Key: "Content-Usage", Old: []string{}, New: []string{"train-ai=n"}},
			}}}, Extras: []ExtraChange{{Key: "Content-Signal", Old: []string{"search=yes"}, New: []string{}}}}},
		{"sitemaps", "sitemap: https://a/1\nsitemap: https://a/2\n", "sitemap: https://a/2\nsitemap: https://a/3\n", Options{},
			&Report{Agents: []AgentChange{}, Sitemaps: &ListChange{Removed: []string{"https://a/1"}, Added: []string{"https://a/3"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Compare(robots.Parse([]byte(tt.old)), robots.Parse([]byte(tt.new)), tt.opts)
			if diff := cmp.Diff(tt.want, got, ignoreCounts); diff != "" {
				t.Errorf("Compare mismatch (-want +got):\n%s", diff)
			}
			if got.Changed() != (len(tt.want.Agents) > 0 || tt.want.Sitemaps != nil || tt.want.Extras != nil) {
				t.Errorf("Changed() = %t", got.Changed())
			}
		})
	}
}

func TestCompareBlanket(t *testing.T) {
	got := Compare(robots.AllowAll(), robots.DisallowAll(), Options{Agents: []string{}})
	want := &Report{Agents: []AgentChange{{Agent: "*", Verdicts: []VerdictChange{
		{Path: "/", Paths: 2, Old: Verdict{Allowed: true, Decision: "allowed (allow all)"}, New: Verdict{Decision: "disallowed (disallow all)"}},
	}}}}
	if diff := cmp.Diff(want, got, ignoreCounts); diff != "" {
		t.Errorf("Compare(AllowAll, DisallowAll) mismatch (-want +got):\n%s", diff)
	}
}

// TestCompareIncomplete checks that Compare says when a crawler's wildcards
// combine in too many ways to explore.
func TestCompareIncomplete(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := range 12 {
		l := "abcdefghijklmnop"[i:]
		fmt.Fprintf(&b, "disallow: /*%s*%s$\n", l[:2], l[2:4])
	}
	r := robots.Parse([]byte(b.String()))
	if got := Compare(r, r, Options{}); got.Complete || got.Changed() {
		t.Errorf("Compare of a file with itself: complete %t, changed %t; want false, false", got.Complete, got.Changed())
	}
	small := robots.Parse([]byte("user-agent: *\ndisallow: /*ab*cd$\n"))
	if got := Compare(small, small, Options{}); !got.Complete {
		t.Errorf("Compare of a small file with itself is not complete")
	}
}
