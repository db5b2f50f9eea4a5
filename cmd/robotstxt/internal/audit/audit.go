// Package audit says what a robots.txt file does to the known AI crawlers,
// the AI control tokens (Google-Extended, Applebot-Extended) and the major
// search crawlers: whether each may fetch the site's root and a sample of
// its own paths, which line decides, and the usage preferences
// (Content-Signal, Content-Usage) that apply to it.
//
// The paths sampled are "/" and the literal prefixes of the file's own
// allow and disallow patterns (the pattern up to its first "*" or "$"), in
// file order, at most MaxPaths of them. They show what the rules do, not
// every path a rule could decide.
package audit

import (
	"strconv"
	"strings"

	"github.com/gorep/robots"
	"github.com/gorep/robots/lint"
)

// MaxPaths is the most paths sampled, "/" included.
const MaxPaths = 12

// A Report is the audit of one file.
type Report struct {
	// Paths are the paths sampled, "/" first.
	Paths []string `json:"paths"`
	// Crawlers are the results of the known crawlers, in the order of
	// lint.KnownCrawlers.
	Crawlers []Result `json:"crawlers"`
	Summary  Summary  `json:"summary"`
}

// A Result is what the file does to one crawler.
type Result struct {
	lint.Crawler
	// AI reports whether the crawler is counted among the AI crawlers.
	AI bool `json:"ai"`
	// Named reports whether a group of the file names the crawler; if not,
	// the groups for "*" apply.
	Named bool `json:"named"`
	// Blocked reports whether the crawler may not fetch "/".
	Blocked  bool      `json:"blocked"`
	Verdicts []Verdict `json:"verdicts"`
	// Signals are the Content-Signal values of the crawler's groups.
	Signals robots.ContentSignals `json:"content_signal"`
}

// A Verdict is the answer for one path.
type Verdict struct {
	Path    string `json:"path"`
	Allowed bool   `json:"allowed"`
	// Line is the line of the deciding rule, or 0.
	Line int `json:"line,omitempty"`
	// Reason is the deciding rule ("Disallow: /private/") or why no rule
	// decided ("no matching rule").
	Reason string `json:"reason"`
	// Usage is the Content-Usage preference for the path, when allowed.
	Usage *robots.ContentUsage `json:"content_usage,omitempty"`
}

// A Summary counts the crawlers blocked and states the preferences of the
// file for crawlers without a group of their own. Retired tokens are not
// counted. A crawler, or control token, is blocked when it may not fetch
// "/".
type Summary struct {
	// AICrawlers and AIBlocked count the AI crawlers, control tokens
	// apart.
	AICrawlers int `json:"ai_crawlers"`
	AIBlocked  int `json:"ai_blocked"`
	// AIControls and AIControlsBlocked count the AI control tokens
	// (lint.Crawler.Control: Google-Extended, Applebot-Extended). No
	// crawler sends them: a blocked token keeps no crawler out, the
	// operator's main crawler still fetches, but the content is not used
	// for what the token controls (AI training).
	AIControls        int `json:"ai_controls"`
	AIControlsBlocked int `json:"ai_controls_blocked"`
	SearchCrawlers    int `json:"search_crawlers"`
	SearchBlocked     int `json:"search_blocked"`
	// Training and Search are the preferences stated to crawlers without a
	// group of their own for "/": Content-Signal ai-train and Content-Usage
	// train-ai combined, and Content-Signal and Content-Usage search
	// combined; any "no" wins.
	Training robots.Preference `json:"training"`
	Search   robots.Preference `json:"search"`
	// Text is the summary in one line.
	Text string `json:"text"`
}

// Run audits r.
func Run(r *robots.Robots) Report {
	rep := Report{Paths: SamplePaths(r)}
	for _, c := range lint.KnownCrawlers() {
		res := audit(r, c, rep.Paths)
		rep.Crawlers = append(rep.Crawlers, res)
		rep.Summary.count(res)
	}
	generic := r.Preferences("*", "/")
	rep.Summary.Training = combine(generic.Signals.AITrain, generic.Usage.TrainAI)
	rep.Summary.Search = combine(generic.Signals.Search, generic.Usage.Search)
	rep.Summary.Text = summaryText(rep.Summary)
	return rep
}

