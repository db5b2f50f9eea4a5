package main

import (
	"bytes"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots"
	"github.com/gorep/robots/lint"
)

// newSite starts a server on 127.0.0.1 that answers /robots.txt with status
// and body, and redirects /moved to /robots.txt.
func newSite(t *testing.T, status int, body string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "max-age=3600")
		w.WriteHeader(status)
		w.Write([]byte(body))
	})
	srv := httptest.NewUnstartedServer(mux)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return srv
}

// deadURL returns a URL on 127.0.0.1 where nothing listens.
func deadURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close()
	return url
}

// A runCase is one run of the command and what it must give.
type runCase struct {
	name   string
	args   []string
	stdin  string
	status int
	out    string // standard output, exactly
}

func (tt runCase) run(t *testing.T) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
	if status != tt.status {
		t.Errorf("run(%q) = %d, want %d; stderr: %s", tt.args, status, tt.status, stderr.String())
	}
	if diff := cmp.Diff(tt.out, stdout.String()); diff != "" {
		t.Errorf("run(%q) output mismatch (-want +got):\n%s", tt.args, diff)
	}
	if tt.status == 2 && stderr.Len() == 0 {
		t.Errorf("run(%q) printed nothing on standard error", tt.args)
	}
}

const (
	good = "testdata/good.txt"
	bad  = "testdata/bad.txt"

	// badGolden is the output of "check testdata/bad.txt".
	badGolden = "testdata/check/bad.golden"
)

func TestTestCommand(t *testing.T) {
	site := newSite(t, 200, "user-agent: *\ndisallow: /private\n")
	gone := newSite(t, 404, "not found")
	down := newSite(t, 503, "")
	for _, tt := range []runCase{
		{"file/allowed", []string{"test", "-f", good, "-agent", "OtherBot", "/private/public/a", "/"}, "", 0,
			"allowed\t/private/public/a\tline 4: Allow: /private/public\nallowed\t/\t(no matching rule)\n"},
		{"file/disallowed", []string{"test", "-f", good, "-agent", "bingbot", "/nogoogle/x", "/private"}, "", 1,
			"disallowed\t/nogoogle/x\tline 8: Disallow: /nogoogle\nallowed\t/private\t(no matching rule)\n"},
		{"example", []string{"test", "-agent", "OtherBot", "/includes/x"}, "", 1,
			"# using the example file of Google's robots.txt specification (-f to give another)\n" +
				"disallowed\t/includes/x\tline 6: Disallow: /includes/\n"},
		{"stdin", []string{"test", "-f", "-", "/a"}, "user-agent: *\ndisallow: /a", 1,
			"disallowed\t/a\tline 2: Disallow: /a\n"},
		{"url/200", []string{"test", "-f", site.URL + "/page", site.URL + "/private/1", site.URL + "/public"}, "", 1,
			"# " + site.URL + "/robots.txt: 200, success: the rules of the file apply\n" +
				"disallowed\t" + site.URL + "/private/1\tline 2: Disallow: /private\n" +
				"allowed\t" + site.URL + "/public\t(no matching rule)\n"},
		{"url/404", []string{"test", "-f", gone.URL, "/private"}, "", 0,
			"# " + gone.URL + "/robots.txt: 404, unavailable: no robots.txt: everything is allowed\n" +
				"allowed\t/private\t(allow all)\n"},
		{"url/503", []string{"test", "-f", down.URL, "/a", "/robots.txt"}, "", 1,
			"# " + down.URL + "/robots.txt: 503, unreachable: the site erred or could not be reached: everything is disallowed for now\n" +
				"disallowed\t/a\t(disallow all)\nallowed\t/robots.txt\t(robots.txt is always allowed)\n"},
		{"url/network-error", []string{"test", "-f", deadURL(t), "/a"}, "", 2, ""},
		{"url/invalid", []string{"test", "-f", "http://", "/a"}, "", 2, ""},
		{"usage/no-url", []string{"test", "-f", good}, "", 2, ""},
		{"usage/bad-flag", []string{"test", "-x", "/a"}, "", 2, ""},
		{"usage/not-a-url", []string{"test", "-f", good, "/a", "example.com/a"}, "", 2, ""},
		{"usage/command-as-url", []string{"test", "-f", good, "chek"}, "", 2, ""},
		{"agent/header", []string{"test", "-f", good, "-agent", "bingbot/2.0 (+http://www.bing.com/bingbot.htm)", "/nogoogle"}, "", 1,
			"disallowed\t/nogoogle\tline 8: Disallow: /nogoogle\n"},
		{"agent/no-token", []string{"test", "-f", good, "-agent", "Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0", "/a"}, "", 2, ""},
		{"agent/star", []string{"test", "-f", good, "-agent", "*", "/private"}, "", 1,
			"disallowed\t/private\tline 3: Disallow: /private\n"},
		{"url/absolute-other-scheme", []string{"test", "-f", good, "-agent", "OtherBot", "ftp://example.com/private"}, "", 1,
			"disallowed\tftp://example.com/private\tline 3: Disallow: /private\n"},
		{"usage/help", []string{"test", "-h"}, "", 0, ""},
		{"input/missing-file", []string{"test", "-f", "testdata/missing.txt", "/a"}, "", 2, ""},
	} {
		t.Run(tt.name, tt.run)
	}
}

