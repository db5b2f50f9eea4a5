package tester_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorep/robots/cmd/robotstxt/internal/tester"
)

type signalsAnswer struct {
	URL        string `json:"url"`
	Agent      string `json:"agent"`
	PageSeen   bool   `json:"page_seen"`
	Directives []any  `json:"directives"`
	Uses       map[string]struct {
		Answer string `json:"answer"`
		By     []struct{ Signal, Detail string }
	} `json:"uses"`
	Unseen   []string `json:"unseen"`
	Problems []string `json:"problems"`
}

func TestSignals(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	req := map[string]string{
		"robots":  "User-agent: *\nContent-Signal: search=yes\n",
		"agent":   "EvalBot/1.0",
		"url":     "https://example.com/articles/1",
		"headers": "HTTP/1.1 200 OK\nX-Robots-Tag: evalbot: nosnippet\nnot a header\nContent-Usage: train-ai=y",
		"html":    `<html><head><meta name="robots" content="noindex, noai"></head><body><meta name="robots" content="noarchive"></body>`,
		"tdmrep":  `[{"location": "/articles/", "tdm-reservation": 1}, {"nolocation": 1}]`,
	}
	var got signalsAnswer
	post(t, h, "/api/signals", req, http.StatusOK, &got)
	want := map[string]string{"fetch": "allow", "index": "deny", "snippet": "deny", "ai-input": "deny", "ai-train": "deny"}
	for u, a := range want {
		if got.Uses[u].Answer != a {
			t.Errorf("%s = %s by %v, want %s", u, got.Uses[u].Answer, got.Uses[u].By, a)
		}
	}
	if by := got.Uses["ai-train"].By; len(by) != 2 || by[0].Signal != "meta" || by[1].Signal != "tdmrep" {
		t.Errorf("ai-train by %v, want meta noai and tdmrep", by)
	}
	if len(got.Problems) != 2 { // the tdmrep rule without location; the meta in the body
		t.Errorf("problems %q, want 2", got.Problems)
	}
	post(t, h, "/api/signals", map[string]string{"tdmrep": "not json"}, http.StatusOK, &got)
	if len(got.Problems) == 0 || !strings.Contains(got.Problems[0], "not a JSON array") {
		t.Errorf("problems %q, want the tdmrep.json error", got.Problems)
	}
}

// TestSignalsPage checks that the page has the view and serves its script.
func TestSignalsPage(t *testing.T) {
	h := tester.NewHandler(tester.Options{})
	for path, want := range map[string]string{"/": `id="sig-results"`, "/signals.js": "/api/signals"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8080"+path, nil))
		b, _ := io.ReadAll(rec.Body)
		if rec.Code != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("GET %s = %d, lacks %q", path, rec.Code, want)
		}
	}
}
