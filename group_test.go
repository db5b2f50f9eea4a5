package robots

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/ruleset"
)

func TestDecideReasons(t *testing.T) {
	body := "user-agent: some\n\ndisallow: /x\n\nuser-agent: blank\ndisallow:\nuser-agent: empty\n"
	r := Parse([]byte(body))
	tests := []struct {
		name   string
		r      *Robots
		agent  string
		url    string
		want   Decision
		string string
	}{
		{"rule", r, "some", "/x", Decision{Allowed: false, Reason: ReasonRule, Rule: Rule{Pattern: "/x", Line: 3}}, "disallowed by line 3: Disallow: /x"},
		{"no-match", r, "some", "/y", Decision{Allowed: true, Reason: ReasonNoMatch}, "allowed (no matching rule)"},
		{"empty-group", r, "empty", "/y", Decision{Allowed: true, Reason: ReasonEmptyGroup}, "allowed (empty group)"},
		{"empty-pattern", r, "blank", "/y", Decision{Allowed: true, Reason: ReasonNoMatch}, "allowed (no matching rule)"},
		// The "*" record, merged with nothing, has no rule line.
		{"empty-global", Parse([]byte("User-agent: a\nDisallow: /x\nUser-agent: a\nUser-agent: *\n")), "b", "/y", Decision{Allowed: true, Reason: ReasonEmptyGroup, Global: true}, "allowed (empty group)"},
		{"no-group", r, "other", "/y", Decision{Allowed: true, Reason: ReasonNoGroup}, "allowed (no group)"},
		{"robots-txt", DisallowAll(), "a", "/robots.txt", Decision{Allowed: true, Reason: ReasonRobotsTxt}, "allowed (robots.txt is always allowed)"},
		{"global", Parse([]byte("user-agent: *\nallow: /y")), "a", "/y", Decision{Allowed: true, Reason: ReasonRule, Rule: Rule{Allow: true, Pattern: "/y", Line: 2}, Global: true}, "allowed by line 2: Allow: /y"},
		{"written-pattern", Parse([]byte("user-agent: *\ndisallow: /caf\u00e9 # x")), "a", "/caf%C3%A9", Decision{Reason: ReasonRule, Rule: Rule{Pattern: "/caf\u00e9", Line: 2}, Global: true}, "disallowed by line 2: Disallow: /caf\u00e9"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.r.Decide(tt.agent, tt.url)
			if got != tt.want {
				t.Errorf("Decide(%q, %q) = %#v, want %#v", tt.agent, tt.url, got, tt.want)
			}
			if got.String() != tt.string {
				t.Errorf("Decide(%q, %q).String() = %q, want %q", tt.agent, tt.url, got.String(), tt.string)
			}
		})
	}
}

// TestDecideLineAtSharedOffsets checks the line Decide quotes when the
// compiled offset of a rule is shared: an empty rule's value starts where
// the next rule's does, and an escaped pattern follows its value as written
// (keepRule), right before the next rule's value.
func TestDecideLineAtSharedOffsets(t *testing.T) {
	runQueries(t, []query{
		{name: "empty-then-escaped", body: "user-agent: a\ndisallow:\ndisallow: /\xe9\n", agent: "a", url: "/%E9", want: false, line: 3},
		{name: "escaped-then-empty", body: "user-agent: a\ndisallow: /\xe9\nallow:\nallow: /%e9\n", agent: "a", url: "/%E9", want: true, line: 4},
		{name: "escaped-then-empty-then-plain", body: "user-agent: a\nallow: /\xe9\ndisallow:\ndisallow: /x\n", agent: "a", url: "/x", want: false, line: 4},
		{name: "escaped-twice-same-rank", body: "user-agent: a\ndisallow: /%e9\ndisallow: /\xe9\n", agent: "a", url: "/%E9", want: false, line: 2},
		{name: "escaped-index-htm", body: "user-agent: a\nallow: /\xe9/index.html\ndisallow: /\n", agent: "a", url: "/%E9/", want: true, line: 2},
		{name: "escaped-dollar", body: "user-agent: a\ndisallow: /\xe9$\nallow: /%E9\n", agent: "a", url: "/%E9", want: false, line: 2}, // "/%E9$" is longer
		{name: "empty-escaped-empty", body: "user-agent: a\nallow:\ndisallow: /a%2f\nallow:\n", agent: "a", url: "/a%2F", want: false, line: 3},
	})
}