func TestLegacyForm(t *testing.T) {
	for _, tt := range []runCase{
		{"no-arguments", nil, "", 2, ""},
		{"example", []string{"https://example.com/includes/x"}, "", 0,
			"# using the example file of Google's robots.txt specification (-f to give another)\n" +
				"allowed\thttps://example.com/includes/x\tline 9: Allow: /includes/\n"},
		{"file", []string{"-agent", "bingbot", "-f", good, "/nogoogle"}, "", 1,
			"disallowed\t/nogoogle\tline 8: Disallow: /nogoogle\n"},
		// A word is not a URL: it was read as one, and allowed, before.
		{"url-named-like-a-command", []string{"-f", good, "check"}, "", 2, ""},
		{"unknown-command", []string{"chek", good}, "", 2, ""},
		{"file-first", []string{good, "/a"}, "", 2, ""},
		{"host-without-scheme", []string{"example.com/a"}, "", 2, ""},
	} {
		t.Run(tt.name, tt.run)
	}
}

func TestCheckCommand(t *testing.T) {
	body, err := os.ReadFile(bad)
	if err != nil {
		t.Fatal(err)
	}
	site := newSite(t, 200, string(body))
	gone := newSite(t, 404, "")
	down := newSite(t, 500, "")
	// The findings on bad.txt, as check prints them for the file name.
	badOut := func(name string) string {
		want, err := os.ReadFile(badGolden)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll("\n"+string(want), "\n"+bad+":", "\n"+name+":")[1:]
	}
	for _, tt := range []runCase{
		{"file/errors", []string{"check", bad}, "", 1, badOut(bad)},
		{"file/clean", []string{"check", good}, "", 0,
			good + `:2: info: "Crawl-delay" is ignored by Google (Bing and Yandex read it) [ignored-by-google]` + "\n"},
		{"stdin", []string{"check", "-"}, "user-agent: *\ndisallow: /a\n", 0, ""},
		{"stdin/too-large", []string{"check", "-"}, "user-agent: *\n" + strings.Repeat("#\n", robots.MaxSize), 1,
			"stdin:255995: error: the file is 1024014 bytes long: only the first 512000 (500 KiB) are read, and the rest from here on is ignored [too-large]\n"},
		{"url/200", []string{"check", site.URL}, "", 1, badOut(site.URL + "/robots.txt")},
		{"url/404", []string{"check", gone.URL}, "", 0, ""},
		{"url/500", []string{"check", down.URL}, "", 1, ""},
		{"url/network-error", []string{"check", deadURL(t)}, "", 2, ""},
		{"usage/no-file", []string{"check"}, "", 2, ""},
		{"usage/two-files", []string{"check", good, bad}, "", 2, ""},
		{"input/missing-file", []string{"check", "testdata/missing.txt"}, "", 2, ""},
	} {
		t.Run(tt.name, tt.run)
	}
}

