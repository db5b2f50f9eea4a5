package tester

import (
	"regexp"
	"testing"
)

// TestCheckURLHints checks that the URL a message of CheckURL suggests is
// one CheckURL accepts. "not a url" was told to write "not%20a%20url",
// which was then "not a URL"; a space in the host was answered as a path.
func TestCheckURLHints(t *testing.T) {
	suggestion := regexp.MustCompile(`write (\S+)$|\((https://\S+)\)`)
	tests := []struct {
		url, want string
	}{
		{"not a url", `not a URL: give an absolute URL (such as https://example.com/a) or a path starting with "/"`},
		{"https://exa mple.com/x", "not a URL: a space may not appear in its host"},
		{"example.com/a b", `not a URL: give an absolute URL (https://example.com/a%20b) or a path starting with "/"`},
		{"/a b", "not %-encoded: a space may not appear in a URL; write /a%20b"},
		{"https://example.com/caf\u00e9", `not %-encoded: "é" may not appear in a URL; write https://example.com/caf%C3%A9`},
		{"example.com", `not a URL: give an absolute URL (https://example.com) or a path starting with "/"`},
		{"a:b c", `not a URL a robots.txt governs: the scheme is "a", not http, https or ftp`},
	}
	for _, tt := range tests {
		err := CheckURL(tt.url)
		if err == nil || err.Error() != tt.want {
			t.Errorf("CheckURL(%q) = %v, want %q", tt.url, err, tt.want)
			continue
		}
		if m := suggestion.FindStringSubmatch(err.Error()); m != nil {
			s := m[1] + m[2]
			if err := CheckURL(s); err != nil {
				t.Errorf("CheckURL(%q) suggests %q, but CheckURL(%q) = %v", tt.url, s, s, err)
			}
		}
	}
}
