package audit

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

func TestSamplePaths(t *testing.T) {
	many := "user-agent: *\n"
	for c := 'a'; c <= 'z'; c++ {
		many += "disallow: /" + string(c) + "\n"
	}
	tests := []struct {
		name, body string
		want       []string
	}{
		{"empty", "", []string{"/"}},
		{"literal-prefixes", "user-agent: *\ndisallow: /a/*.pdf$\nallow: /b$\ndisallow: *.gif\ndisallow: /a/\n", []string{"/", "/a/", "/b"}},
		{"no-repeat-root", "user-agent: *\ndisallow: /\ndisallow: /*?\n", []string{"/"}},
		{"escaped", "user-agent: *\ndisallow: /a b/\ndisallow: /café\n", []string{"/", "/a%20b/", "/caf%C3%A9"}},
		{"never-matching-skipped", "user-agent: *\ndisallow: private\n", []string{"/"}},
		{"capped", many, append([]string{"/"}, strings.Split("/a /b /c /d /e /f /g /h /i /j /k", " ")...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, SamplePaths(robots.Parse([]byte(tt.body)))); diff != "" {
				t.Errorf("SamplePaths(%q) mismatch (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

func TestRun(t *testing.T) {
	tests := []struct {
		name, body string
		want       Summary
	}{
		{"empty", "", Summary{AICrawlers: 19, AIControls: 2, SearchCrawlers: 6,
			Text: "blocks 0 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
		{"retired-not-counted", "user-agent: anthropic-ai\nuser-agent: GPTBot\ndisallow: /\n", Summary{AICrawlers: 19, AIBlocked: 1, AIControls: 2, SearchCrawlers: 6,
			Text: "blocks 1 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
		{"control-only", "user-agent: Google-Extended\ndisallow: /\n", Summary{AICrawlers: 19, AIControls: 2, AIControlsBlocked: 1, SearchCrawlers: 6,
			Text: "blocks 0 of 19 known AI crawlers, 1 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
		{"crawler-and-control", "user-agent: GPTBot\nuser-agent: Google-Extended\ndisallow: /\n", Summary{AICrawlers: 19, AIBlocked: 1, AIControls: 2,
			AIControlsBlocked: 1, SearchCrawlers: 6,
			Text: "blocks 1 of 19 known AI crawlers, 1 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
		{"control-below-root", "user-agent: Applebot-Extended\ndisallow: /private/\n", Summary{AICrawlers: 19, AIControls: 2, SearchCrawlers: 6,
			Text: "blocks 0 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
		{"everything", "user-agent: *\ndisallow: /\ncontent-usage: train-ai=y\ncontent-signal: search=no\n", Summary{AICrawlers: 19, AIBlocked: 19,
			AIControls: 2, AIControlsBlocked: 2, SearchCrawlers: 6, SearchBlocked: 6, Training: robots.PreferenceUnknown, Search: robots.PreferenceNo,
			Text: "blocks 19 of 19 known AI crawlers, 2 of 2 AI control tokens and 6 of 6 search crawlers; training: unstated; search: no"}},
		{"usage-and-signal", "user-agent: *\ncontent-usage: / train-ai=y\ncontent-signal: ai-train=no\n", Summary{AICrawlers: 19, AIControls: 2,
			SearchCrawlers: 6, Training: robots.PreferenceNo,
			Text: "blocks 0 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: no; search: unstated"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Run(robots.Parse([]byte(tt.body))).Summary); diff != "" {
				t.Errorf("Run(%q).Summary mismatch (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// TestRunVerdicts checks a crawler's verdicts and deciding lines.
func TestRunVerdicts(t *testing.T) {
	rep := Run(robots.Parse([]byte("user-agent: GPTBot\ndisallow: /a/\ncontent-usage: / train-ai=n\n")))
	var got Result
	for _, c := range rep.Crawlers {
		if c.Token == "GPTBot" {
			got = c
		}
	}
	usage := &robots.ContentUsage{TrainAI: robots.PreferenceNo, Lines: []int{3}}
	want := []Verdict{
		{Path: "/", Allowed: true, Reason: "no matching rule", Usage: usage},
		{Path: "/a/", Allowed: false, Line: 2, Reason: "Disallow: /a/"},
	}
	if diff := cmp.Diff(want, got.Verdicts); diff != "" {
		t.Errorf("GPTBot verdicts mismatch (-want +got):\n%s", diff)
	}
	if !got.Named || got.Blocked || !got.AI {
		t.Errorf("GPTBot named, blocked, ai = %t, %t, %t; want true, false, true", got.Named, got.Blocked, got.AI)
	}
}