// TestCheckGolden runs check on bad.txt and compares its output with
// testdata/check/bad.golden; go test -run TestCheckGolden -update rewrites it.
func TestCheckGolden(t *testing.T) {
	var stdout, stderr bytes.Buffer
	args := []string{"check", bad}
	if status := run(args, strings.NewReader(""), &stdout, &stderr); status != 1 {
		t.Errorf("run(%q) = %d, want 1; stderr: %s", args, status, stderr.String())
	}
	compareGolden(t, badGolden, stdout.Bytes())
}

func TestCheckJSON(t *testing.T) {
	site := newSite(t, 200, "user-agent: *\ndisallow: fish\n")
	tests := []struct {
		name   string
		args   []string
		status int
		want   checkReport
	}{
		{"file", []string{"check", "-json", good}, 0, checkReport{File: good, Diagnostics: lint.Diagnostics{
			{Line: 2, Severity: lint.SeverityInfo, Code: lint.CodeIgnoredByGoogle,
				Message: `"Crawl-delay" is ignored by Google (Bing and Yandex read it)`},
		}}},
		{"url", []string{"check", "-json", site.URL}, 1, checkReport{File: site.URL + "/robots.txt", Status: 200, Outcome: "success",
			Diagnostics: lint.Diagnostics{{Line: 2, Severity: lint.SeverityError, Code: lint.CodePatternNeverMatches,
				Message: `pattern "fish" starts with neither "/" nor "*": it never matches`}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := run(tt.args, strings.NewReader(""), &stdout, &stderr); status != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr: %s", tt.args, status, tt.status, stderr.String())
			}
			var got checkReport
			if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
				t.Fatalf("run(%q) printed %q: %v", tt.args, stdout.String(), err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("run(%q) mismatch (-want +got):\n%s", tt.args, diff)
			}
		})
	}
	// No findings is an empty list, not null.
	var stdout bytes.Buffer
	run([]string{"check", "-json", "-"}, strings.NewReader("user-agent: *\n"), &stdout, &stdout)
	if !strings.Contains(stdout.String(), `"diagnostics": []`) {
		t.Errorf("check -json of a clean file printed %s", stdout.String())
	}
}

func TestFetchCommand(t *testing.T) {
	body, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	site := newSite(t, 200, string(body))
	gone := newSite(t, 404, "")
	down := newSite(t, 503, "")
	for _, tt := range []runCase{
		{"200", []string{"fetch", site.URL + "/some/page?q=1"}, "", 0,
			"url        " + site.URL + "/robots.txt\n" +
				"status     200, success: the rules of the file apply\n" +
				"cache for  1h0m0s\n" +
				"group      line 1: * (2 rules; Crawl-delay: 5)\n" +
				"group      line 6: Googlebot, bingbot (1 rule)\n" +
				"sitemap    https://example.com/sitemap.xml\n"},
		{"404", []string{"fetch", gone.URL}, "", 0,
			"url        " + gone.URL + "/robots.txt\n" +
				"status     404, unavailable: no robots.txt: everything is allowed\n" +
				"cache for  1h0m0s\n"},
		{"503", []string{"fetch", down.URL}, "", 1,
			"url       " + down.URL + "/robots.txt\n" +
				"status    503, unreachable: the site erred or could not be reached: everything is disallowed for now\n" +
				"retry in  10m0s\n"},
		{"usage/no-url", []string{"fetch"}, "", 2, ""},
		{"usage/invalid-url", []string{"fetch", "example.com"}, "", 2, ""},
	} {
		t.Run(tt.name, tt.run)
	}
	t.Run("network-error", func(t *testing.T) {
		var stdout, stderr bytes.Buffer
		if status := run([]string{"fetch", deadURL(t)}, nil, &stdout, &stderr); status != 1 {
			t.Errorf("fetch of a dead site = %d, want 1", status)
		}
		if out := stdout.String(); !strings.Contains(out, "status    no response, unreachable") || !strings.Contains(out, "\nerror     robots: ") {
			t.Errorf("fetch of a dead site printed:\n%s", out)
		}
	})
}