// count counts res in s: among the AI control tokens, the AI crawlers or
// the search crawlers, unless it is retired.
func (s *Summary) count(res Result) {
	var all, blocked *int
	switch {
	case res.Retired:
		return
	case res.AI && res.Control:
		all, blocked = &s.AIControls, &s.AIControlsBlocked
	case res.AI:
		all, blocked = &s.AICrawlers, &s.AIBlocked
	default:
		all, blocked = &s.SearchCrawlers, &s.SearchBlocked
	}
	*all++
	if res.Blocked {
		*blocked++
	}
}

// audit answers for crawler c.
func audit(r *robots.Robots, c lint.Crawler, paths []string) Result {
	res := Result{Crawler: c, AI: c.AI()}
	for _, p := range paths {
		d := r.Decide(c.Token, p)
		v := Verdict{Path: p, Allowed: d.Allowed, Reason: d.Reason.String()}
		if d.Reason == robots.ReasonRule {
			v.Line = d.Rule.Line
			v.Reason = ruleText(d.Rule)
		}
		if pref := r.Preferences(c.Token, p); pref.Allowed && len(pref.Usage.Lines) > 0 {
			v.Usage = &pref.Usage
		}
		res.Verdicts = append(res.Verdicts, v)
	}
	root := r.Decide(c.Token, "/")
	res.Named = !root.Global && root.Reason != robots.ReasonNoGroup
	res.Blocked = !root.Allowed
	res.Signals = r.Preferences(c.Token, "/").Signals
	return res
}

// ruleText returns a rule as written: "Disallow: /private/".
func ruleText(rule robots.Rule) string {
	if rule.Allow {
		return "Allow: " + rule.Pattern
	}
	return "Disallow: " + rule.Pattern
}

// combine returns the preference two statements make: any "no" wins.
func combine(p, q robots.Preference) robots.Preference {
	switch {
	case p == robots.PreferenceNo || q == robots.PreferenceNo:
		return robots.PreferenceNo
	case p == robots.PreferenceYes || q == robots.PreferenceYes:
		return robots.PreferenceYes
	}
	return robots.PreferenceUnknown
}

// summaryText writes s in one line, such as "blocks 5 of 19 known AI
// crawlers, 2 of 2 AI control tokens and 0 of 6 search crawlers; training:
// no; search: yes".
func summaryText(s Summary) string {
	return "blocks " + ofCount(s.AIBlocked, s.AICrawlers) + " known AI crawlers, " +
		ofCount(s.AIControlsBlocked, s.AIControls) + " AI control tokens and " +
		ofCount(s.SearchBlocked, s.SearchCrawlers) + " search crawlers; training: " +
		stated(s.Training) + "; search: " + stated(s.Search)
}

// ofCount writes "n of all".
func ofCount(n, all int) string {
	return strconv.Itoa(n) + " of " + strconv.Itoa(all)
}

// stated names a preference for the summary.
func stated(p robots.Preference) string {
	if p == robots.PreferenceUnknown {
		return "unstated"
	}
	return p.String()
}

// SamplePaths returns "/" and the literal prefixes of the allow and
// disallow patterns of r (cut at the first "*" or "$"), those that start
// with "/", without repeats, in file order, at most MaxPaths.
func SamplePaths(r *robots.Robots) []string {
	paths := []string{"/"}
	for _, rec := range r.Records() {
		for _, rule := range rec.Rules {
			p := rule.Pattern
			if i := strings.IndexAny(p, "*$"); i >= 0 {
				p = p[:i]
			}
			p = escape(p)
			if !strings.HasPrefix(p, "/") || contains(paths, p) {
				continue
			}
			if len(paths) == MaxPaths {
				return paths
			}
			paths = append(paths, p)
		}
	}
	return paths
}

// escape %-encodes the bytes of p that a URL path cannot hold as they
// are: spaces, controls and non-ASCII bytes.
func escape(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if c := p[i]; c <= ' ' || c >= 0x7f {
			b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16)+strconv.FormatUint(uint64(c)&15, 16)))
			continue
		}
		b.WriteByte(p[i])
	}
	return b.String()
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, t := range list {
		if t == s {
			return true
		}
	}
	return false
}