func TestAllowedNoAllocs(t *testing.T) {
	r := Parse([]byte(googleExample + "user-agent: *\ndisallow: /*.php$\nallow: /d/index.html\n" + strings.Repeat("disallow: /many/x\n", 40)))
	g := r.Group("Googlebot")
	layOutAll(r)
	urls := []string{
		"https://example.com/includes/a.js",
		"https://example.com/a/b.php",
		"https://example.com/d/",
		"https://example.com/many/x",
		"https://example.com?q=1",
		"/robots.txt",
	}
	for _, agent := range []string{"Googlebot", "googlebot", "OtherBot", strings.Repeat("x", 100), "Googlebot/2.1"} {
		for _, u := range urls {
			if n := testing.AllocsPerRun(100, func() { r.Allowed(agent, u) }); n != 0 {
				t.Errorf("Allowed(%q, %q) allocates %v times", agent, u, n)
			}
			if n := testing.AllocsPerRun(100, func() { g.Allowed(u) }); n != 0 {
				t.Errorf("Group.Allowed(%q) allocates %v times", u, n)
			}
		}
	}
}

// TestDecideNoAllocs checks that Decide, like Allowed, allocates nothing
// once the sets it asks are laid out: merged, split and global groups of
// large sets, and to quote a rule whose pattern escaping changes, which is
// kept as written.
func TestDecideNoAllocs(t *testing.T) {
	r := Parse([]byte(layoutBody() + "user-agent: c\nallow: /caf\xc3\xa9\n"))
	paths := []string{"/p3/4x123yb", "/p1/1", "/x", "/caf%C3%A9/x", "https://example.com?q"}
	for _, agent := range []string{"a", "b", "c", "z"} {
		for _, p := range paths {
			for range ruleset.LayoutQuestions + 1 {
				r.Decide(agent, p) // lays the sets out
			}
			if n := testing.AllocsPerRun(50, func() { r.Decide(agent, p) }); n != 0 {
				t.Errorf("Decide(%q, %q) allocates %v times", agent, p, n)
			}
		}
	}
	if d := r.Decide("c", "/caf%C3%A9/x"); d.Rule.Pattern != "/caf\xc3\xa9" || !d.Allowed {
		t.Errorf("Decide(c, /caf%%C3%%A9/x) = %v, want allowed by Allow: /caf\\xc3\\xa9", d)
	}
}

// TestMergedGroups checks groups merged when parsed, and the groups of
// several agents, against the slow model, on random files whose records
// name overlapping agents; and that a file built to defeat merging (past
// the budget of resolve) still answers right.
func TestMergedGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	agents := []string{"a", "b", "c", "d", "*"}
	word := func() string {
		b := make([]byte, rng.IntN(4)+1)
		for i := range b {
			b[i] = "ab/*$"[rng.IntN(5)]
		}
		return string(b)
	}
	var files []string
	for range 60 {
		var body strings.Builder
		for range 1 + rng.IntN(12) {
			for range 1 + rng.IntN(3) {
				body.WriteString("user-agent: " + agents[rng.IntN(len(agents))] + "\n")
			}
			for range rng.IntN(4) {
				kind := []string{"allow", "disallow"}[rng.IntN(2)]
				body.WriteString(kind + ": /" + word() + "\n")
			}
		}
		files = append(files, body.String())
	}
	// Many records, each naming "x" with one other agent: the lists of
	// "x" and of each other agent differ, and the budget runs out.
	var defeat strings.Builder
	for i := range 300 {
		defeat.WriteString("user-agent: x\nuser-agent: " + letters(i%40) + "\ndisallow: /" + letters(i) + "\n")
	}
	files = append(files, defeat.String())
	if g := Parse([]byte(defeat.String())).Group("x"); !g.named || g.split || g.set.Empty() {
		t.Errorf("the group of the agent of most records is not merged into one set (split %t)", g.split)
	}
	queries := [][]string{{"a"}, {"b", "c"}, {"a", "d", "c"}, {"zz"}, {"zz", "b"}, {"x"}, {"x", "b"}, {"c", "e"}}
	for i, body := range files {
		r := Parse([]byte(body))
		for _, q := range queries {
			g := r.Group(q...)
			for range 20 {
				path := "/" + strings.NewReplacer("*", "", "$", "").Replace(word()+word())
				want := slowAllowed([]byte(body), q, path)
				if got := g.Allowed(path); got != want {
					t.Fatalf("file %d: Group(%q).Allowed(%q) = %t, slow model says %t; file:\n%s", i, q, path, got, want, body)
				}
				if len(q) == 1 {
					if got := r.Allowed(q[0], path); got != want {
						t.Fatalf("file %d: Allowed(%q, %q) = %t, slow model says %t", i, q[0], path, got, want)
					}
				}
			}
		}
	}
}

