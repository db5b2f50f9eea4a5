// Package verdict is the JSON shape of a robots.txt verdict on one URL: one
// shape for "robotstxt test -json" and for the tester's /api/test.
package verdict

import "github.com/gorep/robots"

// A Verdict is the answer of the rules on one URL for one crawler, or the
// error that kept the URL from one.
type Verdict struct {
	// Agent is the crawler answered, as the caller names it; "" where the
	// answer is for the one crawler asked (the tester).
	Agent string `json:"agent,omitempty"`
	URL   string `json:"url"`
	// Allowed, Reason, Rule, Global and Decision are the answer; Allowed
	// is nil when Error says why there is none.
	Allowed *bool  `json:"allowed,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Rule    *Rule  `json:"rule,omitempty"`
	// Global reports whether the rules came from the groups for "*".
	Global bool `json:"global"`
	// Decision is the verdict in words, as the text output says it.
	Decision string `json:"decision,omitempty"`
	Error    string `json:"error,omitempty"`
}

// A Rule is the deciding rule of a Verdict.
type Rule struct {
	Allow   bool   `json:"allow"`
	Pattern string `json:"pattern"`
	Line    int    `json:"line"`
}

// Of returns the verdict d for agent on url.
func Of(agent, url string, d robots.Decision) Verdict {
	v := Verdict{Agent: agent, URL: url, Allowed: &d.Allowed, Reason: d.Reason.String(), Global: d.Global, Decision: d.String()}
	if d.Reason == robots.ReasonRule {
		v.Rule = &Rule{Allow: d.Rule.Allow, Pattern: d.Rule.Pattern, Line: d.Rule.Line}
	}
	return v
}

// Failed returns the verdict on url that err kept from an answer.
func Failed(url string, err error) Verdict {
	return Verdict{URL: url, Error: err.Error()}
}
