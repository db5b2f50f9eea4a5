package tester_test

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
	"github.com/gorep/robots/lint"
)

// auditAnswer is the answer of /api/audit; the crawlers are checked by
// their fields of interest.
type auditAnswer struct {
	Size      int              `json:"size"`
	Truncated bool             `json:"truncated"`
	Paths     []string         `json:"paths"`
	Crawlers  []map[string]any `json:"crawlers"`
	Summary   auditSummary     `json:"summary"`
}

// auditSummary is the summary of an answer of /api/audit.
type auditSummary struct {
	AICrawlers        int    `json:"ai_crawlers"`
	AIBlocked         int    `json:"ai_blocked"`
	AIControls        int    `json:"ai_controls"`
	AIControlsBlocked int    `json:"ai_controls_blocked"`
	SearchCrawlers    int    `json:"search_crawlers"`
	SearchBlocked     int    `json:"search_blocked"`
	Training          string `json:"training"`
	Search            string `json:"search"`
	Text              string `json:"text"`
}

// A crawlerRow is what TestAudit checks of one crawler.
type crawlerRow struct {
	Token   string
	Blocked bool
	Line    float64 // of the verdict on "/"
	Reason  string
}

func TestAudit(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	tests := []struct {
		name    string
		robots  string
		paths   []string
		rows    []crawlerRow // some crawlers, by token
		summary auditSummary
	}{
		{"empty", "", []string{"/"},
			[]crawlerRow{{"GPTBot", false, 0, "no group"}, {"Googlebot", false, 0, "no group"}},
			auditSummary{AICrawlers: 19, AIControls: 2, SearchCrawlers: 6, Training: "unknown", Search: "unknown",
				Text: "blocks 0 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
		{"block-training", "User-agent: GPTBot\nUser-agent: CCBot\nDisallow: /\n\nUser-agent: *\nContent-Signal: ai-train=no, search=yes\nDisallow: /tmp/*\n",
			[]string{"/", "/tmp/"},
			[]crawlerRow{{"GPTBot", true, 3, "Disallow: /"}, {"CCBot", true, 3, "Disallow: /"}, {"ClaudeBot", false, 0, "no matching rule"}},
			auditSummary{AICrawlers: 19, AIBlocked: 2, AIControls: 2, SearchCrawlers: 6, Training: "no", Search: "yes",
				Text: "blocks 2 of 19 known AI crawlers, 0 of 2 AI control tokens and 0 of 6 search crawlers; training: no; search: yes"}},
		{"block-control-token", "User-agent: Google-Extended\nDisallow: /\n",
			[]string{"/"},
			[]crawlerRow{{"Google-Extended", true, 2, "Disallow: /"}, {"Googlebot", false, 0, "no group"}},
			auditSummary{AICrawlers: 19, AIControls: 2, AIControlsBlocked: 1, SearchCrawlers: 6, Training: "unknown", Search: "unknown",
				Text: "blocks 0 of 19 known AI crawlers, 1 of 2 AI control tokens and 0 of 6 search crawlers; training: unstated; search: unstated"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got auditAnswer
			post(t, h, "/api/audit", map[string]string{"robots": tt.robots}, http.StatusOK, &got)
			if len(got.Crawlers) != len(lint.KnownCrawlers()) {
				t.Errorf("%d crawlers, want %d", len(got.Crawlers), len(lint.KnownCrawlers()))
			}
			var rows []crawlerRow
			for _, want := range tt.rows {
				for _, c := range got.Crawlers {
					if c["token"] == want.Token {
						v := c["verdicts"].([]any)[0].(map[string]any)
						line, _ := v["line"].(float64)
						rows = append(rows, crawlerRow{want.Token, c["blocked"].(bool), line, v["reason"].(string)})
					}
				}
			}
			if diff := cmp.Diff(tt.rows, rows); diff != "" {
				t.Errorf("POST /api/audit crawlers mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.paths, got.Paths); diff != "" {
				t.Errorf("POST /api/audit paths mismatch (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.summary, got.Summary); diff != "" {
				t.Errorf("POST /api/audit summary mismatch (-want +got):\n%s", diff)
			}
			if got.Size != len(tt.robots) {
				t.Errorf("POST /api/audit size %d, want %d", got.Size, len(tt.robots))
			}
		})
	}
}

// TestAuditErrors checks that /api/audit answers bad requests as the other
// endpoints do.
func TestAuditErrors(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	var got struct {
		Error string `json:"error"`
	}
	post(t, h, "/api/audit", map[string]string{"robot": "x"}, http.StatusBadRequest, &got)
	if got.Error == "" {
		t.Error("no error message for an unknown field")
	}
}
