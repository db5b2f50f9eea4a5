package fuzz

import (
	"bytes"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

var (
	lowerHexRE = regexp.MustCompile(`%[0-9a-f][a-f]|%[a-f][0-9a-f]`)
	upperHexRE = regexp.MustCompile(`%[0-9A-F][A-F]|%[A-F][0-9A-F]`)
)

func TestGenerateDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		a, b := Generate(seed), Generate(seed)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("Generate(%d) differs between two calls", seed)
		}
	}
	if reflect.DeepEqual(Generate(1), Generate(2)) {
		t.Fatal("Generate(1) == Generate(2)")
	}
	body := Generate(3).Robots
	if !reflect.DeepEqual(QueriesFor(body, 7, 10), QueriesFor(body, 7, 10)) {
		t.Fatal("QueriesFor is not deterministic")
	}
}

// TestGenerateCorners checks that the generator reaches each corner that the
// differential tests rely on, within the first quarter of the seeds
// TestDifferential uses.
func TestGenerateCorners(t *testing.T) {
	has := func(sub string) func(Case) bool {
		return func(c Case) bool { return bytes.Contains(c.Robots, []byte(sub)) }
	}
	hasFold := func(sub string) func(Case) bool {
		return func(c Case) bool { return bytes.Contains(bytes.ToLower(c.Robots), []byte(sub)) }
	}
	url := func(f func(string) bool) func(Case) bool {
		return func(c Case) bool {
			for _, q := range c.Queries {
				if f(q.URL) {
					return true
				}
			}
			return false
		}
	}
	corners := []struct {
		name string
		ok   func(Case) bool
	}{
		{"ua-mixed-case", has("USER-AGENT")},
		{"ua-star", has("agent: *\n")},
		{"ua-star-foo", has("* foo")},
		{"ua-star-word", has("*foo")},
		{"ua-version", has("/2.1")},
		{"ua-digits", has("MJ12bot")},
		{"ua-space", has(" Bar")},
		{"pattern-star", has("*")},
		{"pattern-dollar-end", has("$\n")},
		{"pattern-dollar-middle", func(c Case) bool {
			return bytes.Contains(c.Robots, []byte("$/")) || bytes.Contains(c.Robots, []byte("$a"))
		}},
		{"pattern-hex-lower", func(c Case) bool { return lowerHexRE.Match(c.Robots) }},
		{"pattern-hex-upper", func(c Case) bool { return upperHexRE.Match(c.Robots) }},
		{"pattern-utf8", has("é")},
		{"pattern-invalid-utf8", has("\xff")},
		{"nul", has("\x00")},
		{"key-disallowed", hasFold("disallowed")},
		{"key-useragent", hasFold("useragent")},
		{"key-user-agent-space", hasFold("user agent:")},
		{"key-site-map", hasFold("site-map")},
		{"key-typo", hasFold("dissalow")},
		{"key-diaslow", hasFold("diaslow")},
		{"no-colon-two-words", has("Disallow /")},
		{"no-colon-three-words", has("disallow /a /b")},
		{"comment-trailing", has(" # comment")},
		{"comment-line", has("\n# comment")},
		{"sitemap-between-agents", func(c Case) bool {
			return strings.Contains(strings.ToLower(string(c.Robots)), "sitemap") && bytes.Count(bytes.ToLower(c.Robots), []byte("user-agent")) > 1
		}},
		{"bom-full", func(c Case) bool { return bytes.HasPrefix(c.Robots, []byte(utf8BOM)) }},
		{"bom-partial", func(c Case) bool { return bytes.HasPrefix(c.Robots, []byte("\xEF\xBBU")) }},
		{"bom-broken", func(c Case) bool { return bytes.HasPrefix(c.Robots, []byte("\xEF\x11\xBF")) }},
		{"cr", has("\rD")},
		{"crlf", has("\r\n")},
		{"cr-cr-lf", has("\r\r\n")},
		{"lf-cr", has("\n\r")},
		{"no-final-break", func(c Case) bool { return len(c.Robots) > 0 && !bytes.HasSuffix(c.Robots, []byte("\n")) }},
		{"long-line", func(c Case) bool {
			for _, l := range splitKeepingBreaks(c.Robots) {
				if len(l) >= maxLineLen-8 && len(l) <= maxLineLen+8 {
					return true
				}
			}
			return false
		}},
		{"near-size-cap", func(c Case) bool { return len(c.Robots) > maxSize-64 }},
		{"past-size-cap", func(c Case) bool { return len(c.Robots) > maxSize }},
		{"index-html", has("index.html")},
		{"url-query", url(func(u string) bool { return strings.Contains(u, "?") })},
		{"url-fragment", url(func(u string) bool { return strings.Contains(u, "#") })},
		{"url-params", url(func(u string) bool { return strings.Contains(u, ";") })},
		{"url-double-slash", url(func(u string) bool { return strings.Contains(u, "//") && !strings.Contains(u, "://") })},
		{"url-port", url(func(u string) bool { return strings.Contains(u, ":8080") })},
		{"url-userinfo", url(func(u string) bool { return strings.Contains(u, "@") })},
		{"url-no-scheme", url(func(u string) bool { return strings.HasPrefix(u, "example.com") })},
		{"url-robots-txt", url(func(u string) bool { return strings.HasSuffix(u, "/robots.txt") })},
		{"several-agents", func(c Case) bool {
			for _, q := range c.Queries {
				if len(q.Agents) > 1 {
					return true
				}
			}
			return false
		}},
	}
	found := make([]int, len(corners))
	n := *files / 4
	for i := range n {
		c := Generate(*firstSeed + uint64(i))
		for j, k := range corners {
			if k.ok(c) {
				found[j]++
			}
		}
	}
	for j, k := range corners {
		if found[j] == 0 {
			t.Errorf("no generated file among %d reaches %s", n, k.name)
		} else {
			t.Logf("%-24s %6d files", k.name, found[j])
		}
	}
}
