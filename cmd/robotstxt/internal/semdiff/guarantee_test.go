package semdiff

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/gorep/robots"
)

// A fileGen writes random small robots.txt files whose patterns are made of
// a few pieces that collide in interesting ways: escapes in both cases,
// non-ASCII bytes, "$", "*", index.html.
type fileGen struct {
	rnd *rand.Rand
	// inner allows a "*" inside a pattern, outside the class for which
	// Compare is complete.
	inner bool
}

var (
	patternPieces = []string{"a", "b", "/", "%2f", "%2F", "é", "?", "index.html", ".", "ab"}
	urlPieces     = []string{"a", "b", "/", "%2f", "%2F", "%C3%A9", "?", "index.html", ".", "x", "$", "*"}
	genAgents     = []string{"*", "a", "b", "A"}
	// askAgents are the agents the test asks: "*" first; "c" is named by no
	// file.
	askAgents = []string{"*", "a", "b", "c"}
)

func (g fileGen) pick(list []string) string { return list[g.rnd.IntN(len(list))] }

func (g fileGen) pattern() string {
	switch g.rnd.IntN(10) {
	case 0:
		// Never matches, never decides, matches all.
		return g.pick([]string{"a/", "", "*", "*$"})
	}
	var b strings.Builder
	if g.inner && g.rnd.IntN(4) == 0 {
		b.WriteString("*")
	}
	b.WriteString("/")
	for range g.rnd.IntN(4) {
		if g.inner && g.rnd.IntN(4) == 0 {
			b.WriteString("*")
		}
		b.WriteString(g.pick(patternPieces))
	}
	switch g.rnd.IntN(6) {
	case 0:
		b.WriteString("$")
	case 1:
		b.WriteString("*")
	case 2:
		b.WriteString("*$")
	}
	return b.String()
}

func (g fileGen) file() string {
	var b strings.Builder
	for range 1 + g.rnd.IntN(3) {
		for range 1 + g.rnd.IntN(2) {
			b.WriteString("user-agent: " + g.pick(genAgents) + "\n")
		}
		for range g.rnd.IntN(5) {
			b.WriteString(g.pick([]string{"allow: ", "disallow: "}) + g.pattern() + "\n")
		}
	}
	return b.String()
}

func (g fileGen) url() string {
	var b strings.Builder
	b.WriteString("/")
	for range g.rnd.IntN(6) {
		b.WriteString(g.pick(urlPieces))
	}
	return b.String()
}

// reported reports whether rep holds a change for agent from old to new.
func reported(rep *Report, agent string, old, new robots.Decision) bool {
	for _, a := range rep.Agents {
		if !strings.EqualFold(a.Agent, agent) && !containsFold(a.Like, agent) {
			continue
		}
		for _, v := range a.Verdicts {
			if v.Old.Decision == old.String() && v.New.Decision == new.String() {
				return true
			}
		}
	}
	return false
}

func containsFold(list []string, s string) bool {
	for _, t := range list {
		if strings.EqualFold(t, s) {
			return true
		}
	}
	return false
}

// checkSound checks that every change of rep is what the files answer on
// its witness.
func checkSound(t *testing.T, rep *Report, old, new *robots.Robots, oldText, newText string) {
	t.Helper()
	for _, a := range rep.Agents {
		for _, v := range a.Verdicts {
			do, dn := old.Decide(a.Agent, queryURL(v.Path)), new.Decide(a.Agent, queryURL(v.Path))
			if do.String() != v.Old.Decision || dn.String() != v.New.Decision || do.Allowed == dn.Allowed {
				t.Fatalf("agent %q, %q: reported %q → %q, files say %v → %v\nold:\n%s\nnew:\n%s",
					a.Agent, v.Path, v.Old.Decision, v.New.Decision, do, dn, oldText, newText)
			}
		}
	}
}

// TestCompleteWithoutInnerWildcards checks the guarantee of the package
// doc on random file pairs whose patterns have no "*" inside: whenever a
// random path gets different verdicts, the report holds a change for that
// agent with the same deciding lines.
func TestCompleteWithoutInnerWildcards(t *testing.T) {
	g := fileGen{rnd: rand.New(rand.NewPCG(1, 2))}
	differing, pairs := 0, sample(3000, 750)
	for range pairs {
		oldText, newText := g.file(), g.file()
		old, new := robots.Parse([]byte(oldText)), robots.Parse([]byte(newText))
		rep := Compare(old, new, Options{Agents: askAgents[1:]})
		checkSound(t, rep, old, new, oldText, newText)
		for range 30 {
			url := g.url()
			for _, agent := range askAgents {
				do, dn := old.Decide(agent, url), new.Decide(agent, url)
				if do.Allowed == dn.Allowed {
					continue
				}
				differing++
				if !reported(rep, agent, do, dn) {
					t.Fatalf("agent %q, %q: %v → %v not reported\nold:\n%s\nnew:\n%s\nreport: %+v",
						agent, url, do, dn, oldText, newText, rep)
				}
			}
		}
	}
	if differing < pairs/3 {
		t.Errorf("only %d differing verdicts in %d pairs: the generator tests too little", differing, pairs)
	}
}

// TestCompleteWithInnerWildcards checks the same with "*" inside patterns,
// where the witnesses come from exploring the patterns together: whenever
// the report says it is complete, as it must for such small files.
func TestCompleteWithInnerWildcards(t *testing.T) {
	g := fileGen{rnd: rand.New(rand.NewPCG(3, 4)), inner: true}
	differing, pairs := 0, sample(500, 125)
	for range pairs {
		oldText, newText := g.file(), g.file()
		old, new := robots.Parse([]byte(oldText)), robots.Parse([]byte(newText))
		rep := Compare(old, new, Options{Agents: askAgents[1:]})
		checkSound(t, rep, old, new, oldText, newText)
		if !rep.Complete {
			t.Fatalf("the report is not complete: such small files must be explored fully\nold:\n%s\nnew:\n%s", oldText, newText)
		}
		for range 60 {
			url := g.url()
			for _, agent := range askAgents {
				do, dn := old.Decide(agent, url), new.Decide(agent, url)
				if do.Allowed == dn.Allowed {
					continue
				}
				differing++
				if !reported(rep, agent, do, dn) {
					t.Fatalf("agent %q, %q: %v → %v not reported\nold:\n%s\nnew:\n%s\nreport: %+v",
						agent, url, do, dn, oldText, newText, rep)
				}
			}
		}
	}
	if differing < 2*pairs {
		t.Errorf("only %d differing verdicts in %d pairs: the generator tests too little", differing, pairs)
	}
}
