package lint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/corpus"
)

// TestCheckSeesParsedGroups checks, on real files, that Check, reading
// the lines as the parser does, cuts the same groups with the same rules
// as robots.Parse.
func TestCheckSeesParsedGroups(t *testing.T) {
	for _, seed := range seedFiles(t, math.MaxInt) {
		var c checker
		c.check(string(seed.Body[:min(len(seed.Body), robots.MaxSize)]), seed.Body)
		var want, got [][]robots.Rule
		for _, rec := range robots.Parse(seed.Body).Records() {
			want = append(want, rec.Rules)
		}
		for _, rules := range c.rules {
			var rec []robots.Rule
			for _, l := range rules {
				rec = append(rec, robots.Rule{Allow: l.Allow(), Pattern: l.Value(string(c.text)), Line: l.Num()})
			}
			got = append(got, rec)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: groups differ (-parse +check):\n%s", seed.Name, diff)
		}
	}
}

// neverDecidesHolds checks that no rule that Check says never decides is
// the deciding rule for any of the paths made from the file's patterns.
func neverDecidesHolds(t *testing.T, body []byte) {
	t.Helper()
	claims := map[int]Diagnostic{}
	for _, d := range Check(body) {
		if d.Code == CodeShadowedRule || d.Code == CodeDuplicateRule {
			claims[d.Line] = d
		}
	}
	if len(claims) == 0 {
		return
	}
	r := robots.Parse(body)
	var paths []string
	fills := []*strings.Replacer{strings.NewReplacer("*", "", "$", ""), strings.NewReplacer("*", "x/", "$", "")}
	for _, rec := range r.Records() {
		for _, rule := range rec.Rules {
			for _, f := range fills {
				p := f.Replace(rule.Pattern)
				paths = append(paths, p, p+"y", p+"/", p+"?q", p+"$")
				if i := strings.LastIndexByte(p, '/'); i >= 0 {
					paths = append(paths, p[:i+1])
				}
			}
		}
	}
	for _, rec := range r.Records() {
		agent := rec.Agents[0].Token
		if agent == "*" {
			agent = "no-such-bot-anywhere"
		}
		for _, rule := range rec.Rules {
			d, ok := claims[rule.Line]
			if !ok {
				continue
			}
			for _, p := range paths {
				if got := r.Decide(agent, p); got.Reason == robots.ReasonRule && got.Rule.Line == rule.Line {
					t.Errorf("%v, but Decide(%q, %q) = %v", d, agent, p, got)
				}
			}
		}
	}
}

func TestNeverDecidesRealWorld(t *testing.T) {
	files, _ := filepath.Glob("testdata/realworld/*")
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		neverDecidesHolds(t, body)
	}
}

// TestNeverDecidesRandom checks the claims of Check on random groups made
// of patterns that cover each other in many ways.
func TestNeverDecidesRandom(t *testing.T) {
	patterns := []string{"/", "*", "/*", "/a", "/a*", "/a$", "/a*$", "/ab", "/a*b", "/a*b$", "/*b", "/*b*",
		"/a/", "/a/index.html", "/a/index.htm*", "/%7e", "/%7E", "/~", "/a/b", "/a/b$", "/a$b", "/a**"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		var b strings.Builder
		b.WriteString("user-agent: *\n")
		for range 1 + rng.IntN(5) {
			kind := "disallow"
			if rng.IntN(2) == 0 {
				kind = "allow"
			}
			fmt.Fprintf(&b, "%s: %s\n", kind, patterns[rng.IntN(len(patterns))])
		}
		neverDecidesHolds(t, []byte(b.String()))
		if t.Failed() {
			t.Fatalf("file:\n%s", b.String())
		}
	}
}

// TestRawCheck checks that Check compares raw rules by their escaped
// patterns: a pattern written with a byte outside ASCII repeats one
// written with its lower-case escape, in small and large sets.
func TestRawCheck(t *testing.T) {
	for _, size := range corpus.RawSetSizes {
		t.Run(size.Name, func(t *testing.T) {
			body := "user-agent: *\ndisallow: /%ff/a\ndisallow: /\xff/a\n" + corpus.RawPadding(size.PadPlain, size.PadWild)
			var got []Code
			for _, d := range Check([]byte(body)) {
				if d.Line == 3 && d.Code != CodeInvalidUTF8 {
					got = append(got, d.Code)
				}
			}
			if want := []Code{CodeDuplicateRule}; !slices.Equal(got, want) {
				t.Errorf("Check reports %v on line 3, want %v", got, want)
			}
		})
	}
}
