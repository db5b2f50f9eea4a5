package semdiff

import (
	"strings"

	"github.com/gorep/robots"
)

// KnownCrawlers returns the product tokens of well-known search and AI
// crawlers that Compare compares by default, as their operators spell them.
// The result is a new slice.
func KnownCrawlers() []string {
	return []string{
		"Googlebot", "Bingbot", "GPTBot", "ClaudeBot", "CCBot",
		"Google-Extended", "Applebot-Extended", "PerplexityBot",
		"meta-externalagent", "Bytespider", "Amazonbot",
	}
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
