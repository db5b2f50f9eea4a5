package tester_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

// The answers of the API, as a client reads them.
type (
	testAnswer struct {
		Agents    []string `json:"agents"`
		Size      int      `json:"size"`
		Truncated bool     `json:"truncated"`
		Warnings  []string `json:"warnings"`
		Results   []result `json:"results"`
	}
	result struct {
		URL     string `json:"url"`
		Allowed *bool  `json:"allowed"`
		Reason  string `json:"reason"`
		Rule    *rule  `json:"rule"`
		Global  bool   `json:"global"`
		// Decision is the verdict in words, as "robotstxt test" says it
		// (the one verdict shape of issue 32, item 6).
		Decision string `json:"decision"`
		Error    string `json:"error"`
	}
	rule struct {
		Allow   bool   `json:"allow"`
		Pattern string `json:"pattern"`
		Line    int    `json:"line"`
	}
	errorAnswer struct {
		Error string `json:"error"`
	}
)

var (
	yes = func() *bool { b := true; return &b }()
	no  = func() *bool { b := false; return &b }()
)

// request is one request to the handler.
type request struct {
	method, path string
	body         string
	header       map[string]string // added to Content-Type: application/json
}

// serve sends req to h and returns the response, with its body read.
func serve(t *testing.T, h http.Handler, req request) (*http.Response, []byte) {
	t.Helper()
	if req.method == "" {
		req.method = http.MethodPost
	}
	r := httptest.NewRequest(req.method, "http://127.0.0.1:8080"+req.path, strings.NewReader(req.body))
	if req.method == http.MethodPost {
		r.Header.Set("Content-Type", "application/json")
	}
	for k, v := range req.header {
		if k == "Host" {
			r.Host = v
			continue
		}
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	resp := w.Result()
	body, _ := io.ReadAll(resp.Body)
	return resp, body
}

// post sends v as JSON to path, expects status and decodes the answer into
// answer.
func post(t *testing.T, h http.Handler, path string, v any, status int, answer any) {
	t.Helper()
	body, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	resp, got := serve(t, h, request{path: path, body: string(body)})
	if resp.StatusCode != status {
		t.Fatalf("POST %s %s: status %d, want %d; body %s", path, body, resp.StatusCode, status, got)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json; charset=utf-8" {
		t.Errorf("POST %s: Content-Type %q", path, ct)
	}
	dec := json.NewDecoder(bytes.NewReader(got))
	dec.DisallowUnknownFields() // the answer holds nothing undocumented
	if err := dec.Decode(answer); err != nil {
		t.Fatalf("POST %s: decoding %s: %v", path, got, err)
	}
}

const file = `User-agent: *
Disallow: /private/
Allow: /private/press/

User-agent: Googlebot-News
Disallow: /archive/

User-agent: Bingbot
Crawl-delay: 5
`

func TestTest(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	tests := []struct {
		name   string
		robots string
		agents []string
		urls   []string
		want   testAnswer
	}{
		{
			name: "rules", robots: file, agents: []string{"Googlebot"},
			urls: []string{"https://example.com/private/a", "https://example.com/private/press/b", "/c?d"},
			want: testAnswer{Results: []result{
				{URL: "https://example.com/private/a", Allowed: no, Reason: "rule", Rule: &rule{false, "/private/", 2}, Global: true},
				{URL: "https://example.com/private/press/b", Allowed: yes, Reason: "rule", Rule: &rule{true, "/private/press/", 3}, Global: true},
				{URL: "/c?d", Allowed: yes, Reason: "no matching rule", Global: true},
			}},
		},
		{
			name: "named-group", robots: file, agents: []string{"googlebot-news"},
			urls: []string{"http://example.com/private/a", "http://example.com/archive/1"},
			want: testAnswer{Results: []result{
				{URL: "http://example.com/private/a", Allowed: yes, Reason: "no matching rule"},
				{URL: "http://example.com/archive/1", Allowed: no, Reason: "rule", Rule: &rule{false, "/archive/", 6}},
			}},
		},
		{
			name: "several-agents", robots: "user-agent: a\ndisallow: /x\nuser-agent: b\ndisallow: /y\n", agents: []string{"a", "b"},
			urls: []string{"/x", "/y", "/z"},
			want: testAnswer{Results: []result{
				{URL: "/x", Allowed: no, Reason: "rule", Rule: &rule{false, "/x", 2}},
				{URL: "/y", Allowed: no, Reason: "rule", Rule: &rule{false, "/y", 4}},
				{URL: "/z", Allowed: yes, Reason: "no matching rule"},
			}},
		},
		{
			name: "empty-group", robots: file, agents: []string{"Bingbot"}, urls: []string{"/private/a"},
			want: testAnswer{Results: []result{{URL: "/private/a", Allowed: yes, Reason: "empty group"}}},
		},
		{
			name: "no-group", robots: "", agents: []string{"Googlebot"}, urls: []string{"/a"},
			want: testAnswer{Results: []result{{URL: "/a", Allowed: yes, Reason: "no group"}}},
		},
		{
			name: "robots-txt", robots: "user-agent: *\ndisallow: /\n", agents: []string{"Googlebot"}, urls: []string{"https://example.com/robots.txt"},
			want: testAnswer{Results: []result{{URL: "https://example.com/robots.txt", Allowed: yes, Reason: "robots.txt is always allowed"}}},
		},
		{
			name: "no-urls", robots: file, agents: []string{"Googlebot"},
			want: testAnswer{Results: []result{}},
		},
		{
			// The rule of every front end (robots.CrawlerToken): a header is
			// cut to its token, as the command line does. It was asked as
			// given, and answered by the "*" groups.
			name: "agent-header", robots: "User-agent: GPTBot\nDisallow: /\n", agents: []string{"GPTBot/1.2 (+https://openai.com/gptbot)"}, urls: []string{"/a"},
			want: testAnswer{
				Agents:   []string{"GPTBot"},
				Warnings: []string{`agent "GPTBot/1.2 (+https://openai.com/gptbot)" is a User-Agent header, not a product token: asking as "GPTBot"`},
				Results:  []result{{URL: "/a", Allowed: no, Reason: "rule", Rule: &rule{false, "/", 2}}},
			},
		},
		{
			name: "agent-not-a-token", robots: "User-agent: MJ12bot\nDisallow: /\n", agents: []string{"MJ12bot"}, urls: []string{"/a"},
			want: testAnswer{
				Warnings: []string{`agent "MJ12bot" is not a product token (letters, "-" and "_"): no user-agent line can name it, so the groups for "*" answer`},
				Results:  []result{{URL: "/a", Allowed: yes, Reason: "no group"}},
			},
		},
		{
			name: "agent-star", robots: file, agents: []string{"*"}, urls: []string{"/private/"},
			want: testAnswer{
				Results: []result{{URL: "/private/", Allowed: no, Reason: "rule", Rule: &rule{false, "/private/", 2}, Global: true}},
			},
		},
		{
			name: "bad-urls", robots: file, agents: []string{"Googlebot"},
			urls: []string{"", "a b", "/caf\u00e9", "/a\tb", "example.com/private/", "//example.com/private/", "mailto:a@example.com", "https:///private/", "http://[::1/", "ftp://example.com/private/"},
			want: testAnswer{Results: []result{
				{URL: "", Error: "empty URL"},
				{URL: "a b", Error: `not a URL: give an absolute URL (such as https://example.com/a) or a path starting with "/"`},
				{URL: "/caf\u00e9", Error: `not %-encoded: "é" may not appear in a URL; write /caf%C3%A9`},
				{URL: "/a\tb", Error: "not %-encoded: U+0009 may not appear in a URL; write /a%09b"},
				{URL: "example.com/private/", Error: `not a URL: give an absolute URL (https://example.com/private/) or a path starting with "/"`},
				{URL: "//example.com/private/", Allowed: no, Reason: "rule", Rule: &rule{false, "/private/", 2}, Global: true},
				{URL: "mailto:a@example.com", Error: `not a URL a robots.txt governs: the scheme is "mailto", not http, https or ftp`},
				{URL: "https:///private/", Error: "not a URL: no host"},
				{URL: "http://[::1/", Error: `not a URL: missing ']' in host`},
				{URL: "ftp://example.com/private/", Allowed: no, Reason: "rule", Rule: &rule{false, "/private/", 2}, Global: true},
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got testAnswer
			post(t, h, "/api/test", map[string]any{"robots": tt.robots, "agents": tt.agents, "urls": tt.urls}, http.StatusOK, &got)
			if tt.want.Agents == nil {
				tt.want.Agents = tt.agents
			}
			tt.want.Size = len(tt.robots)
			for i, r := range got.Results {
				if r.Allowed != nil && !strings.HasPrefix(r.Decision, map[bool]string{true: "allowed", false: "disallowed"}[*r.Allowed]) {
					t.Errorf("result %d: decision %q does not say allowed %t", i, r.Decision, *r.Allowed)
				}
				got.Results[i].Decision = "" // checked above
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("POST /api/test: answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTestTruncated checks that a file over robots.MaxSize is cut where the
// parser cuts it, to the byte, and that the answer says so.
func TestTestTruncated(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	head := "User-agent: *\nDisallow: /kept\n"
	tail := "\nDisallow: /cut" // at the end of the file
	for _, tt := range []struct {
		name      string
		size      int // of the file
		truncated bool
		pattern   string // the rule deciding /cut, "" for none
	}{
		{"fits", robots.MaxSize, false, "/cut"},
		{"one-over", robots.MaxSize + 1, true, "/cu"},
		{"far-over", robots.MaxSize + 100_000, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			body := head + strings.Repeat("#", tt.size-len(head)-len(tail)) + tail
			var got testAnswer
			post(t, h, "/api/test", map[string]any{"robots": body, "agents": []string{"a"}, "urls": []string{"/kept", "/cut"}}, http.StatusOK, &got)
			if got.Size != tt.size || got.Truncated != tt.truncated {
				t.Errorf("size, truncated = %d, %t, want %d, %t", got.Size, got.Truncated, tt.size, tt.truncated)
			}
			if r := got.Results[0]; r.Rule == nil || r.Rule.Pattern != "/kept" {
				t.Errorf("Decide(/kept) = %+v, want the rule /kept", r)
			}
			var pattern string
			if r := got.Results[1].Rule; r != nil {
				pattern = r.Pattern
			}
			if pattern != tt.pattern {
				t.Errorf("Decide(/cut): pattern %q, want %q", pattern, tt.pattern)
			}
		})
	}
}

// TestErrors checks the status, the Allow header and the error of every
// request that is refused.
func TestErrors(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	huge := `{"robots": "` + strings.Repeat("a", 4<<20) + `", "agents": ["a"]}`
	tests := []struct {
		name   string
		req    request
		status int
		allow  string // the Allow header, for 405
		error  string // the start of the error, for the API
	}{
		{"method/api-get", request{method: "GET", path: "/api/test"}, 405, "POST", "use POST"},
		{"method/api-put", request{method: "PUT", path: "/api/check"}, 405, "POST", "use POST"},
		{"method/api-fetch-get", request{method: "GET", path: "/api/fetch"}, 405, "POST", "use POST"},
		{"method/page-post", request{path: "/"}, 405, "GET, HEAD", ""},
		{"method/asset-delete", request{method: "DELETE", path: "/app.js"}, 405, "GET, HEAD", ""},
		{"not-found/api", request{path: "/api/tests", body: "{}"}, 404, "", "no endpoint /api/tests"},
		{"not-found/api-get", request{method: "GET", path: "/api/"}, 404, "", "no endpoint /api/"},
		{"not-found/page", request{method: "GET", path: "/index.html"}, 404, "", ""},
		{"json/syntax", request{path: "/api/test", body: `{"robots": `}, 400, "", "bad request: unexpected EOF"},
		{"json/empty", request{path: "/api/test"}, 400, "", "bad request: empty body"},
		{"json/type", request{path: "/api/test", body: `{"robots": 1}`}, 400, "", "bad request: json: cannot unmarshal number"},
		{"json/unknown-field", request{path: "/api/test", body: `{"robots": "", "agent": "a"}`}, 400, "", `bad request: json: unknown field "agent"`},
		{"json/two-values", request{path: "/api/check", body: `{} {}`}, 400, "", "bad request: more than one JSON value"},
		{"json/trailing-garbage", request{path: "/api/check", body: `{} x`}, 400, "", "bad request: invalid character"},
		{"test/no-agents", request{path: "/api/test", body: `{"robots": "", "urls": ["/"]}`}, 400, "", "bad request: agents: give at least one"},
		{"test/empty-agent", request{path: "/api/test", body: `{"agents": ["a", ""]}`}, 400, "", "bad request: agents[1]: the agent is empty"},
		{"test/browser-agent", request{path: "/api/test", body: `{"agents": ["Mozilla/5.0 (X11)"]}`}, 400, "", `bad request: agents[0]: the agent "Mozilla/5.0 (X11)" names no crawler`},
		{"test/ambiguous-agent", request{path: "/api/test", body: `{"agents": ["Eval Bot/1.0"]}`}, 400, "", `bad request: agents[0]: the agent "Eval Bot/1.0" is ambiguous`},
		{"test/too-much-work", request{path: "/api/test", body: `{"agents": [` + strings.Repeat(`"a",`, 1000) + `"a"], "urls": [` +
			strings.Repeat(`"/",`, 99) + `"/"]}`}, 400, "", "bad request: 1001 agents × 100 URLs is over 100000"},
		{"size/test", request{path: "/api/test", body: huge}, 413, "", "the request is over 4194304 bytes"},
		{"size/check", request{path: "/api/check", body: huge}, 413, "", "the request is over 4194304 bytes"},
		{"content-type/missing", request{path: "/api/test", body: "{}", header: map[string]string{"Content-Type": ""}}, 415, "", "the body must be JSON"},
		{"content-type/form", request{path: "/api/test", body: "{}", header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}, 415, "", "the body must be JSON"},
		{"origin/other-site", request{path: "/api/test", body: `{"agents": ["a"]}`, header: map[string]string{"Origin": "https://evil.example"}}, 403, "", "requests from https://evil.example are not answered"},
		{"origin/null", request{path: "/api/check", body: `{}`, header: map[string]string{"Origin": "null"}}, 403, "", "requests from null are not answered"},
		{"host/dns-name", request{method: "GET", path: "/", header: map[string]string{"Host": "rebind.example:8080"}}, 403, "", ""},
		{"host/dns-name-api", request{path: "/api/check", body: "{}", header: map[string]string{"Host": "rebind.example"}}, 403, "", ""},
		{"fetch/off", request{path: "/api/fetch", body: `{"url": "http://127.0.0.1/"}`}, 403, "", "fetching is off"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := serve(t, h, tt.req)
			if resp.StatusCode != tt.status {
				t.Fatalf("%s %s: status %d, want %d; body %s", tt.req.method, tt.req.path, resp.StatusCode, tt.status, body)
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Errorf("Allow = %q, want %q", got, tt.allow)
			}
			if tt.error == "" {
				return
			}
			var e errorAnswer
			if err := json.Unmarshal(body, &e); err != nil {
				t.Fatalf("decoding %s: %v", body, err)
			}
			if !strings.HasPrefix(e.Error, tt.error) {
				t.Errorf("error = %q, want it to start with %q", e.Error, tt.error)
			}
		})
	}
}

// TestAccepted checks requests that look odd but are answered.
func TestAccepted(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	for _, tt := range []struct {
		name string
		req  request
	}{
		{"origin/same", request{path: "/api/check", body: "{}", header: map[string]string{"Origin": "http://127.0.0.1:8080"}}},
		{"content-type/charset", request{path: "/api/check", body: "{}", header: map[string]string{"Content-Type": "application/json; charset=utf-8"}}},
		{"host/localhost", request{method: "GET", path: "/", header: map[string]string{"Host": "LOCALHOST:8080"}}},
		{"host/ipv6", request{method: "GET", path: "/", header: map[string]string{"Host": "[::1]:8080"}}},
		{"host/no-port", request{method: "GET", path: "/", header: map[string]string{"Host": "192.168.1.2"}}},
		{"head", request{method: "HEAD", path: "/"}},
		{"test/empty-object", request{path: "/api/test", body: `{"agents": ["a"]}`}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if resp, body := serve(t, h, tt.req); resp.StatusCode != http.StatusOK {
				t.Errorf("%s %s: status %d, want 200; body %s", tt.req.method, tt.req.path, resp.StatusCode, body)
			}
		})
	}
}

func TestPage(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts tester.Options
		want []string // in the page
		not  []string // not in the page
	}{
		{"zero", tester.Options{}, []string{`data-allow-fetch="false"`, "aria-describedby=\"file-info\">\n</textarea>"}, []string{"fetch-form", `class="source"`}},
		// HTML drops a newline right after <textarea>: the page puts one
		// there, so that the file's own is kept and the lines keep their
		// numbers.
		{"leading-newline", tester.Options{Robots: []byte("\nUser-agent: *")}, []string{"aria-describedby=\"file-info\">\n\nUser-agent: *</textarea>"}, nil},
		{"file", tester.Options{Robots: []byte("User-agent: *\nDisallow: /</textarea><script>"), Name: "a <b>.txt"},
			[]string{"Disallow: /&lt;/textarea&gt;&lt;script&gt;</textarea>", "(a &lt;b&gt;.txt)"}, []string{"<script>"}},
		{"fetch", tester.Options{AllowFetch: true}, []string{`data-allow-fetch="true"`, `<form id="fetch-form"`}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := serve(t, tester.NewHandler(tt.opts), request{method: "GET", path: "/"})
			if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
				t.Fatalf("GET /: status %d, Content-Type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
			}
			if csp := resp.Header.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "default-src 'self'") {
				t.Errorf("Content-Security-Policy = %q", csp)
			}
			for _, s := range tt.want {
				if !bytes.Contains(body, []byte(s)) {
					t.Errorf("the page does not hold %q", s)
				}
			}
			for _, s := range tt.not {
				if bytes.Contains(body, []byte(s)) {
					t.Errorf("the page holds %q", s)
				}
			}
		})
	}
}

func TestAssets(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	for path, ct := range map[string]string{"/app.js": "text/javascript; charset=utf-8", "/style.css": "text/css; charset=utf-8"} {
		resp, body := serve(t, h, request{method: "GET", path: path})
		if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != ct || len(body) == 0 {
			t.Errorf("GET %s: status %d, Content-Type %q, %d bytes; want 200, %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), len(body), ct)
		}
	}
}

// TestTestClientGone checks that /api/test stops, and answers nothing, when
// the client has gone before the work is done.
func TestTestClientGone(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	body := `{"robots": "User-agent: *\nDisallow: /a\n", "agents": ["a"], "urls": [` + strings.Repeat(`"/a",`, 999) + `"/a"]}`
	tests := []struct {
		name     string
		cancel   bool
		wantBody bool
	}{
		{"present", false, true},
		{"gone", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			if tt.cancel {
				cancel()
			}
			r := httptest.NewRequestWithContext(ctx, http.MethodPost, "http://127.0.0.1:8080/api/test", strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json")
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if got := w.Body.Len() > 0; got != tt.wantBody {
				t.Errorf("answered %d bytes, want an answer: %t", w.Body.Len(), tt.wantBody)
			}
		})
	}
}

// TestAPIAgentHeader: an agent given as a User-Agent header is cut to its
// product token, with a warning, as the package doc says (robots.CrawlerToken).
func TestAPIAgentHeader(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	resp, body := serve(t, h, request{path: "/api/test", body: `{"robots": "User-agent: Googlebot\nDisallow: /a\n", "agents": ["Googlebot/2.1"], "urls": ["/a"]}`})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var got testAnswer
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"Googlebot"}, got.Agents); diff != "" || len(got.Warnings) != 1 || len(got.Results) != 1 || *got.Results[0].Allowed {
		t.Errorf("agents (-want +got):\n%s\nwarnings %q, results %+v; want one warning, /a disallowed", diff, got.Warnings, got.Results)
	}
}
