package main

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newMovedSite starts a server on 127.0.0.1 whose /robots.txt redirects to
// /files/robots.txt, which answers body.
func newMovedSite(t *testing.T, body string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/robots.txt", http.RedirectHandler("/files/robots.txt", http.StatusMovedPermanently))
	mux.HandleFunc("/files/robots.txt", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body)) })
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

// runOut runs the command and returns its status, standard output and
// standard error.
func runOut(args []string, stdin string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	status := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return status, stdout.String(), stderr.String()
}

// TestRedirectNamed checks that fetch names the file a redirect led to,
// and that test quotes a line of that file with its name: "200 after 1
// redirect" said neither.
func TestRedirectNamed(t *testing.T) {
	site := newMovedSite(t, "user-agent: *\ndisallow: /private\n")
	final := site.URL + "/files/robots.txt"
	status, out, _ := runOut([]string{"fetch", site.URL + "/a"}, "")
	if want := "200 after 1 redirect to " + final + ", success"; status != 0 || !strings.Contains(out, want) {
		t.Errorf("fetch = %d, printed:\n%s\nwant it to contain %q", status, out, want)
	}
	status, out, _ = runOut([]string{"test", "-f", site.URL, "/private/a"}, "")
	if want := "disallowed\t/private/a\tline 2 of " + final + ": Disallow: /private\n"; status != 1 || !strings.HasSuffix(out, want) {
		t.Errorf("test = %d, printed:\n%s\nwant it to end with %q", status, out, want)
	}
}

// TestUsageEdges checks small usage errors: a URL with a space in its host
// was answered "allowed" with exit 0, and a missing file named like a URL
// without its scheme was "no such file" with no hint.
func TestUsageEdges(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"space-in-host", []string{"test", "https://exa mple.com/x"}, 2, "a space may not appear in its host"},
		{"space-in-path", []string{"test", "https://example.com/a b"}, 2, "write https://example.com/a%20b"},
		{"check/host-without-scheme", []string{"check", "example.com/robots.txt"}, 2,
			"no such file or directory (a URL starts with its scheme, such as https://example.com/robots.txt)"},
		{"audit/host-without-scheme", []string{"audit", "www.example.com/robots.txt"}, 2, "such as https://www.example.com/robots.txt)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, out, stderr := runOut(tt.args, "")
			if status != tt.status || out != "" || !strings.Contains(stderr, tt.stderr) {
				t.Errorf("run(%q) = %d, printed %q and on standard error %q; want %d, nothing, and %q", tt.args, status, out, stderr, tt.status, tt.stderr)
			}
		})
	}
	// A missing file that does not look like a URL gets no such hint.
	if _, _, stderr := runOut([]string{"check", "testdata/missing.txt"}, ""); strings.Contains(stderr, "https://") {
		t.Errorf("check testdata/missing.txt hints a URL: %q", stderr)
	}
}

// TestCheckEmpty checks that check says a file is empty: it printed
// nothing.
func TestCheckEmpty(t *testing.T) {
	status, out, stderr := runOut([]string{"check", "-"}, "")
	if want := "robotstxt: stdin is empty: it allows every crawler everything\n"; status != 0 || out != "" || stderr != want {
		t.Errorf("check of an empty file = %d, %q, %q; want 0, nothing, %q", status, out, stderr, want)
	}
	if _, _, stderr := runOut([]string{"check", "-"}, "user-agent: *\n"); stderr != "" {
		t.Errorf("check of a file printed on standard error %q", stderr)
	}
}

// TestAuditLongPath checks that a long path in a file does not pad the
// column of paths of every line to its width (130 columns on a real file).
func TestAuditLongPath(t *testing.T) {
	long := "/" + strings.Repeat("static/", 20) + "a.js"
	file := filepath.Join(t.TempDir(), "robots.txt")
	if err := os.WriteFile(file, []byte("user-agent: *\ndisallow: /x\ndisallow: "+long+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ := runOut([]string{"audit", file}, "")
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "  /x ") && len(line) > 60 {
			t.Errorf("audit padded a short path to %d columns: %q", len(line), line)
		}
	}
	if !strings.Contains(out, "  "+long+"  disallowed  line 3: Disallow: "+long+"\n") {
		t.Errorf("audit printed no line for the long path:\n%s", out)
	}
}

// TestServerTimeouts checks that the tester's server bounds what a slow or
// idle client holds: it set only ReadHeaderTimeout, and 1,000 slow
// connections were held for 20 s and more.
func TestServerTimeouts(t *testing.T) {
	srv := newServer(http.NotFoundHandler())
	if srv.ReadHeaderTimeout <= 0 || srv.ReadTimeout <= 0 || srv.IdleTimeout <= 0 || srv.MaxHeaderBytes <= 0 {
		t.Errorf("server timeouts: header %v, read %v, idle %v, max header %d; want all set",
			srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout, srv.MaxHeaderBytes)
	}
}
