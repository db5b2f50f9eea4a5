package signals

import (
	"errors"
	"strings"
	"testing"
)

// The examples of TDMRep, "TDM File on the Origin Server".
const (
	tdmrepAll = `[
  {
  "location": "/",
  "tdm-reservation": 1
  }
]`
	tdmrepGroups = `[
  {
  "location": "/directory-a/",
  "tdm-reservation": 1
  },
  {
  "location": "/directory-b/html/",
  "tdm-reservation": 1,
  "tdm-policy":"https://provider.com/policies/policy.json"
  },
  {
  "location": "/directory-b/images/*.jpg",
  "tdm-reservation": 0
  }
]`
)

func TestTDMRepMatch(t *testing.T) {
	tests := []struct {
		name, file, url string
		want            int // the reservation, or -2 for no match
		policy          string
	}{
		{"tdmrep/all", tdmrepAll, "/any/thing", 1, ""},
		{"tdmrep/all-absolute-url", tdmrepAll, "https://provider.com/x?y", 1, ""},
		{"tdmrep/groups-a", tdmrepGroups, "/directory-a/doc.pdf", 1, ""},
		{"tdmrep/groups-b-html", tdmrepGroups, "/directory-b/html/page.html", 1, "https://provider.com/policies/policy.json"},
		{"tdmrep/groups-b-jpg", tdmrepGroups, "/directory-b/images/cat.jpg", 0, ""},
		{"tdmrep/groups-none", tdmrepGroups, "/directory-c/", -2, ""},
		{"tdmrep/case-sensitive", tdmrepGroups, "/Directory-A/doc.pdf", -2, ""},
		{"tdmrep/dollar", `[{"location":"/this/path/exactly$","tdm-reservation":1}]`, "/this/path/exactly/not", -2, ""},
		{"tdmrep/dollar-match", `[{"location":"/this/path/exactly$","tdm-reservation":1}]`, "/this/path/exactly", 1, ""},
		{"tdmrep/star", `[{"location":"/this/*/then","tdm-reservation":1}]`, "/this/a/b/then", 1, ""},
		{"tdmrep/percent-24", `[{"location":"/path/foo-%24","tdm-reservation":1}]`, "/path/foo-$", 1, ""},
		// "The most specific match is the first in sequence": not the longest.
		{"first-match-not-longest", `[{"location":"/a/","tdm-reservation":1},{"location":"/a/b/","tdm-reservation":0}]`, "/a/b/c", 1, ""},
		{"first-match-order", `[{"location":"/a/b/","tdm-reservation":0},{"location":"/a/","tdm-reservation":1}]`, "/a/b/c", 0, ""},
		{"unset-reservation-matches", `[{"location":"/a/","tdm-reservation":"yes"},{"location":"/","tdm-reservation":1}]`, "/a/x", -1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := ParseTDMRep([]byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			rule, ok := f.Match(tt.url)
			got := rule.Reservation
			if !ok {
				got = -2
			}
			if got != tt.want || rule.Policy != tt.policy {
				t.Errorf("Match(%q) = %d %q, want %d %q", tt.url, got, rule.Policy, tt.want, tt.policy)
			}
		})
	}
}

func TestParseTDMRepBad(t *testing.T) {
	if _, err := ParseTDMRep([]byte("<html>not found</html>")); !errors.Is(err, ErrTDMRepNotJSON) {
		t.Errorf("HTML: err = %v, want ErrTDMRepNotJSON", err)
	}
	if _, err := ParseTDMRep([]byte(`{"location":"/","tdm-reservation":1}`)); !errors.Is(err, ErrTDMRepNotJSON) {
		t.Errorf("object: err = %v, want ErrTDMRepNotJSON", err)
	}
	big := "[" + strings.Repeat(`{"location":"/","tdm-reservation":1},`, 5<<20/36) + `{"location":"/","tdm-reservation":1}]`
	if _, err := ParseTDMRep([]byte(big)); !errors.Is(err, ErrTDMRepTooLarge) {
		t.Errorf("5 MB: err = %v, want ErrTDMRepTooLarge", err)
	}
	f, err := ParseTDMRep([]byte(`[1, {"tdm-reservation":1}, {"location":"https://x.com/a","tdm-reservation":1},
		{"location":"/a","tdm-reservation":2}, {"location":"/b","tdm-reservation":1,"tdm-policy":5}, {"location":"/c"}]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rules) != 3 || len(f.Problems) != 6 {
		t.Errorf("Rules %v, Problems %q: want 3 rules and 6 problems", f.Rules, f.Problems)
	}
	// The rule cap: 12,000 rules in 480 KB, the last 2,000 not read.
	many := "[" + strings.Repeat(`{"location":"/x","tdm-reservation":1},`, 11999) + `{"location":"/y","tdm-reservation":1}]`
	f, err = ParseTDMRep([]byte(many))
	if err != nil || len(f.Rules) != maxTDMRules || !strings.Contains(f.Problems[len(f.Problems)-1], "more than 10000 entries") {
		t.Fatalf("many rules: err %v, %d rules", err, len(f.Rules))
	}
	if _, ok := f.Match("/y"); ok {
		t.Error("a rule past the cap matched")
	}
	var nilFile *TDMRep
	if _, ok := nilFile.Match("/"); ok {
		t.Error("nil TDMRep matched")
	}
}

func TestLayerTDM(t *testing.T) {
	file, _ := ParseTDMRep([]byte(tdmrepGroups))
	tests := []struct {
		name                        string
		url, hRes, hPol, mRes, mPol string
		want                        int
		policy, detail              string
	}{
		{"file-only", "/directory-a/x", "", "", "", "", 1, "", "/.well-known/tdmrep.json: /directory-a/ tdm-reservation 1"},
		{"header-supersedes-file", "/directory-a/x", "0", "", "", "", 0, "", "header tdm-reservation: 0"},
		{"meta-supersedes-header", "/directory-a/x", "0", "", "1", "https://p/", 1, "https://p/", `<meta name="tdm-reservation" content="1">`},
		{"absence-does-not-reset", "/directory-b/html/p", "", "", "", "", 1, "https://provider.com/policies/policy.json", "/.well-known/tdmrep.json: /directory-b/html/ tdm-reservation 1"},
		{"bad-header-ignored", "/directory-a/x", "yes", "", "", "", 1, "", "/.well-known/tdmrep.json: /directory-a/ tdm-reservation 1"},
		{"policy-dropped-when-0", "/x", "0", "https://p/", "", "", 0, "", "header tdm-reservation: 0"},
		{"nothing", "/x", "", "", "", "", -1, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := LayerTDM(file, tt.url, tt.hRes, tt.hPol, tt.mRes, tt.mPol)
			if got.Reservation != tt.want || got.Policy != tt.policy || got.Detail != tt.detail {
				t.Errorf("LayerTDM = %d %q %q, want %d %q %q", got.Reservation, got.Policy, got.Detail, tt.want, tt.policy, tt.detail)
			}
		})
	}
}
