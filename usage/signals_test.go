package usage_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorep/robots/signals"
	"github.com/gorep/robots/usage"
)

func TestGetTDMRep(t *testing.T) {
	tests := []struct {
		name    string
		status  int
		body    string
		rules   int
		problem error
	}{
		{"tdmrep/example", 200, `[{"location":"/","tdm-reservation":1}]`, 1, nil},
		{"absent", 404, "not found", -1, nil},
		{"server-error", 503, "", -1, nil},
		{"not-json", 200, "<html>soft 404</html>", -1, signals.ErrTDMRepNotJSON},
		{"5MB", 200, "[" + strings.Repeat(`{"location":"/","tdm-reservation":1},`, 5<<20/36) + "1]", -1, signals.ErrTDMRepTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/robots.txt" {
					w.Write([]byte("User-agent: *\nDisallow: /private/\n"))
					return
				}
				if r.URL.Path != "/.well-known/tdmrep.json" || r.UserAgent() != "TDMBot/1.0" {
					t.Errorf("request %s with User-Agent %q", r.URL.Path, r.UserAgent())
				}
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			}))
			defer srv.Close()
			res, err := usage.GetTDMRep(t.Context(), nil, "TDMBot/1.0", srv.URL+"/some/page?q")
			if err != nil {
				t.Fatal(err)
			}
			if res.StatusCode != tt.status || !errors.Is(res.Problem, tt.problem) || (res.File != nil) != (tt.rules >= 0) {
				t.Fatalf("status %d problem %v file %v", res.StatusCode, res.Problem, res.File)
			}
			if tt.rules >= 0 && len(res.File.Rules) != tt.rules {
				t.Errorf("%d rules, want %d", len(res.File.Rules), tt.rules)
			}
		})
	}
	if _, err := usage.GetTDMRep(t.Context(), nil, "TDMBot/1.0", "ftp://x/"); err == nil {
		t.Error("ftp URL: no error")
	}
	res, err := usage.GetTDMRep(t.Context(), nil, "TDMBot/1.0", "http://192.0.2.1/")
	if err == nil || res == nil || res.File != nil {
		t.Errorf("unreachable: res %v err %v", res, err)
	}
}

// TestGetTDMRepURLForms checks that GetTDMRep finds the file of a page URL
// whose origin the Cache writes otherwise (a port with a leading zero).
func TestGetTDMRepURLForms(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/.well-known/tdmrep.json" {
			w.Write([]byte(`[{"location":"/","tdm-reservation":1}]`))
		}
	}))
	defer srv.Close()
	host, port, _ := strings.Cut(strings.TrimPrefix(srv.URL, "http://"), ":")
	page := "http://" + host + ":0" + port + "/a"
	res, err := usage.GetTDMRep(t.Context(), nil, "TDMBot/1.0", page)
	if err != nil || res.StatusCode != 200 || res.File == nil || len(res.File.Rules) != 1 {
		t.Fatalf("GetTDMRep(%s) = %+v, %v, want 1 rule", page, res, err)
	}
}
