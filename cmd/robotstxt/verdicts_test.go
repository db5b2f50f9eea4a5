package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/cmd/robotstxt/internal/verdict"
)

// yes and no are the values of a verdict's Allowed.
var yes, no = new(true), new(false)

func TestTestJSON(t *testing.T) {
	site := newSite(t, 503, "")
	tests := []struct {
		name   string
		args   []string
		status int
		want   testReport
	}{
		{"file", []string{"test", "-json", "-f", good, "-agent", "OtherBot", "/private/public/a", "/private/x", "/"}, 1, testReport{
			File: good, Agents: []string{"OtherBot"}, Results: []testResult{
				{Agent: "OtherBot", URL: "/private/public/a", Allowed: yes, Reason: "rule", Global: true,
					Rule: &verdict.Rule{Allow: true, Pattern: "/private/public", Line: 4}, Decision: "allowed by line 4: Allow: /private/public"},
				{Agent: "OtherBot", URL: "/private/x", Allowed: no, Reason: "rule", Global: true,
					Rule: &verdict.Rule{Pattern: "/private", Line: 3}, Decision: "disallowed by line 3: Disallow: /private"},
				{Agent: "OtherBot", URL: "/", Allowed: yes, Reason: "no matching rule", Global: true, Decision: "allowed (no matching rule)"},
			}}},
		{"legacy-form", []string{"-json", "-f", good, "/nogoogle"}, 1, testReport{
			File: good, Agents: []string{"Googlebot"}, Results: []testResult{
				{Agent: "Googlebot", URL: "/nogoogle", Allowed: no, Reason: "rule", Rule: &verdict.Rule{Pattern: "/nogoogle", Line: 8}, Decision: "disallowed by line 8: Disallow: /nogoogle"},
			}}},
		{"url/503", []string{"test", "-json", "-f", site.URL, "/a"}, 1, testReport{
			File: site.URL + "/robots.txt", Status: 503, Outcome: "unreachable", Agents: []string{"Googlebot"}, Results: []testResult{
				{Agent: "Googlebot", URL: "/a", Allowed: no, Reason: "disallow all", Decision: "disallowed (disallow all)"},
			}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := run(tt.args, strings.NewReader(""), &stdout, &stderr); status != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr: %s", tt.args, status, tt.status, stderr.String())
			}
			var got testReport
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("run(%q) printed %q: %v", tt.args, stdout.String(), err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("run(%q) mismatch (-want +got):\n%s", tt.args, diff)
			}
		})
	}
}

// TestAgentTokens checks what -agent does with a value that is not a product
// token: a full User-Agent header is cut to its token with a warning, never
// asked as given (which would silently get the answers of "*").
func TestAgentTokens(t *testing.T) {
	tests := []struct {
		name   string
		agent  string
		status int
		out    string
		stderr string // what standard error must contain, or "" for nothing
	}{
		{"token", "bingbot", 1, "disallowed\t/nogoogle\tline 8: Disallow: /nogoogle\n", ""},
		{"token/dashes", "Google-Extended", 0, "allowed\t/nogoogle\t(no matching rule)\n", ""},
		{"header", "bingbot/2.0 (+http://www.bing.com/bingbot.htm)", 1, "disallowed\t/nogoogle\tline 8: Disallow: /nogoogle\n",
			`robotstxt: warning: -agent "bingbot/2.0 (+http://www.bing.com/bingbot.htm)" is a User-Agent header, not a product token: asking as "bingbot"`},
		{"header/compatible", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", 1,
			"disallowed\t/nogoogle\tline 8: Disallow: /nogoogle\n", `asking as "bingbot"`},
		{"header/unknown-crawler", "EvalBot/1.0 (+http://x)", 0, "allowed\t/nogoogle\t(no matching rule)\n", `asking as "EvalBot"`},
		{"not-a-token", "bingbot2", 0, "allowed\t/nogoogle\t(no matching rule)\n",
			`robotstxt: warning: -agent "bingbot2" is not a product token (letters, "-" and "_"): no user-agent line can name it, so the groups for "*" answer`},
		{"browser", "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36", 2, "",
			`robotstxt test: -agent: the agent "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36" names no crawler`},
		{"browser/short", "Mozilla/5.0 (X11)", 2, "", `names no crawler`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := []string{"test", "-f", good, "-agent", tt.agent, "/nogoogle"}
			if status := run(args, nil, &stdout, &stderr); status != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr: %s", args, status, tt.status, stderr.String())
			}
			if diff := cmp.Diff(tt.out, stdout.String()); diff != "" {
				t.Errorf("run(%q) output mismatch (-want +got):\n%s", args, diff)
			}
			if got := stderr.String(); tt.stderr == "" && got != "" || !strings.Contains(got, tt.stderr) {
				t.Errorf("run(%q) printed on standard error %q, want %q", args, got, tt.stderr)
			}
		})
	}
}

