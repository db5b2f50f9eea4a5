package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// moreCodes are the codes of the checks of checkext.go.
var moreCodes = []Code{
	CodeUnknownSignal, CodeInvalidSignal, CodeDuplicateSignal, CodeSignalContradictsRules, CodeLongCrawlDelay,
	CodeDuplicateCrawlDelay, CodeSpaceInPattern, CodeCrawlerToken, CodeRetiredCrawler,
}

func init() {
	// FuzzCheck accepts only known codes.
	knownCodes = append(knownCodes, moreCodes...)
}

// moreFindings returns the findings of Check on body that have the codes
// of checkext.go, as "line severity code".
func moreFindings(body string) []string {
	var out []string
	for _, d := range Check([]byte(body)) {
		if slices.Contains(moreCodes, d.Code) {
			out = append(out, fmt.Sprintf("%d %s %s", d.Line, d.Severity, d.Code))
		}
	}
	return out
}

func TestCheckMore(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"signal/valid", contentSignalsExample, nil},
		{"signal/unknown", "user-agent: *\ncontent-signal: ai_train=no, train=no\n",
			[]string{"2 warning unknown-signal", "2 warning unknown-signal"}},
		{"signal/cloudflare-use", "user-agent: *\ncontent-signal: search=yes, use=reference\n", nil},
		{"signal/bad-value", "user-agent: *\ncontent-signal: search=true\n", []string{"2 warning invalid-signal"}},
		{"signal/empty", "user-agent: *\ncontent-signal: ,\n", []string{"2 warning invalid-signal"}},
		{"signal/duplicate-line", "user-agent: *\ncontent-signal: search=yes, search=no\n", []string{"2 warning duplicate-signal"}},
		{"signal/duplicate-group", "user-agent: *\ncontent-signal: search=yes\ncontent-signal: search=no\n",
			[]string{"3 warning duplicate-signal"}},
		{"signal/other-groups", "user-agent: a\ncontent-signal: search=yes\ndisallow: /x\nuser-agent: b\ncontent-signal: search=no\n", nil},
		{"signal/outside-group-left-to-checker", "content-signal: bad\nuser-agent: *\n", nil},
		{"signal/contradicts-disallow-all", "user-agent: GPTBot\ndisallow: /\ncontent-signal: ai-train=yes, search=no\n",
			[]string{"3 warning signal-contradicts-rules"}},
		{"signal/allowed-back", "user-agent: GPTBot\ndisallow: /\nallow: /public/\ncontent-signal: ai-train=yes\n", nil},
		{"usage/valid", attachExample, nil},
		{"usage/no-path", "user-agent: *\ncontent-usage: train-ai=n\n", nil},
		{"usage/no-path-disallowed-group", "user-agent: *\ndisallow: /\ncontent-usage: train-ai=y\n",
			[]string{"3 warning signal-contradicts-rules"}},
		{"usage/old-category", "user-agent: *\ncontent-usage: / ai-use=n, bots=y, train-genai=n\n",
			[]string{"2 warning unknown-signal", "2 warning unknown-signal"}},
		{"usage/disallowed-path", "user-agent: *\ndisallow: /private/\ncontent-usage: /private/x train-ai=y\n",
			[]string{"3 warning signal-contradicts-rules"}},
		{"usage/disallowed-allowed-back", "user-agent: *\ndisallow: /private/\nallow: /private/x/public\ncontent-usage: /private/x train-ai=y\n", nil},
		{"usage/disallowed-other-group", "user-agent: a\ndisallow: /p\n\nuser-agent: b\ncontent-usage: /p train-ai=y\n", nil},
		{"usage/disallowed-same-agent-other-record", "user-agent: a\ndisallow: /p\n\nuser-agent: a\ncontent-usage: /p/q train-ai=y\n",
			[]string{"5 warning signal-contradicts-rules"}},
		{"usage/allowed-path", "user-agent: *\ndisallow: /private/\ncontent-usage: /public/ train-ai=y\n", nil},
		{"usage/not-a-dictionary", "user-agent: *\ncontent-usage: / train-ai = n;\n", []string{"2 warning invalid-signal"}},
		{"usage/no-is-not-n", "user-agent: *\ncontent-usage: / train-ai=no\n", []string{"2 warning invalid-signal"}},
		{"usage/unknown-category", "user-agent: *\ncontent-usage: / train-genai=n\n", []string{"2 warning unknown-signal"}},
		{"usage/duplicate", "user-agent: *\ncontent-usage: / search=y, search=n\n", []string{"2 warning duplicate-signal"}},
		{"crawl-delay/long", "user-agent: *\ncrawl-delay: 86400\n", []string{"2 warning long-crawl-delay"}},
		{"crawl-delay/minute", "user-agent: *\ncrawl-delay: 60\n", nil},
		{"crawl-delay/not-number-left-to-checker", "user-agent: *\ncrawl-delay: 1e9\n", nil},
		{"crawl-delay/twice", "user-agent: *\ncrawl-delay: 1\ncrawl-delay: 2\ndisallow: /x\nuser-agent: b\ncrawl-delay: 3\n",
			[]string{"3 warning duplicate-crawl-delay"}},
		{"pattern/space", "user-agent: *\ndisallow: /a /b\nallow: /c\td\n",
			[]string{"2 warning space-in-pattern", "3 warning space-in-pattern"}},
		{"pattern/escaped-space", "user-agent: *\ndisallow: /a%20b\n", nil},
		{"user-agent/crawler-token", "user-agent: Brightbot 1.0\ndisallow: /\n", []string{"1 info crawler-token"}},
		{"user-agent/version-is-fine", "user-agent: GPTBot/1.2\ndisallow: /\n", nil},
		{"user-agent/unknown-cut", "user-agent: FooBot 1.0\ndisallow: /\n", nil},
		{"user-agent/retired", "user-agent: anthropic-ai\nuser-agent: Claude-Web\ndisallow: /\n",
			[]string{"1 warning retired-crawler", "2 warning retired-crawler"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, moreFindings(tt.body)); diff != "" {
				t.Errorf("Check(%q) mismatch (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// TestCheckMoreMessages pins the wording of a few findings.
func TestCheckMoreMessages(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"crawler-token", "user-agent: Brightbot 1.0\n",
			`robots: line 1: user-agent "Brightbot 1.0" is not a product token: it names Bright Data's crawler "Brightbot" (other); write "Brightbot"`},
		{"long-crawl-delay", "user-agent: *\ncrawl-delay: 3600\n",
			`robots: line 2: a "Crawl-delay" of 3600 seconds lets a crawler that obeys it fetch at most 24 pages a day`},
		{"long-crawl-delay/one-page", "user-agent: *\ncrawl-delay: 86400\n",
			`robots: line 2: a "Crawl-delay" of 86400 seconds lets a crawler that obeys it fetch at most 1 page a day`},
		{"unknown-signal-guess", "user-agent: *\ncontent-signal: ai_input=no\n",
			`robots: line 2: unknown content signal "ai_input" (did you mean "ai-input"?)`},
		{"usage-disallowed", "user-agent: *\ndisallow: /p/\ncontent-usage: /p/ train-ai=y\n",
			`robots: line 3: Content-Usage for "/p/" in a group that disallows it (line 2: Disallow: /p/): preferences apply only to paths that may be crawled, so this line has no effect`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Check([]byte(tt.body)) {
				if slices.Contains(moreCodes, d.Code) {
					got = append(got, d.String())
				}
			}
			if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
				t.Errorf("Check(%q) mismatch (-want +got):\n%s", tt.body, diff)
			}
		})
	}
}

