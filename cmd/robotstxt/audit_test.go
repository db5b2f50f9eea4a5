package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditGolden runs audit on the bundled example files and compares its
// output with testdata/audit/NAME.golden; -update rewrites them.
func TestAuditGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"ai", []string{"testdata/ai.txt"}},
		{"ai-json", []string{"-json", "testdata/ai.txt"}},
		{"example", []string{"example.txt"}},
		{"good", []string{"testdata/good.txt"}},
		{"bad", []string{"testdata/bad.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			if status := run(append([]string{"audit"}, tt.args...), strings.NewReader(""), &stdout, &stderr); status != 0 {
				t.Fatalf("audit %q = %d, want 0; stderr: %s", tt.args, status, stderr.String())
			}
			compareGolden(t, filepath.Join("testdata", "audit", tt.name+".golden"), stdout.Bytes())
		})
	}
}

func TestAuditCommand(t *testing.T) {
	ok := newSite(t, 200, "user-agent: GPTBot\ndisallow: /\n")
	down := newSite(t, 503, "")
	tests := []struct {
		name   string
		args   []string
		stdin  string
		status int
		head   string // the first lines of standard output
	}{
		{"stdin", []string{"-"}, "user-agent: *\ncontent-signal: ai-train=no\n", 0,
			"# stdin\n# paths: /\n# blocks 0 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: no; search: unstated\n"},
		{"url", []string{ok.URL + "/page"}, "", 0,
			"# " + ok.URL + "/robots.txt (200, success: the rules of the file apply)\n# paths: /\n" +
				"# blocks 1 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated\n"},
		{"url/unreachable", []string{down.URL + "/"}, "", 1,
			"# " + down.URL + "/robots.txt (503, unreachable: the site erred or could not be reached: everything is disallowed for now)\n# paths: /\n" +
				"# blocks 19 of 19 known AI crawlers, 2 of 2 AI control tokens and 6 of 6 search crawlers; training: unstated; search: unstated\n"},
		{"usage/no-file", nil, "", 2, ""},
		{"usage/two-files", []string{"a", "b"}, "", 2, ""},
		{"usage/bad-flag", []string{"-x", "a"}, "", 2, ""},
		{"input/missing-file", []string{filepath.Join(t.TempDir(), "missing")}, "", 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			status := run(append([]string{"audit"}, tt.args...), strings.NewReader(tt.stdin), &stdout, &stderr)
			if status != tt.status {
				t.Errorf("audit %q = %d, want %d; stderr: %s", tt.args, status, tt.status, stderr.String())
			}
			if got := stdout.String(); !strings.HasPrefix(got, tt.head) {
				t.Errorf("audit %q printed\n%s\nwant it to start with\n%s", tt.args, got, tt.head)
			}
			if tt.status == 2 && (stderr.Len() == 0 || stdout.Len() != 0) {
				t.Errorf("audit %q: stdout %q, stderr %q", tt.args, stdout.String(), stderr.String())
			}
		})
	}
}

// TestAuditJSON checks the JSON form against the text form's facts.
func TestAuditJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if status := run([]string{"audit", "-json", "testdata/ai.txt"}, nil, &stdout, &stderr); status != 0 {
		t.Fatalf("status %d: %s", status, stderr.String())
	}
	var rep struct {
		File     string
		Paths    []string
		Crawlers []struct {
			Token    string
			Blocked  bool
			Verdicts []struct {
				Path    string
				Allowed bool
				Line    int
			}
		}
		Summary struct{ Text string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	blocked := map[string]bool{}
	for _, c := range rep.Crawlers {
		blocked[c.Token] = c.Blocked
		if len(c.Verdicts) != len(rep.Paths) {
			t.Errorf("%s: %d verdicts for %d paths", c.Token, len(c.Verdicts), len(rep.Paths))
		}
	}
	want := map[string]bool{"GPTBot": true, "PerplexityBot": false, "Googlebot": false, "anthropic-ai": true}
	for token, b := range want {
		if blocked[token] != b {
			t.Errorf("%s blocked = %t, want %t", token, blocked[token], b)
		}
	}
	if rep.File != "testdata/ai.txt" || !strings.HasPrefix(rep.Summary.Text, "blocks 5 of 19 known AI crawlers, 2 of 2 AI control tokens") {
		t.Errorf("file %q, summary %q", rep.File, rep.Summary.Text)
	}
}
