package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// signalsSite serves a site with every signal: robots.txt with agent
// groups, Content-Signal and Content-Usage lines; tdmrep.json; pages with
// X-Robots-Tag (scoped and not), meta tags (scoped and not), TDMRep and
// aipref headers.
func signalsSite(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /private/\nContent-Signal: search=yes, ai-train=no\n\n" +
			"User-agent: BlockedBot\nDisallow: /\n\nUser-agent: EvalBot\nDisallow: /private/\nContent-Usage: /open/ train-ai=y\n"))
	})
	mux.HandleFunc("/.well-known/tdmrep.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"location":"/articles/*","tdm-reservation":1},{"location":"/articles/free/","tdm-reservation":0},
			{"location":"/open/","tdm-reservation":0}]`))
	})
	page := func(headers map[string]string, head string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			for k, v := range headers {
				for _, line := range strings.Split(v, "\n") {
					w.Header().Add(k, line)
				}
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte("<!doctype html><html><head><title>t</title>" + head + "</head><body><meta name=robots content=noarchive>body</body></html>"))
		}
	}
	mux.HandleFunc("/articles/a", page(map[string]string{"X-Robots-Tag": "evalbot: noindex\notherbot: nosnippet"}, ""))
	mux.HandleFunc("/articles/free/b", page(nil, `<meta name="robots" content="max-snippet:50"><meta name="evalbot" content="noai">`))
	mux.HandleFunc("/open/c", page(map[string]string{"Content-Usage": "ai-use=n", "Tdm-Reservation": "1"}, `<meta name="robots" content="nosnippet">`))
	mux.HandleFunc("/plain", page(map[string]string{"Content-Signal": "ai-input=yes"}, `<meta name="googlebot" content="noindex"><meta name="tdm-reservation" content="0">`))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

type usesJSON struct {
	URL  string `json:"url"`
	Uses map[string]struct {
		Answer string `json:"answer"`
		By     []struct {
			Signal, Detail string
		} `json:"by"`
	} `json:"uses"`
	PageSeen bool     `json:"page_seen"`
	Unseen   []string `json:"unseen"`
}

// summary is use=answer(signal: detail; ...) for each use, in order.
func summary(u usesJSON) []string {
	var out []string
	for _, name := range []string{"fetch", "index", "snippet", "ai-input", "ai-train"} {
		v := u.Uses[name]
		var by []string
		for _, b := range v.By {
			by = append(by, b.Signal+": "+b.Detail)
		}
		out = append(out, name+"="+v.Answer+"("+strings.Join(by, "; ")+")")
	}
	return out
}

func TestSignalsJSON(t *testing.T) {
	srv := signalsSite(t)
	tests := []struct {
		name, agent, path string
		want              []string
	}{
		{"scoped-header-and-tdmrep-file", "EvalBot", "/articles/a", []string{
			"fetch=allow(robots.txt: no matching rule)",
			"index=deny(x-robots-tag: evalbot: noindex)",
			"snippet=unknown()",
			"ai-input=unknown()",
			"ai-train=deny(tdmrep: /.well-known/tdmrep.json: /articles/* tdm-reservation 1)",
		}},
		{"other-agent-sees-global-groups", "OtherBot", "/articles/a", []string{
			"fetch=allow(robots.txt: no matching rule)",
			"index=allow(content-signal: robots.txt line 3: search=yes)",
			"snippet=deny(x-robots-tag: otherbot: nosnippet)",
			"ai-input=deny(x-robots-tag: otherbot: nosnippet)",
			"ai-train=deny(content-signal: robots.txt line 3: ai-train=no; tdmrep: /.well-known/tdmrep.json: /articles/* tdm-reservation 1)",
		}},
		{"first-match-not-longest-and-scoped-meta", "EvalBot", "/articles/free/b", []string{
			"fetch=allow(robots.txt: no matching rule)",
			"index=unknown()",
			"snippet=conditional(meta: max-snippet:50)",
			"ai-input=conditional(meta: max-snippet:50)",
			// /articles/* comes first in tdmrep.json: it decides, though
			// /articles/free/ is longer.
			"ai-train=deny(meta: noai; tdmrep: /.well-known/tdmrep.json: /articles/* tdm-reservation 1)",
		}},
		{"header-overrides-file", "EvalBot", "/open/c", []string{
			"fetch=allow(robots.txt: no matching rule)",
			"index=unknown()",
			"snippet=deny(meta: nosnippet)",
			"ai-input=deny(content-usage: header: ai-use=n; meta: nosnippet)",
			"ai-train=deny(tdmrep: header tdm-reservation: 1)",
		}},
		{"meta-tdm-and-googlebot-meta", "Googlebot", "/plain", []string{
			"fetch=allow(robots.txt: no matching rule)",
			"index=deny(meta: noindex)",
			"snippet=allow(content-signal: robots.txt line 3: search=yes)",
			"ai-input=allow(content-signal: header: ai-input=yes)",
			"ai-train=deny(content-signal: robots.txt line 3: ai-train=no)",
		}},
		{"blocked", "BlockedBot", "/plain", []string{
			"fetch=deny(robots.txt: line 6: Disallow: /)",
			"index=unknown()", "snippet=unknown()", "ai-input=unknown()", "ai-train=unknown()",
		}},
		{"private", "EvalBot", "/private/x", []string{
			"fetch=deny(robots.txt: line 9: Disallow: /private/)",
			"index=unknown()", "snippet=unknown()", "ai-input=unknown()", "ai-train=unknown()",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run([]string{"signals", "-json", "-agent", tt.agent, srv.URL + tt.path}, nil, &out, &errb)
			wantCode := 0
			if strings.HasPrefix(tt.want[0], "fetch=deny") {
				wantCode = 1
			}
			if code != wantCode {
				t.Errorf("exit %d, want %d; stderr %s", code, wantCode, errb.String())
			}
			var got usesJSON
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatalf("%v: %s", err, out.String())
			}
			if diff := cmp.Diff(tt.want, summary(got)); diff != "" {
				t.Errorf("uses mismatch (-want +got):\n%s", diff)
			}
			if got.URL != srv.URL+tt.path || got.PageSeen == (wantCode == 1) {
				t.Errorf("url %q page_seen %t", got.URL, got.PageSeen)
			}
		})
	}
}

// TestSignalsContract checks the -json shape the issue fixes: keys, and
// "by" an empty array, not null, when nothing decided.
func TestSignalsContract(t *testing.T) {
	srv := signalsSite(t)
	var out bytes.Buffer
	if code := run([]string{"signals", "-json", "-agent", "EvalBot", srv.URL + "/articles/a", srv.URL + "/plain"}, nil, &out, &bytes.Buffer{}); code != 0 {
		t.Fatalf("exit %d", code)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d lines, want one object per URL", len(lines))
	}
	var obj map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &obj); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"url", "agent", "uses"} {
		if _, ok := obj[k]; !ok {
			t.Errorf("no %q key", k)
		}
	}
	if !strings.Contains(lines[0], `"snippet":{"answer":"unknown","by":[]}`) {
		t.Errorf("unknown use not written as {\"answer\":\"unknown\",\"by\":[]}: %s", lines[0])
	}
}

// TestSignalsAgents: signals reads -agent as test does: repeated, each
// crawler answered apart in the order given; a comma list is one crawler
// that obeys the groups and meta tags of every token.
func TestSignalsAgents(t *testing.T) {
	srv := signalsSite(t)
	tests := []struct {
		name   string
		agents []string
		path   string
		want   []string // agent: use=answer(...) for fetch and index
	}{
		{"repeated", []string{"BlockedBot", "EvalBot"}, "/plain", []string{
			"BlockedBot: fetch=deny(robots.txt: line 6: Disallow: /) index=unknown()",
			"EvalBot: fetch=allow(robots.txt: no matching rule) index=unknown()",
		}},
		// BlockedBot's group joins EvalBot's: /plain is disallowed, not
		// answered by "*" as a literal "BlockedBot,EvalBot" would be.
		{"comma-list/groups", []string{"BlockedBot,EvalBot"}, "/plain", []string{
			"BlockedBot,EvalBot: fetch=deny(robots.txt: line 6: Disallow: /) index=unknown()",
		}},
		// <meta name="googlebot" content="noindex"> binds a crawler that
		// obeys googlebot-news and googlebot.
		{"comma-list/meta", []string{"googlebot-news,googlebot"}, "/plain", []string{
			"googlebot-news,googlebot: fetch=allow(robots.txt: no matching rule) index=deny(meta: noindex)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := []string{"signals", "-json"}
			for _, a := range tt.agents {
				args = append(args, "-agent", a)
			}
			var out, errb bytes.Buffer
			run(append(args, srv.URL+tt.path), nil, &out, &errb)
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
				var u struct {
					Agent string `json:"agent"`
					usesJSON
				}
				if err := json.Unmarshal([]byte(line), &u); err != nil {
					t.Fatalf("%v: %s (stderr %s)", err, out.String(), errb.String())
				}
				got = append(got, u.Agent+": "+strings.Join(summary(u.usesJSON)[:2], " "))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("answers (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSignalsText(t *testing.T) {
	srv := signalsSite(t)
	var out bytes.Buffer
	code := run([]string{"signals", "-agent", "EvalBot", srv.URL + "/articles/a", srv.URL + "/private/x"}, nil, &out, &bytes.Buffer{})
	if code != 1 {
		t.Errorf("exit %d, want 1: one URL may not be fetched", code)
	}
	for _, want := range []string{"index     deny     x-robots-tag: evalbot: noindex", "not seen: robots.txt disallows the page"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

func TestSignalsUsage(t *testing.T) {
	for _, args := range [][]string{{"signals"}, {"signals", "example.com/a"}, {"signals", "-nope", "http://127.0.0.1/"}, {"signals", "-agent", "Mozilla/5.0", "http://127.0.0.1:1/"}} {
		if code := run(args, nil, &bytes.Buffer{}, &bytes.Buffer{}); code != 2 {
			t.Errorf("run(%q) = %d, want 2", args, code)
		}
	}
}

// TestSignalsAgentRule checks that signals reads -agent by the rule of
// every front end (robots.CrawlerToken), before any fetch: an empty agent
// is a usage error that says so.
func TestSignalsAgentRule(t *testing.T) {
	var stderr bytes.Buffer
	if code := run([]string{"signals", "-agent", "", "http://127.0.0.1:1/"}, nil, &bytes.Buffer{}, &stderr); code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(stderr.String(), "the agent is empty") || strings.Contains(stderr.String(), "127.0.0.1") {
		t.Errorf("stderr %q: want the agent rule's error, and no fetch", stderr.String())
	}
}

// TestSignalsReadme replays the transcript of README.md's "Beyond
// robots.txt" section against the test site, with https://example.com
// standing for the site: the output shown there is the command's.
func TestSignalsReadme(t *testing.T) {
	srv := signalsSite(t)
	body, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(body), "```text\n$ robotstxt signals ")
	if !ok {
		t.Fatal("README.md has no ```text block starting with $ robotstxt signals")
	}
	block, _, _ = strings.Cut(block, "```")
	cmdline, want, _ := strings.Cut(block, "\n")
	args := append([]string{"signals"}, strings.Fields(strings.ReplaceAll(cmdline, "https://example.com", srv.URL))...)
	var out bytes.Buffer
	run(args, nil, &out, &out)
	got := strings.ReplaceAll(out.String(), srv.URL, "https://example.com")
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("README.md: robotstxt signals %s: output mismatch (-README +got):\n%s", cmdline, diff)
	}
}
