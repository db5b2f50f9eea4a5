package lint

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots"
)

// TestCrawlerSources pins the source of each row of the table, so that a
// change to one is a visible change to this test.
func TestCrawlerSources(t *testing.T) {
	want := map[string]string{
		"Amazonbot":                    "https://developer.amazon.com/amazonbot",
		"Applebot":                     "https://support.apple.com/en-us/119829",
		"Applebot-Extended":            "https://support.apple.com/en-us/119829",
		"ClaudeBot":                    srcAnthropic,
		"Claude-SearchBot":             srcAnthropic,
		"Claude-User":                  srcAnthropic,
		"Claude-Web":                   srcAnthropic,
		"anthropic-ai":                 srcAnthropic,
		"Baiduspider":                  "https://www.baidu.com/search/robots_english.html",
		"Brightbot":                    "https://brightdata.com/brightbot",
		"Bytespider":                   "",
		"cohere-ai":                    "",
		"cohere-training-data-crawler": "",
		"CCBot":                        "https://commoncrawl.org/ccbot",
		"DuckDuckBot":                  "https://duckduckgo.com/duckduckgo-help-pages/results/duckduckbot",
		"Google-CloudVertexBot":        srcGoogle,
		"Google-Extended":              srcGoogle,
		"Googlebot":                    srcGoogle,
		"GoogleOther":                  srcGoogle,
		"FacebookBot":                  srcMeta,
		"meta-externalagent":           srcMeta,
		"meta-externalfetcher":         srcMeta,
		"bingbot":                      "https://www.bing.com/webmasters/help/which-crawlers-does-bing-use-8c184ec0",
		"ChatGPT-User":                 "https://developers.openai.com/api/docs/bots",
		"GPTBot":                       "https://developers.openai.com/api/docs/bots",
		"OAI-SearchBot":                "https://developers.openai.com/api/docs/bots",
		"PerplexityBot":                "https://docs.perplexity.ai/guides/bots",
		"Perplexity-User":              "https://docs.perplexity.ai/guides/bots",
		"YandexBot":                    "https://yandex.com/support/webmaster/en/robot-workings/check-yandex-robots.html",
	}
	got := map[string]string{}
	for _, c := range KnownCrawlers() {
		got[c.Token] = c.Source
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("KnownCrawlers sources mismatch (-want +got):\n%s", diff)
	}
	if srcAnthropic != "https://support.claude.com/en/articles/8896518-does-anthropic-crawl-data-from-the-web-and-how-can-site-owners-block-the-crawler" ||
		srcGoogle != "https://developers.google.com/crawling/docs/crawlers-fetchers/google-common-crawlers" ||
		srcMeta != "https://developers.facebook.com/docs/sharing/webmasters/web-crawlers" {
		t.Errorf("a shared source changed")
	}
}

// TestCrawlerRows checks what every row must hold.
func TestCrawlerRows(t *testing.T) {
	table := KnownCrawlers()
	for i, c := range table {
		t.Run(c.Token, func(t *testing.T) {
			if c.Token == "" || strings.Trim(c.Token, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_") != "" {
				t.Errorf("token %q is not a product token", c.Token)
			}
			if c.Operator == "" || c.Checked != tableChecked {
				t.Errorf("row %+v lacks an operator or its date", c)
			}
			if c.Source == "" && c.Note == "" || c.Source != "" && !strings.HasPrefix(c.Source, "https://") {
				t.Errorf("row %q: source %q (an https page, or a note saying why there is none)", c.Token, c.Source)
			}
			if c.Retired && c.Note == "" {
				t.Errorf("retired row %q says nothing of what replaces it", c.Token)
			}
			if i > 0 && table[i-1].Operator > c.Operator {
				t.Errorf("row %q (%s) after %q (%s): not sorted by operator", c.Token, c.Operator, table[i-1].Token, table[i-1].Operator)
			}
			for _, d := range table[:i] {
				if strings.EqualFold(d.Token, c.Token) {
					t.Errorf("token %q twice", c.Token)
				}
			}
		})
	}
}

func TestLookupCrawler(t *testing.T) {
	tests := []struct {
		name, token string
		want        Crawler
		ok          bool
	}{
		{"exact", "GPTBot", Crawler{Token: "GPTBot", Operator: "OpenAI", Purpose: PurposeTraining, Robots: HonoursYes,
			Source: srcOpenAI, Checked: tableChecked}, true},
		{"any-case", "gptbot", Crawler{Token: "GPTBot", Operator: "OpenAI", Purpose: PurposeTraining, Robots: HonoursYes,
			Source: srcOpenAI, Checked: tableChecked}, true},
		{"retired", "Claude-Web", Crawler{Token: "Claude-Web", Operator: "Anthropic", Purpose: PurposeUserFetch, Retired: true,
			Source: srcAnthropic, Checked: tableChecked, Note: "no crawler sends it any more: name Claude-User"}, true},
		{"unknown", "NoSuchBot", Crawler{}, false},
		{"prefix-is-not-enough", "GPT", Crawler{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := LookupCrawler(tt.token)
			if ok != tt.ok {
				t.Errorf("LookupCrawler(%q) ok = %t, want %t", tt.token, ok, tt.ok)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("LookupCrawler(%q) mismatch (-want +got):\n%s", tt.token, diff)
			}
		})
	}
}

// TestKnownCrawlersCopy checks that callers cannot change the table.
func TestKnownCrawlersCopy(t *testing.T) {
	KnownCrawlers()[0].Token = "changed"
	if KnownCrawlers()[0].Token == "changed" {
		t.Error("KnownCrawlers returned the table itself")
	}
}

func TestPurposeAndHonoursNames(t *testing.T) {
	got := []string{PurposeOther.String(), PurposeTraining.String(), PurposeAISearch.String(), PurposeUserFetch.String(),
		PurposeSearch.String(), Purpose(9).String(), HonoursUnstated.String(), HonoursYes.String(), HonoursNo.String(), Honours(9).String(),
		robots.PreferenceUnknown.String(), robots.PreferenceYes.String(), robots.PreferenceNo.String(), robots.Preference(9).String()}
	want := []string{"other", "training", "ai-search", "user-fetch", "search", "purpose(9)", "unstated", "yes", "no", "honours(9)",
		"unknown", "yes", "no", "preference(9)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("names mismatch (-want +got):\n%s", diff)
	}
}

// TestControlTokens pins the rows that are robots.txt control tokens
// rather than crawlers: no crawler sends them as its User-Agent.
func TestControlTokens(t *testing.T) {
	var got []string
	for _, c := range KnownCrawlers() {
		if c.Control {
			got = append(got, c.Token)
			if c.Purpose == PurposeSearch || c.Note == "" {
				t.Errorf("control token %q: purpose %v, note %q", c.Token, c.Purpose, c.Note)
			}
		}
	}
	want := []string{"Applebot-Extended", "Google-Extended"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("control tokens (-want +got):\n%s", diff)
	}
}

// TestCrawlerAI pins what AI says of a row of each purpose.
func TestCrawlerAI(t *testing.T) {
	tests := []struct {
		token string
		want  bool
	}{
		{"GPTBot", true},
		{"Google-Extended", true},
		{"CCBot", true},
		{"ChatGPT-User", true},
		{"bingbot", false},
		{"Googlebot", false},
	}
	for _, tt := range tests {
		t.Run(tt.token, func(t *testing.T) {
			c, ok := LookupCrawler(tt.token)
			if !ok || c.AI() != tt.want {
				t.Errorf("LookupCrawler(%q): found %v, AI() = %v, want %v", tt.token, ok, c.AI(), tt.want)
			}
		})
	}
}
