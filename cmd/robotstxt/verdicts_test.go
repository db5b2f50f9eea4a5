package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

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
				{URL: "/private/public/a", Allowed: true, Reason: "rule", Global: true,
					Rule: &ruleJSON{Allow: true, Pattern: "/private/public", Line: 4}, Decision: "allowed by line 4: Allow: /private/public"},
				{URL: "/private/x", Reason: "rule", Global: true,
					Rule: &ruleJSON{Pattern: "/private", Line: 3}, Decision: "disallowed by line 3: Disallow: /private"},
				{URL: "/", Allowed: true, Reason: "no matching rule", Global: true, Decision: "allowed (no matching rule)"},
			}}},
		{"legacy-form", []string{"-json", "-f", good, "/nogoogle"}, 1, testReport{
			File: good, Agents: []string{"Googlebot"}, Results: []testResult{
				{URL: "/nogoogle", Reason: "rule", Rule: &ruleJSON{Pattern: "/nogoogle", Line: 8}, Decision: "disallowed by line 8: Disallow: /nogoogle"},
			}}},
		{"url/503", []string{"test", "-json", "-f", site.URL, "/a"}, 1, testReport{
			File: site.URL + "/robots.txt", Status: 503, Outcome: "unreachable", Agents: []string{"Googlebot"}, Results: []testResult{
				{URL: "/a", Reason: "disallow all", Decision: "disallowed (disallow all)"},
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
			`names no crawler: give its product token, such as Googlebot`},
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