// pathOf returns the part of url that rules are matched against, as one
// string.
func pathOf(url string) string {
	path, slash := splitPath(url)
	if slash {
		return "/" + path
	}
	return path
}

func TestPathOf(t *testing.T) {
	tests := []struct{ url, want string }{
		{"", "/"},
		{"http://www.example.com", "/"},
		{"http://www.example.com/", "/"},
		{"http://www.example.com/a", "/a"},
		{"http://www.example.com/a/", "/a/"},
		{"http://www.example.com/a/b?c=http://d.e/", "/a/b?c=http://d.e/"},
		{"http://www.example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"example.com", "/"},
		{"example.com/", "/"},
		{"example.com/a", "/a"},
		{"example.com/a/", "/a/"},
		{"example.com/a/b?c=d&e=f#fragment", "/a/b?c=d&e=f"},
		{"a", "/"},
		{"a/", "/"},
		{"/a", "/a"},
		{"a/b", "/b"},
		{"example.com?a", "/?a"},
		{"example.com/a;b#c", "/a;b"},
		{"//a/b/c", "/b/c"},
		{"http://x.com?q", "/?q"},
		{"http://x.com;p", "/;p"},
		{"http://x.com#f/a", "/"},
		{"http://x.com/#f", "/"},
		{"http://user:pass@x.com:8080/a", "/a"},
		{"a?b://c/d", "/?b://c/d"},
		{"mailto:a@b.c", "/"},
		{"http://x.com/a%2Fb", "/a%2Fb"},
		{"a#b://c/d", "/"},
		{"://x/y", "/y"},
		{"//a#b/c", "/"},
		{"//://x/y", "/y"},
		{"http:/x/y", "/x/y"},
		{"http://", "/"},
		{"http:///a", "/a"},
		{"a:/", "/"},
	}
	for _, tt := range tests {
		if got := pathOf(tt.url); got != tt.want {
			t.Errorf("pathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
		if got := slowPathOf(tt.url); got != tt.want {
			t.Errorf("slowPathOf(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// TestURLCutAtNUL checks that the path of a URL is read up to its first
// NUL byte, as Google's reference reads it: it finds the path in the whole
// URL, then reads it as a C string. "/a\x00b" is "/a", which
// "Disallow: /a$" matches (issue 26, item 23); a NUL before the path is
// passed over, as any byte of the authority (issue 30).
func TestURLCutAtNUL(t *testing.T) {
	body := "User-agent: *\nDisallow: /a$\n"
	runQueries(t, []query{
		{name: "google/nul-in-url", body: body, agent: "FooBot", url: "http://example.com/a\x00b", want: false, line: 2},
		{name: "google/nul-in-path", body: body, agent: "FooBot", url: "/a\x00b", want: false, line: 2},
		{name: "google/nul-in-host", body: body, agent: "FooBot", url: "http://example.com\x00/a", want: false, line: 2},
		{name: "google/nul-mid-host", body: body, agent: "FooBot", url: "http://ex\x00ample.com/a", want: false, line: 2},
		{name: "google/nul-first", body: body, agent: "FooBot", url: "\x00/a", want: false, line: 2},
		{name: "google/nul-after-query", body: body, agent: "FooBot", url: "/a?\x00", want: true},
		{name: "google/nul-before-fragment", body: body, agent: "FooBot", url: "/a\x00#b", want: false, line: 2},
	})
	for _, tc := range []struct{ url, want string }{
		{"http://example.com/a\x00b", "/a"},
		{"\x00/a", "/a"},
		{"\x00\x00", "/"},
		{"//ex\x00ample.com/a\x00/b", "/a"},
		{"http://ex\x00#ample.com/a", "/"},
		{"http://example.com?q\x00r", "/?q"},
	} {
		if got := pathOf(tc.url); got != tc.want {
			t.Errorf("pathOf(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
