package robots

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestProductToken(t *testing.T) {
	tests := []struct{ ua, want string }{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/120.0.0.0 Safari/537.36", "Googlebot"},
		{"Googlebot-Image/1.0", "Googlebot-Image"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"},
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "GPTBot"},
		{"FooBot/1.0", "FooBot"},
		{"FooBot", "FooBot"},
		{"curl/8.0.1", "curl"},
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "MJ"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0.2272.96 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"},
		{"Mozilla/5.0 (iPhone; CPU iPhone OS 14_7_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/14.1.2 Mobile/15E148 Safari/604.1 (compatible; AdsBot-Google-Mobile; +http://www.google.com/mobile/adsbot.html)", "AdsBot-Google-Mobile"},
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", ""},
		{"", ""},
		{"Mozilla/5.0", ""},
	}
	for _, tt := range tests {
		if got := ProductToken(tt.ua); got != tt.want {
			t.Errorf("ProductToken(%q) = %q, want %q", tt.ua, got, tt.want)
		}
	}
}

// TestCrawlerToken checks the one rule every front end applies to the
// agent it is given: tokens and "*" as given, headers cut to their token,
// other values as given with a warning, and no crawler an error.
func TestCrawlerToken(t *testing.T) {
	tests := []struct {
		name, agent, token string
		warns, fails       bool
	}{
		{"token", "GPTBot", "GPTBot", false, false},
		{"token-dash", "Googlebot-News", "Googlebot-News", false, false},
		{"star", "*", "*", false, false},
		{"header", "GPTBot/1.2 (+https://openai.com/gptbot)", "GPTBot", true, false},
		{"header-version", "Googlebot/2.1", "Googlebot", true, false},
		{"header-compatible", "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot", true, false},
		{"browser", "Mozilla/5.0 (X11)", "", false, true},
		{"ambiguous/first-word", "Eval Bot/1.0", "", false, true},
		{"ambiguous/comment", "Eval Bot/1.0 (+http://x)", "", false, true},
		{"header-word", "EvalBot (+http://x)", "EvalBot", true, false},
		{"header-mobile", "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot", true, false},
		{"browser-full", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36", "", false, true},
		{"empty", "", "", false, true},
		{"spaces", "  ", "", false, true},
		{"digits", "MJ12bot", "MJ12bot", true, false},
		{"dots", "bot.example", "bot.example", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			token, warning, err := CrawlerToken(tt.agent)
			if token != tt.token || (warning != "") != tt.warns || (err != nil) != tt.fails {
				t.Errorf("CrawlerToken(%q) = %q, %q, %v; want %q, warning %t, error %t", tt.agent, token, warning, err, tt.token, tt.warns, tt.fails)
			}
			if err != nil && !strings.HasPrefix(err.Error(), "robots: ") {
				t.Errorf("CrawlerToken(%q) error %q lacks the robots: prefix", tt.agent, err)
			}
			if tt.agent != "" && err != nil && !strings.Contains(err.Error(), strconv.Quote(tt.agent)) {
				t.Errorf("CrawlerToken(%q) error %q does not quote the agent", tt.agent, err)
			}
		})
	}
}

// TestLookupRef finds each token of files that name a few agents and many,
// in any case, and no other.
func TestLookupRef(t *testing.T) {
	for _, n := range []int{1, 8, 9, 40} {
		var body strings.Builder
		for i := range n {
			// Tokens of varied lengths, written in mixed case.
			fmt.Fprintf(&body, "user-agent: Bot%s\ndisallow: /%d\n", strings.Repeat("X", i%5)+letters(i), i)
		}
		body.WriteString("user-agent: *\ndisallow: /\n")
		r := Parse([]byte(body.String()))
		tests := []struct {
			name, agent string
			group       int // the group whose rule decides; n for "*"
		}{
			{"first", "botA", 0},
			{"first-upper", "BOTA", 0},
			{"last", "bot" + strings.Repeat("x", (n-1)%5) + letters(n-1), n - 1},
			{"prefix", "bo", n},
			{"longer", "bota-x", n},
			{"empty", "", n},
			{"star", "*", n},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("tokens=%d/%s", n, tt.name), func(t *testing.T) {
				url := "/" + strconv.Itoa(tt.group) + "/x"
				if d := r.Decide(tt.agent, url); d.Rule.Line != 2*tt.group+2 {
					t.Errorf("Decide(%q, %q) = %v, want the rule of line %d", tt.agent, url, d, 2*tt.group+2)
				}
				if got, want := r.Allowed(tt.agent, "/none"), tt.group < n; got != want {
					t.Errorf("Allowed(%q, /none) = %v, want %v", tt.agent, got, want)
				}
			})
		}
	}
}

func TestSplitAgents(t *testing.T) {
	tests := []struct {
		agent string
		want  []string
	}{
		{"Googlebot", []string{"Googlebot"}},
		{" Googlebot ", []string{"Googlebot"}},
		{"googlebot-news,googlebot", []string{"googlebot-news", "googlebot"}},
		{"googlebot-news, googlebot", []string{"googlebot-news", "googlebot"}},
		{"a,,b", []string{"a", "", "b"}}, // an empty token, which CrawlerToken refuses
		{"Mozilla/5.0 (compatible; Foo, Bar)", []string{"Mozilla/5.0 (compatible; Foo, Bar)"}},
		{"x;y,z", []string{"x;y,z"}},
		{"", []string{""}},
	}
	for _, tt := range tests {
		if got := SplitAgents(tt.agent); !slices.Equal(got, tt.want) {
			t.Errorf("SplitAgents(%q) = %q, want %q", tt.agent, got, tt.want)
		}
	}
}
