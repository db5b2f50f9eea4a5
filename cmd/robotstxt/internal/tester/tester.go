// Package tester serves the robots.txt tester: one web page, on which a
// robots.txt can be edited and URLs tested against it, and the small JSON
// API behind it. It is what "robotstxt serve" runs.
//
// The page and its script and style sheet are embedded: the tester needs no
// build step and no network, and nothing typed into it leaves the machine
// (but for /api/fetch, when it is allowed).
//
// # API
//
// Every endpoint takes a POST with a JSON body (Content-Type
// application/json) and answers with JSON. robots.txt bodies travel as JSON
// strings: bytes that are not UTF-8 cannot be sent and become U+FFFD.
//
// POST /api/test decides URLs for a crawler:
//
//	{"robots": "User-agent: *\nDisallow: /a\n", "agents": ["Googlebot"], "urls": ["https://example.com/a", "/b", "a b"]}
//
//	{"agents": ["Googlebot"], "size": 27, "truncated": false, "results": [
//	  {"url": "https://example.com/a", "allowed": false, "reason": "rule",
//	   "rule": {"allow": false, "pattern": "/a", "line": 2}, "global": true,
//	   "decision": "disallowed by line 2: Disallow: /a"},
//	  {"url": "/b", "allowed": true, "reason": "no matching rule", "global": true,
//	   "decision": "allowed (no matching rule)"},
//	  {"url": "a b", "global": false, "error": "not %-encoded: a space may not appear in a URL; write a%20b"}]}
//
// agents are product tokens ("Googlebot"), at least one; with several, the
// crawler obeys the groups of all of them, as robots.Robots.Group says. Each
// is read by robots.CrawlerToken, the rule of every front end: a User-Agent
// header ("Googlebot/2.1") is cut to its product token, and "warnings" says
// so; one that names no crawler ("Mozilla/5.0 (X11)") or is ambiguous ("Eval
// Bot/1.0") is a 400; another value that is no token ("MJ12bot") is asked as
// given, with a warning. A URL is an absolute http, https or ftp URL or a path
// starting with "/", %-encoded; any other gets "error" instead of a verdict.
// reason is the robots.Reason of the decision, as its String method spells
// it; rule is the deciding rule when reason is "rule"; global reports that
// no group names the crawler and the "*" groups applied; decision says it in
// words. Each result has the shape of "robotstxt test -json"'s, without its
// agent (package verdict).
//
// POST /api/check lists the findings of lint.Check on a file:
//
//	{"robots": "User-agent: *\nDisalow: /a\n"}
//
//	{"size": 26, "truncated": false, "diagnostics": [
//	  {"line": 2, "severity": "warning", "code": "typo",
//	   "message": "key \"Disalow\" is read as \"disallow\" by Google, but other crawlers may ignore the line"}]}
//
// severity is "error", "warning" or "info"; code is a lint.Code, stable;
// message is lint.Diagnostic.Message, without the line. A file over
// robots.MaxSize has a "too-large" finding at the line where it is cut.
//
// POST /api/audit says what a file does to the known AI crawlers and the
// major search crawlers, as "robotstxt audit -json" does (see
// internal/audit): for each crawler of lint.KnownCrawlers, whether it may
// fetch "/" and the paths the file's rules name, the deciding line, and
// the usage preferences that apply; and a summary:
//
//	{"robots": "User-agent: GPTBot\nDisallow: /\n"}
//
//	{"size": 31, "truncated": false, "paths": ["/"], "crawlers": [
//	  {"token": "GPTBot", "operator": "OpenAI", "purpose": "training", "ai": true, "named": true,
//	   "blocked": true, "verdicts": [{"path": "/", "allowed": false, "line": 2, "reason": "Disallow: /"}], ...}, ...],
//	 "summary": {"ai_crawlers": 19, "ai_blocked": 1, "ai_controls": 2, "ai_controls_blocked": 0, ...,
//	   "text": "blocks 1 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}}
//
// POST /api/signals answers, for a page, each use (fetch, index, snippet,
// ai-input, ai-train) from the file, a crawler, and what the page's
// response said (package signals), as "robotstxt signals -json" does:
//
//	{"robots": "User-agent: *\n", "agent": "EvalBot", "url": "https://example.com/a",
//	 "headers": "X-Robots-Tag: evalbot: noindex", "html": "<head>...</head>",
//	 "tdmrep": "[{\"location\": \"/a\", \"tdm-reservation\": 1}]"}
//
//	{"url": "https://example.com/a", "agent": "EvalBot", "uses": {
//	  "fetch": {"answer": "allow", "by": [{"signal": "robots.txt", "detail": "no matching rule"}]},
//	  "index": {"answer": "deny", "by": [{"signal": "x-robots-tag", "detail": "evalbot: noindex"}]}, ...},
//	 "page_seen": true, "problems": [...]}
//
// headers are "Name: value" lines as pasted (a status line is skipped);
// html is read to the end of its head, then for meta tags misplaced in the
// body, which are reported; tdmrep is optional.
//
// POST /api/fetch gets the live robots.txt that governs a URL, with the
// fetch subpackage, when the server allows it (Options.AllowFetch):
//
//	{"url": "https://example.com/page"}
//
//	{"url": "https://example.com/robots.txt", "status": 200, "outcome": "success",
//	 "redirects": 0, "robots": "User-agent: *\n...", "size": 1234, "truncated": false}
//
// outcome is that of fetch.Result: "success" (robots holds the body),
// "unavailable" (a 4xx: no robots.txt, everything allowed) or
// "unreachable" (a 429, a 5xx or a network error, which "error" then gives:
// everything disallowed for now).
//
// In every answer, size is the length of the file in bytes and truncated
// reports that it is over robots.MaxSize (500 KiB): as the parser does, only
// the first robots.MaxSize bytes are used, and for /api/fetch returned.
//
// Errors are answered as {"error": "..."} with the status: 400 for a body
// that is not the JSON described (unknown fields included) or a URL that
// cannot be fetched, 403 for /api/fetch when it is not allowed and for a
// request from another origin, 404 for an unknown path, 405 for a wrong
// method (with an Allow header), 413 for a body over 4 MiB and 415 for a
// body that is not JSON.
//
// # Security
//
// The server is meant for one user on one machine. To keep web sites that
// user visits from using it, it answers only requests whose Host is
// "localhost" or an IP address (a defence against DNS rebinding), rejects API
// requests whose Origin is another site, and requires the JSON content type,
// which browsers do not send across origins without asking first.
package tester

