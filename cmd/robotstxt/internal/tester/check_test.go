package tester_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

type checkAnswer struct {
	Size        int          `json:"size"`
	Truncated   bool         `json:"truncated"`
	Diagnostics []diagnostic `json:"diagnostics"`
}

type diagnostic struct {
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Code     string `json:"code"`
	Message  string `json:"message"`
}

func TestCheck(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	for _, tt := range []struct {
		name   string
		robots string
		want   []diagnostic
	}{
		{"clean", "User-agent: *\nDisallow: /private/\n", []diagnostic{}},
		{"empty", "", []diagnostic{}},
		{"findings", "User-agent: *\nDisalow: /a\nDisallow: search\n", []diagnostic{
			{2, "warning", "typo", `key "Disalow" is read as "disallow" by Google, but other crawlers may ignore the line`},
			{3, "error", "pattern-never-matches", `pattern "search" starts with neither "/" nor "*": it never matches`},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got checkAnswer
			post(t, h, "/api/check", map[string]string{"robots": tt.robots}, http.StatusOK, &got)
			want := checkAnswer{Size: len(tt.robots), Diagnostics: tt.want}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("POST /api/check: answer mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCheckTruncated checks that a file over robots.MaxSize is reported,
// at the line where it is cut.
func TestCheckTruncated(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	line := "Disallow: /" + strings.Repeat("a", 88) + "\n" // 100 bytes
	body := "User-agent: *\n" + strings.Repeat(line, robots.MaxSize/100+10)
	var got checkAnswer
	post(t, h, "/api/check", map[string]string{"robots": body}, http.StatusOK, &got)
	if got.Size != len(body) || !got.Truncated {
		t.Errorf("size, truncated = %d, %t, want %d, true", got.Size, got.Truncated, len(body))
	}
	cut := strings.Count(body[:robots.MaxSize], "\n") + 1
	var found bool
	for _, d := range got.Diagnostics {
		if d.Code == "too-large" {
			found = true
			if d.Line != cut || d.Severity != "error" {
				t.Errorf("too-large at line %d, %s; want line %d, error", d.Line, d.Severity, cut)
			}
		}
	}
	if !found {
		t.Errorf("no too-large finding in %+v", got.Diagnostics)
	}
}