// FuzzCheckMore checks that the findings of checkext.go never panic, are on
// existing lines and have their codes.
func FuzzCheckMore(f *testing.F) {
	f.Add([]byte(attachExample))
	f.Add([]byte(contentSignalsExample))
	f.Add([]byte("user-agent: Brightbot 1.0\ndisallow: /a b\ncrawl-delay: 99\ncrawl-delay: 1\ncontent-usage: /a train-ai=n;p=\"x\"\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > checkFuzzMaxBytes {
			return // see fuzzMaxBytes
		}
		lines := 1 + strings.Count(string(body), "\n") + strings.Count(string(body), "\r")
		for _, d := range Check(body) {
			if slices.Contains(moreCodes, d.Code) && (d.Line < 1 || d.Line > lines || d.Message == "") {
				t.Fatalf("bad finding %+v in %q", d, body)
			}
		}
	})
}

// TestCheckHugeCrawlDelay checks that a crawl-delay too large for a
// time.Duration is one finding, not two that contradict each other: it is
// read as the largest delay (so not "ignored"), which lets a crawler fetch
// fewer than one page a day (issue 26 item 12).
func TestCheckHugeCrawlDelay(t *testing.T) {
	for _, value := range []string{"9223372036", "99999999999999999999999"} {
		body := "user-agent: *\ncrawl-delay: " + value + "\n"
		var got []string
		for _, d := range Check([]byte(body)) {
			if d.Code != CodeIgnoredByGoogle {
				got = append(got, d.String())
			}
		}
		want := []string{`robots: line 2: a "Crawl-delay" of ` + value + ` seconds lets a crawler that obeys it fetch fewer than one page a day`}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("Check(%q) mismatch (-want +got):\n%s", body, diff)
		}
	}
}