import (
	"bytes"
	"embed"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strings"
)

// Options configure the tester. The zero value serves an empty editor and
// refuses /api/fetch.
type Options struct {
	// Robots is the file the editor starts with.
	Robots []byte
	// Name describes where Robots comes from, for the page ("robots.txt",
	// "the example file of Google's specification"). It may be empty.
	Name string
	// AllowFetch enables /api/fetch, which makes the server fetch URLs that
	// the page asks for. When false, /api/fetch answers 403.
	AllowFetch bool
	// Client makes the requests of /api/fetch. Nil means a client with a
	// 15-second timeout whose connections go through a strict fetch.Guard:
	// the URLs come from whoever uses the page, so no fetch, nor any
	// redirect it follows, connects to a loopback, private or link-local
	// address (a cloud's metadata service, an admin page on 127.0.0.1),
	// whatever the URL names.
	Client *http.Client
	// AllowPrivate lets the default client connect to those addresses
	// too: for a tester on one's own machine, reading local servers.
	AllowPrivate bool
	// UserAgent is the User-Agent header of the requests of /api/fetch.
	// Empty means DefaultUserAgent.
	UserAgent string
}

// DefaultUserAgent is the User-Agent header of /api/fetch requests when
// Options.UserAgent is empty.
const DefaultUserAgent = "robotstxt-tester/1.0 (+https://github.com/gorep/robots)"

// maxRequest is the largest request body accepted: room for a robots.txt of
// robots.MaxSize bytes even when JSON escapes every byte ("\u0000" is six
// bytes), with URLs.
const maxRequest = 4 << 20

//go:embed static
var static embed.FS

// page is the template of the page; the rest of static is served as is.
var page = template.Must(template.ParseFS(static, "static/index.html"))

// NewHandler returns the handler of the tester: the page at "/", its assets,
// and the API under "/api/".
func NewHandler(opts Options) http.Handler {
	if opts.UserAgent == "" {
		opts.UserAgent = DefaultUserAgent
	}
	var buf bytes.Buffer
	err := page.Execute(&buf, struct {
		Robots     string
		Name       string
		AllowFetch bool
	}{string(opts.Robots), opts.Name, opts.AllowFetch})
	if err != nil {
		panic("tester: executing the page template: " + err.Error()) // a bug in index.html
	}
	assets, _ := fs.Sub(static, "static")

	s := &server{opts: opts, client: fetchClient(opts.Client, opts.AllowPrivate), page: buf.Bytes()}
	mux := http.NewServeMux()
	mux.Handle("/", allow(s.servePage, http.MethodGet, http.MethodHead))
	mux.Handle("/app.js", allow(http.FileServerFS(assets).ServeHTTP, http.MethodGet, http.MethodHead))
	mux.Handle("/style.css", allow(http.FileServerFS(assets).ServeHTTP, http.MethodGet, http.MethodHead))
	mux.HandleFunc("/api/", notFound)
	mux.Handle("/api/test", api(s.test))
	mux.Handle("/api/check", api(s.check))
	mux.Handle("/api/fetch", api(s.fetch))
	mux.Handle("/api/audit", api(s.audit))
	mux.Handle("/api/signals", api(s.signals))
	mux.Handle("/signals.js", allow(http.FileServerFS(assets).ServeHTTP, http.MethodGet, http.MethodHead))
	return guard(mux)
}

// A server holds what the handlers share. It is immutable.
type server struct {
	opts   Options
	client *http.Client
	page   []byte // the page, executed once
}

// servePage serves the page at "/" and 404 elsewhere.
func (s *server) servePage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(s.page)
}

// guard rejects requests for another host and sets the headers of every
// answer.
func guard(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !localHost(r.Host) {
			http.Error(w, "robotstxt serve answers only to localhost and IP addresses", http.StatusForbidden)
			return
		}
		w.Header().Set("Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// localHost reports whether host, the Host header, names this machine
// without a DNS name that another site could point here: "localhost" or an
// IP address, with or without a port.
func localHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	return strings.EqualFold(host, "localhost") || net.ParseIP(host) != nil
}

// allow serves h for the methods given, and 405 with an Allow header for
// the others.
func allow(h http.HandlerFunc, methods ...string) http.Handler {
	allowed := strings.Join(methods, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		for _, m := range methods {
			if r.Method == m {
				h(w, r)
				return
			}
		}
		w.Header().Set("Allow", allowed)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	})
}
