package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestNotRobotsWarns checks that test and audit warn, as check reports an
// error, when the file is binary or an HTML page, and still answer as
// Google reads it, with the exit status of the answers. They said nothing.
func TestNotRobotsWarns(t *testing.T) {
	const html = "<!DOCTYPE html>\n<html><head><title>Not found</title></head>\n<body>\nUser-agent: *\nDisallow: /x\n</body></html>\n"
	binary := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x06\x00\x00\x00"
	tests := []struct {
		name, stdin string
		args        []string
		status      int
		warning     string // what standard error must contain, or "" for nothing
	}{
		{"test/html", html, []string{"test", "-f", "-", "/x", "/y"}, 1,
			"robotstxt: warning: stdin:1: the file looks like an HTML page, not a robots.txt file"},
		{"test/binary", binary, []string{"test", "-f", "-", "/x"}, 0,
			"robotstxt: warning: stdin:1: the file is not text (12 NUL bytes in its first 1024)"},
		{"test/text", "user-agent: *\ndisallow: /x\n", []string{"test", "-f", "-", "/x"}, 1, ""},
		{"audit/html", html, []string{"audit", "-"}, 0, "the file looks like an HTML page"},
		{"audit/binary", binary, []string{"audit", "-"}, 0, "the file is not text"},
		{"audit/text", "user-agent: *\ndisallow: /x\n", []string{"audit", "-"}, 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, asJSON := range []bool{false, true} {
				args := tt.args
				if asJSON {
					args = append([]string{args[0], "-json"}, args[1:]...)
				}
				var stdout, stderr bytes.Buffer
				if status := run(args, strings.NewReader(tt.stdin), &stdout, &stderr); status != tt.status {
					t.Errorf("run(%q) = %d, want %d; stderr: %s", args, status, tt.status, stderr.String())
				}
				if got := stderr.String(); tt.warning == "" && got != "" || !strings.Contains(got, tt.warning) {
					t.Errorf("run(%q) printed on standard error %q, want %q", args, got, tt.warning)
				}
				if !asJSON {
					continue
				}
				var report struct{ Warnings []string }
				if err := json.Unmarshal(stdout.Bytes(), &report); err != nil {
					t.Fatalf("run(%q) printed %q: %v", args, stdout.String(), err)
				}
				if got := strings.Join(report.Warnings, "\n"); tt.warning == "" && got != "" || !strings.Contains("robotstxt: warning: "+got, tt.warning) {
					t.Errorf("run(%q) warnings = %q, want %q", args, report.Warnings, tt.warning)
				}
			}
		})
	}
}