// gitHubLike is a file that, like github.com's, disallows one AI crawler
// everything and another crawler part of the site.
const gitHubLike = `User-agent: GPTBot
Disallow: /

User-agent: bingbot
Disallow: /search

User-agent: googlebot-news
Allow: /news/

User-agent: *
Disallow: /news/
`

// TestSeveralAgents checks that each -agent value is a crawler answered
// apart, named on each line, and that a crawler obeying several tokens is
// spelled with commas. Repeated -agent values were merged into one crawler,
// which answered "allowed" for "/" though GPTBot alone is disallowed.
func TestSeveralAgents(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		out    string
	}{
		{"three", []string{"-agent", "Googlebot", "-agent", "GPTBot", "-agent", "bingbot", "/", "/search/a"}, 1,
			"allowed\tGooglebot\t/\t(no matching rule)\n" +
				"disallowed\tGPTBot\t/\tline 2: Disallow: /\n" +
				"allowed\tbingbot\t/\t(no matching rule)\n" +
				"allowed\tGooglebot\t/search/a\t(no matching rule)\n" +
				"disallowed\tGPTBot\t/search/a\tline 2: Disallow: /\n" +
				"disallowed\tbingbot\t/search/a\tline 5: Disallow: /search\n"},
		{"merged", []string{"-agent", "googlebot-news,googlebot", "/news/a"}, 0,
			"allowed\t/news/a\tline 8: Allow: /news/\n"},
		{"merged-spaces", []string{"-agent", "googlebot-news, googlebot", "/news/a"}, 0,
			"allowed\t/news/a\tline 8: Allow: /news/\n"},
		{"merged-and-alone", []string{"-agent", "googlebot-news,googlebot", "-agent", "Googlebot", "/news/a"}, 1,
			"allowed\tgooglebot-news,googlebot\t/news/a\tline 8: Allow: /news/\n" +
				"disallowed\tGooglebot\t/news/a\tline 11: Disallow: /news/\n"},
		{"header-with-commas", []string{"-agent", "Mozilla/5.0 (KHTML, like Gecko; compatible; GPTBot/1.2)", "/"}, 1,
			"disallowed\t/\tline 2: Disallow: /\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			args := append([]string{"test", "-f", "-"}, tt.args...)
			if status := run(args, strings.NewReader(gitHubLike), &stdout, &stderr); status != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr: %s", args, status, tt.status, stderr.String())
			}
			if diff := cmp.Diff(tt.out, stdout.String()); diff != "" {
				t.Errorf("run(%q) output mismatch (-want +got):\n%s", args, diff)
			}
		})
	}
	t.Run("json", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		args := []string{"test", "-json", "-f", "-", "-agent", "GPTBot", "-agent", "googlebot-news,googlebot", "/news/a"}
		if status := run(args, strings.NewReader(gitHubLike), &stdout, &stderr); status != 1 {
			t.Errorf("run(%q) = %d, want 1; stderr: %s", args, status, stderr.String())
		}
		var got testReport
		if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
			t.Fatalf("run(%q) printed %q: %v", args, stdout.String(), err)
		}
		want := testReport{File: "stdin", Agents: []string{"GPTBot", "googlebot-news,googlebot"}, Results: []testResult{
			{Agent: "GPTBot", URL: "/news/a", Allowed: no, Reason: "rule", Rule: &verdict.Rule{Pattern: "/", Line: 2}, Decision: "disallowed by line 2: Disallow: /"},
			{Agent: "googlebot-news,googlebot", URL: "/news/a", Allowed: yes, Reason: "rule", Rule: &verdict.Rule{Allow: true, Pattern: "/news/", Line: 8},
				Decision: "allowed by line 8: Allow: /news/"},
		}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("run(%q) mismatch (-want +got):\n%s", args, diff)
		}
	})
}
