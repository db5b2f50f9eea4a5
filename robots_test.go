package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

func TestMultipleAgents(t *testing.T) {
	body := "user-agent: googlebot-news\ndisallow: /n\nallow: /g/x\nuser-agent: googlebot\ndisallow: /g\nuser-agent: *\ndisallow: /s"
	r := Parse([]byte(body))
	tests := []struct {
		name   string
		agents []string
		url    string
		want   bool
	}{
		{"notes/25-union-first", []string{"googlebot-news", "googlebot"}, "/n", false},
		{"notes/25-union-second", []string{"googlebot-news", "googlebot"}, "/g", false},
		{"notes/25-union-longest-across", []string{"googlebot-news", "googlebot"}, "/g/x", true},
		{"notes/25-union-not-star", []string{"googlebot-news", "googlebot"}, "/s", true},
		{"notes/25-none-named", []string{"a", "b"}, "/s", false},
		{"notes/25-one-named", []string{"a", "GOOGLEBOT"}, "/g", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := r.Group(tt.agents...).Allowed(tt.url); got != tt.want {
				t.Errorf("Group(%q).Allowed(%q) = %t, want %t", tt.agents, tt.url, got, tt.want)
			}
			if got := slowAllowed([]byte(body), tt.agents, tt.url); got != tt.want {
				t.Errorf("slowAllowed(%q, %q) = %t, want %t", tt.agents, tt.url, got, tt.want)
			}
		})
	}
}

func TestNilAndZero(t *testing.T) {
	var nilRobots *Robots
	if !nilRobots.Allowed("a", "/x") {
		t.Error("nil Robots disallows")
	}
	if !(&Robots{}).Allowed("a", "/x") {
		t.Error("zero Robots disallows")
	}
	if !nilRobots.Group("a").Allowed("/x") || !(&Robots{}).Group("a", "b").Allowed("/x") {
		t.Error("group of nil or zero Robots disallows")
	}
	var g *Group
	if !g.Allowed("/x") {
		t.Error("nil Group disallows")
	}
	if nilRobots.Sitemaps() != nil || nilRobots.Records() != nil {
		t.Error("nil Robots has sitemaps or records")
	}
	if AllowAll() != allowAll || DisallowAll().Allowed("a", "/") {
		t.Error("AllowAll or DisallowAll misbehave")
	}
}

func TestSitemaps(t *testing.T) {
	body := "sitemap: https://example.com/sitemap.xml\nuser-agent: otherbot\ndisallow: /kale\n\nSitemap: https://cdn.example.org/other-sitemap.xml\nsite-map: https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml\nsitemaps: /relative # comment\nsitemap:\n"
	want := []string{
		"https://example.com/sitemap.xml",
		"https://cdn.example.org/other-sitemap.xml",
		"https://ja.example.org/\u30c6\u30b9\u30c8-\u30b5\u30a4\u30c8\u30de\u30c3\u30d7.xml",
		"/relative",
	}
	got := Parse([]byte(body)).Sitemaps()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Sitemaps() = %q, want %q", got, want)
	}
	// The sitemap line does not disturb the group.
	if Parse([]byte(body)).Allowed("otherbot", "/kale") {
		t.Error("otherbot allowed /kale")
	}
}

// tableFiles are the files these tests read: the hostile files,
// the kept shapes, a sample of the real-world corpus, and files of small
// records of repeated, index.htm and raw rules.
func tableFiles(t *testing.T) map[string]string {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for i, body := range realWorldBodies(t) {
		if i%7 == 0 {
			files[fmt.Sprintf("realworld-%d", i)] = string(body)
		}
	}
	rng := rand.New(rand.NewPCG(5, 8))
	dirs := []string{"/", "/a/", "/a$/", "/*/", "/\xe9/", "/%e9/", "/%E9/", "//"}
	pattern := func() string {
		d := dirs[rng.IntN(len(dirs))]
		switch rng.IntN(5) {
		case 0:
			return d + "index.htm" + []string{"", "l", "l$", "\xe9", "x"}[rng.IntN(5)]
		case 1:
			return d + "$"
		case 2:
			return randomWord(rng, "ab/", rng.IntN(3)) // short: repeats, or never compiled
		case 3:
			return d + randomWord(rng, "ab*$\xe9", rng.IntN(3))
		}
		return d
	}
	for file := range 60 {
		var b strings.Builder
		for rec := range 1 + rng.IntN(8) {
			fmt.Fprintf(&b, "user-agent: %s\n", letters(rec%4))
			for range rng.IntN(ruleset.SmallSet + 4) {
				fmt.Fprintf(&b, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], pattern())
			}
		}
		files[fmt.Sprintf("random-%d", file)] = b.String()
	}
	return files
}

// TestMayMatchAtParse checks Robots.mayMatch, which Parse sets from the
// rule lines it reads, against what the groups made of them hold: a
// compiled rule, or a set left to its questions to compile.
func TestMayMatchAtParse(t *testing.T) {
	files := tableFiles(t)
	for name, body := range map[string]string{
		"empty-disallow":     "user-agent: *\ndisallow:\n",
		"rule-before-agents": "disallow: /x\n",
		"no-slash":           "user-agent: a\nallow: x\ndisallow: ?y\n",
		"star":               "user-agent: a\nallow: *x\n",
		"slash":              "user-agent: a\ndisallow: /\n",
	} {
		files[name] = body
	}
	for name, body := range files {
		r := Parse([]byte(body))
		got := r.mayMatch

		if want := len(r.src.Compiled()) > 0 || len(largeSets(r)) > 0; got != want {
			t.Errorf("%s: mayMatch %t at Parse, want %t", name, got, want)
		}
	}
}
