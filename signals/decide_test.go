package signals

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
)

var testNow = time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)

// seenPage returns what a crawler sees of a page with these header lines
// ("Name: value") and head.
func seenPage(t *testing.T, robotsTxt string, headers []string, head string) Seen {
	t.Helper()
	s := Seen{Robots: robots.Parse([]byte(robotsTxt)), Header: http.Header{}, Now: testNow}
	for _, h := range headers {
		k, v, _ := strings.Cut(h, ":")
		s.Header.Add(k, strings.TrimSpace(v))
	}
	if head != "" {
		var err error
		if s.Head, err = ReadHead(strings.NewReader(head), 0); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestMappingRows checks each row of the package documentation's table.
func TestMappingRows(t *testing.T) {
	type want struct {
		use    Use
		answer Answer
		signal string
		detail string
	}
	tests := []struct {
		name      string
		robotsTxt string
		headers   []string
		head      string
		want      []want
	}{
		{"robots.txt/allow", "user-agent: *\ndisallow: /private/\n", nil, "",
			[]want{{UseFetch, Allow, SignalRobotsTxt, "no matching rule"}}},
		{"robots.txt/disallow", "user-agent: *\ndisallow: /page\n", nil, "",
			[]want{{UseFetch, Deny, SignalRobotsTxt, "line 2: Disallow: /page"}}},
		{"meta/noindex", "", nil, `<meta name="robots" content="noindex">`,
			[]want{{UseIndex, Deny, SignalMeta, "noindex"}}},
		{"x-robots-tag/none", "", []string{"X-Robots-Tag: none"}, "",
			[]want{{UseIndex, Deny, SignalXRobotsTag, "none"}}},
		{"meta/indexifembedded", "", nil, `<meta name="robots" content="noindex, indexifembedded">`,
			[]want{{UseIndex, Conditional, SignalMeta, "noindex, indexifembedded (only when embedded)"}}},
		{"x-robots-tag/unavailable-after-passed", "", []string{"X-Robots-Tag: unavailable_after: 2020-09-21"}, "",
			[]want{{UseIndex, Deny, SignalXRobotsTag, "unavailable_after: 2020-09-21 (passed)"}}},
		{"x-robots-tag/unavailable-after-to-come", "", []string{"X-Robots-Tag: unavailable_after: 2099-01-01"}, "",
			[]want{{UseIndex, Conditional, SignalXRobotsTag, "unavailable_after: 2099-01-01 (until then)"}}},
		{"meta/nosnippet", "", nil, `<meta name="robots" content="nosnippet">`,
			[]want{{UseSnippet, Deny, SignalMeta, "nosnippet"}, {UseAIInput, Deny, SignalMeta, "nosnippet"}}},
		{"meta/max-snippet-0", "", nil, `<meta name="robots" content="max-snippet:0">`,
			[]want{{UseSnippet, Deny, SignalMeta, "max-snippet:0"}, {UseAIInput, Deny, SignalMeta, "max-snippet:0"}}},
		{"meta/max-snippet-n", "", nil, `<meta name="robots" content="max-snippet:50">`,
			[]want{{UseSnippet, Conditional, SignalMeta, "max-snippet:50"}, {UseAIInput, Conditional, SignalMeta, "max-snippet:50"}}},
		{"meta/max-snippet-unlimited", "", nil, `<meta name="robots" content="max-snippet:-1">`,
			[]want{{UseSnippet, Allow, SignalMeta, "max-snippet:-1"}}},
		{"x-robots-tag/noarchive", "", []string{"X-Robots-Tag: evalbot: noarchive", "X-Robots-Tag: bingbot: nocache"}, "",
			[]want{{UseAIInput, Deny, SignalXRobotsTag, "evalbot: noarchive"}, {UseAITrain, Deny, SignalXRobotsTag, "evalbot: noarchive"}}},
		{"meta/nocache", "", nil, `<meta name="robots" content="nocache">`,
			[]want{{UseAIInput, Conditional, SignalMeta, "nocache (URL, title and snippet only)"}, {UseAITrain, Conditional, SignalMeta, "nocache (URL, title and snippet only)"}}},
		{"meta/nocache-and-noarchive", "", nil, `<meta name="robots" content="noarchive, nocache">`,
			[]want{{UseAIInput, Conditional, SignalMeta, "nocache (URL, title and snippet only)"}, {UseAITrain, Conditional, SignalMeta, "nocache (URL, title and snippet only)"}}},
		{"meta/noai", "", nil, `<meta name="robots" content="noai">`,
			[]want{{UseAITrain, Deny, SignalMeta, "noai"}, {UseAIInput, Unknown, "", ""}}},
		{"meta/noimageai", "", nil, `<meta name="robots" content="noimageai">`,
			[]want{{UseAITrain, Conditional, SignalMeta, "noimageai (images excluded)"}}},
		{"meta/noml", "", nil, `<meta name="robots" content="noml">`,
			[]want{{UseAITrain, Deny, SignalMeta, "noml"}}},
		{"meta/no-use", "", nil, `<meta name="robots" content="all, index, follow, nofollow, notranslate, noimageindex, max-image-preview:none, max-video-preview:0">`,
			[]want{{UseIndex, Unknown, "", ""}, {UseSnippet, Unknown, "", ""}, {UseAIInput, Unknown, "", ""}, {UseAITrain, Unknown, "", ""}}},
		{"tdmrep/header-1", "", []string{"tdm-reservation: 1"}, "",
			[]want{{UseAITrain, Deny, SignalTDMRep, "header tdm-reservation: 1"}}},
		{"tdmrep/meta-1-policy", "", nil, `<meta name="tdm-reservation" content="1"><meta name="tdm-policy" content="https://p/policy.json">`,
			[]want{{UseAITrain, Conditional, SignalTDMRep, `<meta name="tdm-reservation" content="1"> (licence terms: https://p/policy.json)`}}},
		{"tdmrep/header-0", "", []string{"tdm-reservation: 0"}, "",
			[]want{{UseAITrain, Allow, SignalTDMRep, "header tdm-reservation: 0"}}},
		{"content-usage/header", "", []string{"Content-Usage: train-ai=n, ai-use=y, search=n"}, "",
			[]want{{UseAITrain, Deny, SignalContentUsage, "header: train-ai=n"}, {UseAIInput, Allow, SignalContentUsage, "header: ai-use=y"},
				{UseIndex, Deny, SignalContentUsage, "header: search=n"}, {UseSnippet, Deny, SignalContentUsage, "header: search=n"}}},
		{"content-usage/robots.txt", "user-agent: *\ncontent-usage: /page train-ai=y, ai-use=n, search=y\n", nil, "",
			[]want{{UseAITrain, Allow, SignalContentUsage, "robots.txt line 2: train-ai=y"}, {UseAIInput, Deny, SignalContentUsage, "robots.txt line 2: ai-use=n"},
				{UseIndex, Allow, SignalContentUsage, "robots.txt line 2: search=y"}}},
		{"content-signal/header", "", []string{"Content-Signal: search=yes, ai-input=no, ai-train=no"}, "",
			[]want{{UseIndex, Allow, SignalContentSignal, "header: search=yes"}, {UseSnippet, Allow, SignalContentSignal, "header: search=yes"},
				{UseAIInput, Deny, SignalContentSignal, "header: ai-input=no"}, {UseAITrain, Deny, SignalContentSignal, "header: ai-train=no"}}},
		{"content-signal/robots.txt", "user-agent: *\ncontent-signal: search=no, ai-train=yes\n", nil, "",
			[]want{{UseIndex, Deny, SignalContentSignal, "robots.txt line 2: search=no"}, {UseAITrain, Allow, SignalContentSignal, "robots.txt line 2: ai-train=yes"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide("https://example.com/page", "EvalBot", seenPage(t, tt.robotsTxt, tt.headers, tt.head))
			for _, w := range tt.want {
				v := d.Uses.Get(w.use)
				wantBy := []Reason{}
				if w.signal != "" {
					wantBy = []Reason{{Signal: w.signal, Detail: w.detail}}
				}
				if v.Answer != w.answer || !cmp.Equal(wantBy, v.By) {
					t.Errorf("%s = %s by %v, want %s by %v", w.use, v.Answer, v.By, w.answer, wantBy)
				}
			}
		})
	}
}

func TestDecideCombines(t *testing.T) {
	t.Run("deny-wins", func(t *testing.T) {
		d := Decide("/a", "EvalBot", seenPage(t, "", []string{"Content-Signal: ai-train=yes", "X-Robots-Tag: evalbot: noai"}, ""))
		if d.Uses.AITrain.Answer != Deny || len(d.Uses.AITrain.By) != 1 || d.Uses.AITrain.By[0].Detail != "evalbot: noai" {
			t.Errorf("ai-train = %+v", d.Uses.AITrain)
		}
	})
	t.Run("equal-answers-all-listed", func(t *testing.T) {
		d := Decide("/a", "EvalBot", seenPage(t, "", []string{"Content-Usage: train-ai=n", "tdm-reservation: 1"}, `<meta name="robots" content="noai">`))
		if d.Uses.AITrain.Answer != Deny || len(d.Uses.AITrain.By) != 3 {
			t.Errorf("ai-train = %+v, want deny by 3", d.Uses.AITrain)
		}
	})
	t.Run("agent-scoped-other", func(t *testing.T) {
		d := Decide("/a", "EvalBot", seenPage(t, "", []string{"X-Robots-Tag: googlebot: noindex"}, `<meta name="otherbot" content="noindex">`))
		if d.Uses.Index.Answer != Unknown || len(d.Directives) != 0 {
			t.Errorf("index = %+v, directives %v: other crawlers' rules apply", d.Uses.Index, d.Directives)
		}
	})
	t.Run("agent-scoped-own", func(t *testing.T) {
		d := Decide("/a", "EvalBot/2.1", seenPage(t, "", nil, `<meta name="EvalBot" content="noindex">`))
		if d.Uses.Index.Answer != Deny {
			t.Errorf("index = %+v", d.Uses.Index)
		}
	})
	t.Run("blocked-page-unseen", func(t *testing.T) {
		s := seenPage(t, "user-agent: evalbot\ndisallow: /\n", []string{"X-Robots-Tag: noindex", "tdm-reservation: 1"}, `<meta name="robots" content="noai">`)
		d := Decide("/a", "EvalBot", s)
		if d.Uses.Fetch.Answer != Deny || d.PageSeen || len(d.Unseen) != 1 {
			t.Fatalf("fetch %s PageSeen %t Unseen %q", d.Uses.Fetch.Answer, d.PageSeen, d.Unseen)
		}
		for _, u := range AllUses[1:] {
			if v := d.Uses.Get(u); v.Answer != Unknown {
				t.Errorf("%s = %+v, want unknown: the page is never read", u, v)
			}
		}
	})
	t.Run("blocked-page-site-signals", func(t *testing.T) {
		s := seenPage(t, "user-agent: *\ndisallow: /a\ncontent-signal: ai-train=no\ncontent-usage: train-ai=y\n", nil, "")
		d := Decide("/a", "EvalBot", s)
		if d.Uses.AITrain.Answer != Deny || len(d.Uses.AITrain.By) != 1 || d.Uses.AITrain.By[0].Signal != SignalContentSignal {
			t.Errorf("ai-train = %+v: want the robots.txt Content-Signal alone (Content-Usage applies to allowed paths only)", d.Uses.AITrain)
		}
	})
	t.Run("tdmrep-file-before-fetch", func(t *testing.T) {
		f, _ := ParseTDMRep([]byte(`[{"location":"/articles/*","tdm-reservation":1}]`))
		d := Decide("https://example.com/articles/1", "EvalBot", Seen{Robots: robots.Parse(nil), TDMRep: f})
		if d.Uses.AITrain.Answer != Deny || d.Uses.AITrain.By[0].Detail != "/.well-known/tdmrep.json: /articles/* tdm-reservation 1" {
			t.Errorf("ai-train = %+v", d.Uses.AITrain)
		}
		if len(d.Unseen) != 2 {
			t.Errorf("Unseen = %q, want headers and head", d.Unseen)
		}
	})
	t.Run("nothing-seen", func(t *testing.T) {
		d := Decide("/a", "EvalBot", Seen{})
		if d.Uses.Fetch.Answer != Unknown || d.Uses.Fetch.By == nil || len(d.Unseen) != 3 {
			t.Errorf("fetch %+v Unseen %q", d.Uses.Fetch, d.Unseen)
		}
	})
	t.Run("problems-reported", func(t *testing.T) {
		d := Decide("/a", "EvalBot", seenPage(t, "", []string{"X-Robots-Tag: unavailable_after: soon", "Content-Usage: train-ai=no", "tdm-reservation: maybe"},
			`<meta name="robots" content="noyaca">`))
		if len(d.Problems) != 4 {
			t.Errorf("Problems = %q, want 4", d.Problems)
		}
	})
}

// TestDecideSeveralTokens: a crawler spelled with commas obeys the groups
// of all its tokens, and the meta tags and X-Robots-Tag rules naming any.
func TestDecideSeveralTokens(t *testing.T) {
	const file = "User-agent: googlebot\nDisallow: /g/\nContent-Signal: ai-train=no\n\nUser-agent: *\nDisallow: /star/\n"
	tests := []struct {
		name, agent, url string
		headers          []string
		head             string
		use              Use
		want             Answer
	}{
		{"groups/merged", "googlebot-news,googlebot", "/g/a", nil, "", UseFetch, Deny},
		{"groups/not-star", "googlebot-news,googlebot", "/star/a", nil, "", UseFetch, Allow},
		{"groups/one-token-falls-to-star", "googlebot-news", "/star/a", nil, "", UseFetch, Deny},
		{"robots-txt-prefs/named-token", "googlebot-news,googlebot", "/a", nil, "", UseAITrain, Deny},
		{"meta/any-token", "googlebot-news,googlebot", "/a", nil, `<meta name="googlebot" content="noindex">`, UseIndex, Deny},
		{"meta/first-token", "googlebot-news,googlebot", "/a", nil, `<meta name="googlebot-news" content="nosnippet">`, UseSnippet, Deny},
		{"x-robots-tag/any-token", "googlebot-news, googlebot", "/a", []string{"X-Robots-Tag: googlebot: noindex"}, "", UseIndex, Deny},
		{"meta/other-crawler", "googlebot-news,googlebot", "/a", nil, `<meta name="bingbot" content="noindex">`, UseIndex, Unknown},
		{"header-with-commas/one-agent", "Mozilla/5.0 (compatible, X) EvalBot/1.0", "/star/a", nil, "", UseFetch, Deny},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := Decide(tt.url, tt.agent, seenPage(t, file, tt.headers, tt.head))
			if got := d.Uses.Get(tt.use).Answer; got != tt.want {
				t.Errorf("Decide(%q, %q): %s = %s, want %s (%+v)", tt.url, tt.agent, tt.use, got, tt.want, d.Uses.Get(tt.use))
			}
		})
	}
}
