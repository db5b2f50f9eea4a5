package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "robots.txt")
	if err := os.WriteFile(file, []byte("user-agent: *\ndisallow: /private\n\nuser-agent: googlebot-news\nallow: /private/news\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		args   []string
		stdin  string
		status int
		out    string // lines of standard output, in order
	}{
		{"example/allowed", []string{"https://example.com/includes/x"}, "", 0,
			"# using the example file of Google's robots.txt specification (-f to give another)\nallowed\thttps://example.com/includes/x\tline 9: Allow: /includes/\n"},
		{"example/other-agent", []string{"-agent", "OtherBot", "https://example.com/includes/x", "https://example.com/"}, "", 1,
			"# using the example file of Google's robots.txt specification (-f to give another)\ndisallowed\thttps://example.com/includes/x\tline 6: Disallow: /includes/\nallowed\thttps://example.com/\t(no matching rule)\n"},
		{"file", []string{"-f", file, "https://example.com/private/a"}, "", 1,
			"disallowed\thttps://example.com/private/a\tline 2: Disallow: /private\n"},
		{"file/agents", []string{"-f", file, "-agent", "googlebot-news,googlebot", "/private/news/1", "/private/a"}, "", 0,
			"allowed\t/private/news/1\tline 5: Allow: /private/news\nallowed\t/private/a\t(no matching rule)\n"},
		{"stdin", []string{"-f", "-", "/a"}, "user-agent: *\ndisallow: /a", 1,
			"disallowed\t/a\tline 2: Disallow: /a\n"},
		{"usage/no-url", []string{"-f", file}, "", 2, ""},
		{"usage/bad-flag", []string{"-x", "/a"}, "", 2, ""},
		{"input/missing-file", []string{"-f", filepath.Join(dir, "missing"), "/a"}, "", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(tt.args, strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.status {
				t.Errorf("run(%q) = %d, want %d; stderr: %s", tt.args, status, tt.status, stderr.String())
			}
			if got := stdout.String(); got != tt.out {
				t.Errorf("run(%q) printed\n%s\nwant\n%s", tt.args, got, tt.out)
			}
			if tt.status == 2 && stderr.Len() == 0 {
				t.Errorf("run(%q) printed nothing on standard error", tt.args)
			}
		})
	}
}

func TestUnknownCommand(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		stderr string // what standard error must contain
	}{
		{"typo/replaced", []string{"chek", "robots.txt"}, `robotstxt: unknown command "chek" (did you mean "check"?)`},
		{"typo/swapped", []string{"tset", "/a"}, `unknown command "tset" (did you mean "test"?)`},
		{"typo/inserted", []string{"fetchh", "https://example.com/"}, `(did you mean "fetch"?)`},
		{"typo/deleted", []string{"dif", "a", "b"}, `(did you mean "diff"?)`},
		{"file", []string{good, "/a"}, `unknown command "testdata/good.txt" (to test URLs against the file, run: robotstxt test -f testdata/good.txt URL...)`},
		{"host", []string{"example.com/a"}, `unknown command "example.com/a" (a URL starts with its scheme, such as https://example.com/a)`},
		{"word", []string{"robots", "/a"}, "unknown command \"robots\"\n\nusage: robotstxt test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := run(tt.args, nil, &stdout, &stderr); status != 2 {
				t.Errorf("run(%q) = %d, want 2", tt.args, status)
			}
			if stdout.Len() > 0 {
				t.Errorf("run(%q) printed %q on standard output", tt.args, stdout.String())
			}
			if !strings.Contains(stderr.String(), tt.stderr) {
				t.Errorf("run(%q) printed on standard error:\n%s\nwant it to contain %q", tt.args, stderr.String(), tt.stderr)
			}
		})
	}
}
