package verdict_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/gorep/robots"
	"github.com/gorep/robots/cmd/robotstxt/internal/verdict"
)

// TestJSON checks the one shape, byte for byte: "robotstxt test -json"
// printed it so before the tester took it (issue 32, item 6).
func TestJSON(t *testing.T) {
	r := robots.Parse([]byte("User-agent: *\nDisallow: /private/\n"))
	tests := []struct {
		name string
		v    verdict.Verdict
		want string
	}{
		{"cli/rule", verdict.Of("Googlebot", "/private/a", r.Decide("Googlebot", "/private/a")),
			`{"agent":"Googlebot","url":"/private/a","allowed":false,"reason":"rule","rule":{"allow":false,"pattern":"/private/","line":2},"global":true,"decision":"disallowed by line 2: Disallow: /private/"}`},
		{"tester/no-rule", verdict.Of("", "/a", r.Decide("Googlebot", "/a")),
			`{"url":"/a","allowed":true,"reason":"no matching rule","global":true,"decision":"allowed (no matching rule)"}`},
		{"tester/error", verdict.Failed("http://a b/", errors.New("not a URL")),
			`{"url":"http://a b/","global":false,"error":"not a URL"}`},
	}
	for _, tt := range tests {
		got, err := json.Marshal(tt.v)
		if err != nil || string(got) != tt.want {
			t.Errorf("%s: %s, %v\nwant %s", tt.name, got, err, tt.want)
		}
	}
}
