package lines

import (
	"strings"
	"testing"
)

func TestSplitDirective(t *testing.T) {
	tests := []struct {
		line       string
		kind       Kind
		key, value string
	}{
		{"User-agent: Googlebot", KindUserAgent, "User-agent", "Googlebot"},
		{"  disallow :  /a b ", KindDisallow, "disallow", "/a b"},
		{"Disallowed: /x", KindDisallow, "Disallowed", "/x"},
		{"dissalow: /x", KindDisallow, "dissalow", "/x"},
		{"user agent: a", KindUserAgent, "user agent", "a"},
		{"Allow /tmp", KindAllow, "Allow", "/tmp"},
		{"Allow /a /b", KindNone, "", ""},
		{"Site-map: https://e.com/s", KindSitemap, "Site-map", "https://e.com/s"},
		{"Crawl-delay: 5", KindOther, "Crawl-delay", "5"},
		{": /x", KindNone, "", ""},
		{"", KindNone, "", ""},
	}
	for _, tt := range tests {
		kind, key, value := SplitDirective(tt.line)
		if kind != tt.kind || key != tt.key || value != tt.value {
			t.Errorf("SplitDirective(%q) = %d %q %q, want %d %q %q", tt.line, kind, key, value, tt.kind, tt.key, tt.value)
		}
	}
}

// TestCommonAgreesWithNext checks that the lines Scanner.Common reads are
// those Next and SplitDirective read, with the same numbers, on bodies of
// common lines, others, and long ones, in each line break.
func TestCommonAgreesWithNext(t *testing.T) {
	long := "Disallow: /" + strings.Repeat("a", MaxLineLen) + "\n"
	for _, body := range []string{
		"User-agent: *\nDisallow: /a\n\n# c\nAllow: /b  \nSitemap: https://e.com/s\n",
		"user-agent:a\ncrawl-delay: 3\nDISALLOW:\t/x#y\nallow: /z",
		"User-agent: a\n" + long + "Allow: /b\n",
		"\xEF\xBB\xBFUser-agent: *\r\nDisallow: /a\r\rAllow: /c",
	} {
		type read struct {
			n     int
			kind  Kind
			value string
		}
		var want, got []read
		ls := NewScanner(SkipBOM(body))
		for ls.Next() {
			if kind, _, v := SplitDirective(ls.Content()); kind != KindNone && kind != KindOther {
				want = append(want, read{ls.Num(), kind, v})
			}
		}
		ls = NewScanner(SkipBOM(body))
		for {
			for kind, v, ok := ls.Common(); ok; kind, v, ok = ls.Common() {
				if kind != KindNone {
					got = append(got, read{ls.Num(), kind, v})
				}
			}
			if !ls.Next() {
				break
			}
			if kind, _, v := SplitDirective(ls.Content()); !ls.Blank() && kind != KindNone && kind != KindOther {
				got = append(got, read{ls.Num(), kind, v})
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%.30q: %d directives read through Common, %d through Next", body, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%.30q: directive %d: %+v through Common, %+v through Next", body, i, got[i], want[i])
			}
		}
	}
}
