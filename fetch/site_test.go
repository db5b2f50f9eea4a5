package fetch_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gorep/robots/fetch"
)

// TestSite checks Cache.Site on a kind of well-known file of its own: the
// body parsed once per copy and kept, a file robots.txt disallows never
// requested (ErrDisallowed), a 404 no file, a path not under /.well-known/
// refused; the rules and the crawler's tokens handed back.
func TestSite(t *testing.T) {
	var requests, parses atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: NoBot\nDisallow: /.well-known/\n"))
		case "/.well-known/x.txt":
			requests.Add(1)
			w.Write([]byte("hello"))
		default:
			requests.Add(1)
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	kind := &fetch.WellKnown{Path: "/.well-known/x.txt", Parse: func(body []byte) any {
		parses.Add(1)
		return strings.ToUpper(string(body))
	}}
	c := fetch.NewCache(nil, "WellBot/1.0", fetch.Options{})
	none := &fetch.WellKnown{Path: "/.well-known/none.json", Parse: func([]byte) any { return "parsed" }}
	for range 3 {
		s, err := c.Site(t.Context(), "WellBot", srv.URL+"/a/page", kind)
		if err != nil {
			t.Fatal(err)
		}
		if f := s.Files[0]; f.Parsed != "HELLO" || f.Problem != "" || f.Err != nil || f.URL != srv.URL+"/.well-known/x.txt" {
			t.Fatalf("Site = %+v; want HELLO from %s/.well-known/x.txt", f, srv.URL)
		}
	}
	if r, p := requests.Load(), parses.Load(); r != 1 || p != 1 {
		t.Errorf("%d requests, %d parses for 3 questions, want 1 and 1", r, p)
	}
	s, err := c.Site(t.Context(), "NoBot, WellBot", srv.URL+"/", kind, none)
	if err != nil || s.Agent != "NoBot,WellBot" || s.Robots == nil || len(s.Files) != 2 {
		t.Fatalf("Site(NoBot, WellBot) = %+v, %v", s, err)
	}
	if f := s.Files[0]; f.Parsed != nil || !errors.Is(f.Err, fetch.ErrDisallowed) {
		t.Errorf("NoBot: File = %+v, want no file and ErrDisallowed", f)
	}
	s, err = c.Site(t.Context(), "WellBot", srv.URL+"/", none)
	if f := s.Files[0]; err != nil || f.Parsed != nil || f.Problem != "" || f.Err != nil {
		t.Errorf("404: Site = %+v, %v, want no file, no problem", f, err)
	}
	if r := requests.Load(); r != 2 {
		t.Errorf("%d requests, want 2 (none by NoBot)", r)
	}
	raw := fetch.NewCache(nil, "WellBot/1.0", fetch.Options{})
	s, err = raw.Site(t.Context(), "WellBot", srv.URL+"/", &fetch.WellKnown{Path: "/.well-known/x.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if body, _ := s.Files[0].Parsed.([]byte); string(body) != "hello" {
		t.Errorf("no Parse: Parsed = %v, want the body", s.Files[0].Parsed)
	}
	if _, err := c.Site(t.Context(), "WellBot", srv.URL+"/", nil); err == nil {
		t.Error("a nil WellKnown: no error")
	}
	for _, p := range []string{"/robots.txt", "/x.json", "/.well-known/x?y"} {
		if _, err := c.Site(t.Context(), "WellBot", srv.URL+"/", &fetch.WellKnown{Path: p}); err == nil {
			t.Errorf("path %q: no error", p)
		}
	}
}

// TestGetPage checks Cache.GetPage: a page robots.txt disallows is not
// requested, a redirect to one is not followed (the 3xx and the refusal
// returned, as http.Client.Do returns CheckRedirect's error), an allowed
// page is fetched with the Cache's User-Agent.
func TestGetPage(t *testing.T) {
	var private atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
		case "/go":
			http.Redirect(w, r, "/private/x", http.StatusFound)
		case "/private/x":
			private.Add(1)
		default:
			w.Write([]byte(r.UserAgent()))
		}
	}))
	defer srv.Close()
	c := fetch.NewCache(nil, "PageBot/1.0", fetch.Options{})
	resp, err := c.GetPage(t.Context(), "PageBot", srv.URL+"/a")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	buf := make([]byte, 64)
	n, _ := resp.Body.Read(buf)
	b.Write(buf[:n])
	resp.Body.Close()
	if resp.StatusCode != 200 || b.String() != "PageBot/1.0" {
		t.Errorf("GET /a: %d %q, want 200 PageBot/1.0", resp.StatusCode, b.String())
	}
	if resp, err := c.GetPage(t.Context(), "PageBot", srv.URL+"/private/y"); resp != nil || !errors.Is(err, fetch.ErrDisallowed) {
		t.Errorf("GET /private/y: %v, %v, want nil and ErrDisallowed", resp, err)
	}
	resp, err = c.GetPage(t.Context(), "PageBot", srv.URL+"/go")
	if resp == nil || resp.StatusCode != http.StatusFound || !errors.Is(err, fetch.ErrDisallowed) {
		t.Errorf("GET /go: %v, %v, want the 302 and ErrDisallowed", resp, err)
	}
	if n := private.Load(); n != 0 {
		t.Errorf("/private/ requested %d times, want 0", n)
	}
}
