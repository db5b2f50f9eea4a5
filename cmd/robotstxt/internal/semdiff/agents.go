package semdiff

import (
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/lint"
)

// defaultAgents returns the crawlers that Compare compares by default: the
// product tokens of the known AI and search crawlers of
// lint.KnownCrawlers, the retired ones aside, in the order of that table.
func defaultAgents() []string {
	var tokens []string
	for _, c := range lint.KnownCrawlers() {
		if !c.Retired {
			tokens = append(tokens, c.Token)
		}
	}
	return tokens
}

// namedAgents returns the product tokens named by the user-agent lines of
// files, other than "*" and the empty token, keyed by their lower case. A
// token is spelled as in spellings if it is there, else as first written.
func namedAgents(spellings []string, files ...*robots.Robots) map[string]string {
	named := map[string]string{}
	for _, r := range files {
		for _, rec := range r.Records() {
			for _, a := range rec.Agents {
				key := strings.ToLower(a.Token)
				if _, ok := named[key]; ok || a.Token == "*" || a.Token == "" {
					continue
				}
				named[key] = a.Token
			}
		}
	}
	for _, s := range spellings {
		if _, ok := named[strings.ToLower(s)]; ok {
			named[strings.ToLower(s)] = s
		}
	}
	return named
}

// A ruleCount gives the number of rules that apply to each crawler in a
// file, as groupRules would return them, without reading the file again
// for each.
type ruleCount struct {
	named  map[string]int // by lower-case token
	global int
}

// countRules returns the ruleCount of r.
func countRules(r *robots.Robots) ruleCount {
	c := ruleCount{named: map[string]int{}}
	for _, rec := range r.Records() {
		seen := map[string]bool{}
		for _, a := range rec.Agents {
			t := strings.ToLower(a.Token)
			switch {
			case seen[t]:
			case t == "*":
				c.global += len(rec.Rules)
			default:
				c.named[t] += len(rec.Rules)
			}
			seen[t] = true
		}
	}
	return c
}

// of returns the number of rules that apply to agent.
func (c ruleCount) of(agent string) int {
	if n, ok := c.named[strings.ToLower(agent)]; ok && agent != "*" {
		return n
	}
	return c.global
}

// groupRules returns the rules that apply to the crawler agent in r, as
// Robots.Group chooses them: those of the groups that name it, or if none
// does, those of the groups for "*".
func groupRules(r *robots.Robots, agent string) []robots.Rule {
	var named, global []robots.Rule
	found := false
	for _, rec := range r.Records() {
		names, star := false, false
		for _, a := range rec.Agents {
			if a.Token == "*" {
				star = true
			} else if agent != "*" && strings.EqualFold(a.Token, agent) {
				names = true
			}
		}
		if names {
			found = true
			named = append(named, rec.Rules...)
		}
		if star {
			global = append(global, rec.Rules...)
		}
	}
	if found {
		return named
	}
	return global
}
