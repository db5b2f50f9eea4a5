package fuzz

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestOracleDivergences pins each divergence of grobotstxt from the
// reference (NOTES §10) and how the adapter deals with it. Each want is the
// reference's answer.
func TestOracleDivergences(t *testing.T) {
	tests := []struct {
		name    string
		robots  string
		agent   string
		url     string
		want    bool
		exclude string // the reason the adapter must give instead of an answer
	}{
		// Lower-case %xx: normalised.
		{name: "lower-hex-digit", robots: "user-agent: *\ndisallow: /%2f\n", agent: "FooBot", url: "http://x/%2F", want: false},
		{name: "lower-hex-digit-other", robots: "user-agent: *\ndisallow: /%2F%aa\n", agent: "FooBot", url: "http://x/%2F%AA", want: false},
		{name: "lower-hex-no-colon", robots: "user-agent: *\ndisallow /a%3b\n", agent: "FooBot", url: "http://x/a%3Bc", want: false},
		{name: "lower-hex-url-kept", robots: "user-agent: *\ndisallow: /%2f\n", agent: "FooBot", url: "http://x/%2f", want: true},
		{name: "digit-hex-and-utf8", robots: "user-agent: *\ndisallow: /%66\xe6\x97/\n", agent: "FooBot", url: "http://x/%66%E6%97/", want: false},
		{name: "digit-hex-and-utf8-lower", robots: "user-agent: *\ndisallow: /%6f\xe6/\n", agent: "FooBot", url: "http://x/%6F%E6/", want: false},
		// User-agent tokens: normalised.
		{name: "agent-digits", robots: "user-agent: MJ12bot\ndisallow: /\n", agent: "MJ", url: "http://x/a", want: false},
		{name: "agent-digits-caller", robots: "user-agent: MJ12bot\ndisallow: /\n", agent: "MJ12bot", url: "http://x/a", want: true},
		{name: "agent-dot", robots: "user-agent: a.b\ndisallow: /\n", agent: "a.b", url: "http://x/a", want: true},
		{name: "agent-star-word", robots: "user-agent: *foo\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "agent-star-slash", robots: "user-agent: */1\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "agent-star-nbsp-byte", robots: "user-agent: *\xA0x\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "agent-leading-nbsp", robots: "user-agent: \u00a0FooBot\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		// diaslow: normalised.
		{name: "typo-diaslow", robots: "user-agent: *\ndiaslow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "typo-disalow", robots: "user-agent: *\ndisalow: /\n", agent: "FooBot", url: "http://x/a", want: false},
		// Unicode whitespace.
		{name: "nbsp-before-key", robots: "user-agent: *\n\u00a0disallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "nbsp-trailing-value", robots: "user-agent: *\ndisallow: /a\u00a0\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "nbsp-trailing-value-escaped", robots: "user-agent: *\ndisallow: /a\u00a0\n", agent: "FooBot", url: "http://x/a%C2%A0", want: false},
		{name: "nbsp-no-colon", robots: "user-agent: *\ndisallow /a\u00a0\n", agent: "FooBot", url: "http://x/a%C2%A0", want: false},
		{name: "nbsp-inside-value", robots: "user-agent: *\ndisallow: /a\u00a0b\n", agent: "FooBot", url: "http://x/a%C2%A0b", want: false},
		// NUL: normalised.
		{name: "nul-cuts-line", robots: "user-agent: *\ndisallow: /a\x00b\n", agent: "FooBot", url: "http://x/ac", want: false},
		{name: "nul-cuts-key", robots: "user-agent: *\ndis\x00allow: /a\n", agent: "FooBot", url: "http://x/a", want: true},
		// Line handling done by the adapter.
		{name: "bom-partial", robots: "\xEF\xBBuser-agent: *\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: false},
		{name: "bom-twice", robots: "\xEF\xBB\xBF\xEF\xBB\xBFuser-agent: *\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "bom-broken", robots: "\xEF\xEFuser-agent: *\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		{name: "cr-cr-lf", robots: "user-agent: *\r\r\ndisallow: /\r", agent: "FooBot", url: "http://x/a", want: false},
		{name: "long-line", robots: "user-agent: *\ndisallow: /" + strings.Repeat("a", maxLineLen) + "\n", agent: "FooBot", url: "http://x/" + strings.Repeat("a", maxLineLen-11), want: false},
		{name: "long-line-short-url", robots: "user-agent: *\ndisallow: /" + strings.Repeat("a", maxLineLen) + "\n", agent: "FooBot", url: "http://x/" + strings.Repeat("a", maxLineLen-12), want: true},
		{name: "size-cap", robots: "user-agent: *\n" + strings.Repeat("#", maxSize-14) + "\ndisallow: /\n", agent: "FooBot", url: "http://x/a", want: true},
		// URL normalisation: excluded.
		{name: "url-raw-utf8", robots: "user-agent: *\ndisallow: /é\n", agent: "FooBot", url: "http://x/é", exclude: ExcludeURL},
		{name: "url-unparsable", robots: "user-agent: *\ndisallow: /\n", agent: "FooBot", url: "http://x:y:z/%zz", exclude: ExcludeURL},
		{name: "url-space", robots: "user-agent: *\ndisallow: /\n", agent: "FooBot", url: "http://x/a b", exclude: ExcludeURL},
		{name: "url-empty-fragment", robots: "user-agent: *\ndisallow: /a$\n", agent: "FooBot", url: "http://x/a#", want: false},
		{name: "url-bad-escape", robots: "user-agent: *\ndisallow: /a%4\n", agent: "FooBot", url: "http://x/a%4", exclude: ExcludeURL},
		{name: "url-ok", robots: "user-agent: *\ndisallow: /a;b\n", agent: "FooBot", url: "//u:p@x:8/a;b?q#f", want: false},
		// Agents: excluded.
		{name: "agent-kelvin", robots: "user-agent: k\ndisallow: /\n", agent: "\u212a", url: "http://x/a", exclude: ExcludeAgent},
	}
	for _, tt := range tests {
		t.Run("oracle/"+tt.name, func(t *testing.T) {
			got, err := oracleAllowed([]byte(tt.robots), tt.url, tt.agent)
			var ex *ExcludedError
			switch {
			case tt.exclude != "":
				if !errors.As(err, &ex) || ex.Reason != tt.exclude {
					t.Fatalf("oracle(%q, %q) = %t, %v; want excluded for %s", tt.agent, tt.url, got, err, tt.exclude)
				}
			case err != nil:
				t.Fatalf("oracle(%q, %q): %v", tt.agent, tt.url, err)
			case got != tt.want:
				t.Errorf("oracle Allowed(%q, %q) = %t, want %t\nbody given to grobotstxt: %q", tt.agent, tt.url, got, tt.want, mustOracle(t, tt.robots).Body())
			}
		})
	}
}

func oracleAllowed(robots []byte, url string, agents ...string) (bool, error) {
	o, err := NewOracle(robots)
	if err != nil {
		return false, err
	}
	return o.Allowed(url, agents...)
}

func mustOracle(t *testing.T, robots string) *Oracle {
	o, err := NewOracle([]byte(robots))
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOracleMatchesReference checks the adapter itself: on the real files,
// the oracle must give the C++ reference's verdict whenever it does not
// exclude the question. This is what makes it a stand-in for the reference
// on generated inputs.
func TestOracleMatchesReference(t *testing.T) {
	for _, c := range corpora(t) {
		var asked, agreed int
		excluded := make(map[string]int)
		for _, name := range c.files {
			o, oerr := NewOracle(c.body(t, name))
			for _, v := range c.verdicts[name] {
				asked++
				got, err := false, oerr
				if err == nil {
					got, err = o.Allowed(v.URL, v.Agent)
				}
				var ex *ExcludedError
				if errors.As(err, &ex) {
					excluded[ex.Reason]++
					continue
				}
				if got != v.Want {
					t.Errorf("%s: oracle Allowed(%q, %q) = %t, reference says %t", v.ID, v.Agent, v.URL, got, v.Want)
					continue
				}
				agreed++
			}
		}
		t.Logf("%s: %d questions, oracle agrees on %d, excluded %s", c.dir, asked, agreed, formatCounts(excluded))
	}
}

func formatCounts(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for i, k := range keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s: %d", k, m[k])
	}
	return b.String()
}
