package signals

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gorep/robots"
)

// Seen is what a crawler has seen of a site and a page. A nil field was
// not seen.
type Seen struct {
	// Robots is the site's robots.txt (robots.FromStatus of its fetch).
	Robots *robots.Robots
	// TDMRep is the site's tdmrep.json; nil when there is none or it was
	// not fetched.
	TDMRep *TDMRep
	// Header is the page's response header; nil when the page was not
	// fetched.
	Header http.Header
	// Head is the page's head; nil when it was not read (not HTML, or not
	// fetched).
	Head *Head
	// Now is the time unavailable_after dates are compared with; the zero
	// time means time.Now().
	Now time.Time
}

// A Decision is the answer for each use of one URL by one crawler.
type Decision struct {
	URL   string `json:"url"`
	Agent string `json:"agent"`
	Uses  Uses   `json:"uses"`
	// PageSeen reports whether the page's own signals (headers, head) were
	// seen. When false, Unseen says why.
	PageSeen bool     `json:"page_seen"`
	Unseen   []string `json:"unseen,omitempty"`
	// Directives are the robots meta and X-Robots-Tag rules that apply to
	// the crawler, unknown ones included.
	Directives []Directive `json:"directives,omitempty"`
	// Problems are the signals that were malformed and ignored, and the
	// limits reached while reading.
	Problems []string `json:"problems,omitempty"`
}

// Decide combines what s holds into one answer per use for url (absolute,
// or a path) and the crawler whose product token is agent, following the
// table in the package documentation. A crawler that obeys several tokens
// is spelled with commas, as robotstxt's -agent spells it
// ("googlebot-news,googlebot"), each token trimmed of spaces
// (robots.SplitAgents): it obeys the robots.txt groups of all of them
// (robots.Robots.Group) and the meta tags and X-Robots-Tag rules that name
// any of them.
func Decide(url, agent string, s Seen) Decision {
	d := Decision{URL: url, Agent: agent, PageSeen: s.Header != nil || s.Head != nil}
	tokens := robots.SplitAgents(agent)
	var c contributions
	blocked := false
	if s.Robots == nil {
		d.Unseen = append(d.Unseen, "robots.txt was not fetched: fetch is unknown")
	} else {
		rd := s.Robots.Group(tokens...).Decide(url)
		detail := rd.Reason.String()
		if rd.Reason == robots.ReasonRule {
			detail = "line " + strconv.Itoa(rd.Rule.Line) + ": " + rd.Rule.String()
		}
		// The site's own lines count even for a page it disallows
		// (Preferences reads Content-Usage only where fetching is allowed).
		for _, t := range namedTokens(s.Robots, tokens, url) {
			robotsTxtPrefs(&c, s.Robots.Preferences(t, url))
		}
		if rd.Allowed {
			c.add(UseFetch, Allow, SignalRobotsTxt, detail)
		} else {
			c.add(UseFetch, Deny, SignalRobotsTxt, detail)
			blocked = true
			d.PageSeen = false
			d.Unseen = append(d.Unseen, "robots.txt disallows the page, so it is not fetched: its X-Robots-Tag, meta tags, "+
				"TDMRep headers and meta, Content-Usage and Content-Signal headers are not seen")
		}
	}
	// page reports whether the page may have been fetched, so that its
	// signals count.
	page := !blocked
	if page && s.Header == nil {
		d.Unseen = append(d.Unseen, "the page's response headers were not seen")
	}
	if page && s.Head == nil {
		d.Unseen = append(d.Unseen, "the page's head was not read")
	}
	var metaRes, metaPol string
	var ds []Directive
	var cut, more bool // cut: rules were left out (maxDirectives)
	if page {
		xrt, cutXRT := capField("X-Robots-Tag", s.Header.Values("X-Robots-Tag"))
		if cutXRT != "" {
			d.Problems = append(d.Problems, cutXRT)
		}
		for _, v := range xrt {
			ds, more = parseRobotsValue(ds, SignalXRobotsTag, "", v)
			cut = cut || more
		}
		if s.Head != nil {
			d.Problems = append(d.Problems, s.Head.Problems...)
			for _, m := range s.Head.Metas {
				switch m.Name {
				case "tdm-reservation":
					metaRes = m.Content
				case "tdm-policy":
					metaPol = m.Content
				default:
					ds, more = parseRobotsValue(ds, SignalMeta, m.Name, m.Content)
					cut = cut || more
				}
			}
		}
		if cut {
			d.Problems = append(d.Problems, "more than "+strconv.Itoa(maxDirectives)+
				" robots rules in the X-Robots-Tag headers and meta tags: the others are ignored")
		}
		if s.Header != nil {
			headerPrefs(&c, s.Header, &d)
		}
	}
	now := s.Now
	if now.IsZero() {
		now = time.Now()
	}
	lower := make([]string, len(tokens))
	for i, t := range tokens {
		lower[i] = strings.ToLower(robots.ProductToken(t))
	}
	var mine []Directive // the rules for the crawler, each agent of it spelled as its first
	for _, x := range ds {
		if x.Agent == "" || x.Agent == "robots" || slices.Contains(lower, x.Agent) {
			d.Directives = append(d.Directives, x)
			if x.Agent != "" && x.Agent != "robots" {
				x.Agent = lower[0]
			}
			mine = append(mine, x)
		}
	}
	rules := Combine(lower[0], mine)
	robotsRulePrefs(&c, rules, now)
	for _, u := range rules.Unknown {
		d.Problems = append(d.Problems, "unknown rule "+strconvQuote(u.Text)+" ("+u.Signal+") ignored")
	}
	d.Problems = append(d.Problems, rules.Problems...)
	var hRes, hPol string // the header layer, of a page seen only
	if page {
		hRes, hPol = s.Header.Get("Tdm-Reservation"), s.Header.Get("Tdm-Policy")
	}
	tdm := LayerTDM(s.TDMRep, url, hRes, hPol, metaRes, metaPol)
	d.Problems = append(d.Problems, tdm.Problems...)
	switch {
	case tdm.Reservation == 1 && tdm.Policy != "":
		c.add(UseAITrain, Conditional, SignalTDMRep, tdm.Detail+" (licence terms: "+tdm.Policy+")")
	case tdm.Reservation == 1:
		c.add(UseAITrain, Deny, SignalTDMRep, tdm.Detail)
	case tdm.Reservation == 0:
		c.add(UseAITrain, Allow, SignalTDMRep, tdm.Detail)
	}
	for _, u := range AllUses {
		*d.Uses.Get(u) = c.verdict(u)
	}
	return d
}

// namedTokens returns the tokens whose Content-Signal and Content-Usage
// lines apply: those a group of r names, or if none is named, the first
// (whose answers are those of "*").
func namedTokens(r *robots.Robots, tokens []string, url string) []string {
	if len(tokens) == 1 {
		return tokens
	}
	var named []string
	for _, t := range tokens {
		if !r.Decide(t, url).Global {
			named = append(named, t)
		}
	}
	if len(named) == 0 {
		return tokens[:1]
	}
	return named
}

// robotsTxtPrefs adds the Content-Signal and Content-Usage lines of
// robots.txt.
func robotsTxtPrefs(c *contributions, p robots.Preferences) {
	where := func(lines []int) string {
		if len(lines) == 0 {
			return "robots.txt: "
		}
		return "robots.txt line " + strconv.Itoa(lines[0]) + ": "
	}
	signalPrefs(c, where(p.Signals.Lines), p.Signals)
	usagePrefs(c, where(p.Usage.Lines), p.Usage)
}

// headerPrefs adds the Content-Usage and Content-Signal headers.
func headerPrefs(c *contributions, h http.Header, d *Decision) {
	if v := h.Values("Content-Usage"); len(v) > 0 {
		u, problems := contentUsageHeader(v)
		d.Problems = append(d.Problems, problems...)
		usagePrefs(c, "header: ", u)
	}
	if v := h.Values("Content-Signal"); len(v) > 0 {
		s, problems := contentSignalHeader(v)
		d.Problems = append(d.Problems, problems...)
		signalPrefs(c, "header: ", s)
	}
}

// signalPrefs adds the Content-Signal preferences s, read where.
func signalPrefs(c *contributions, where string, s robots.ContentSignals) {
	add := func(pref robots.Preference, key string, uses ...Use) {
		for _, u := range uses {
			if pref != robots.PreferenceUnknown {
				c.add(u, prefAnswer(pref == robots.PreferenceYes), SignalContentSignal, where+key+"="+pref.String())
			}
		}
	}
	add(s.Search, "search", UseIndex, UseSnippet)
	add(s.AIInput, "ai-input", UseAIInput)
	add(s.AITrain, "ai-train", UseAITrain)
}

// usagePrefs adds the Content-Usage preferences u, read where.
func usagePrefs(c *contributions, where string, u robots.ContentUsage) {
	add := func(pref robots.Preference, key string, uses ...Use) {
		for _, use := range uses {
			if pref != robots.PreferenceUnknown {
				c.add(use, prefAnswer(pref == robots.PreferenceYes), SignalContentUsage, where+key+"="+pref.String()[:1])
			}
		}
	}
	add(u.Search, "search", UseIndex, UseSnippet)
	add(u.AIUse, "ai-use", UseAIInput)
	add(u.TrainAI, "train-ai", UseAITrain)
}

// robotsRulePrefs adds the robots meta and X-Robots-Tag rules r.
func robotsRulePrefs(c *contributions, r RobotsRules, now time.Time) {
	by := func(name string) (string, string) { d := r.By[name]; return d.Signal, d.Text }
	if r.NoIndex {
		sig, text := by("noindex")
		if text == "" {
			sig, text = by("none")
		}
		if r.IndexIfEmbedded {
			c.add(UseIndex, Conditional, sig, text+", "+r.By["indexifembedded"].Text+" (only when embedded)")
		} else {
			c.add(UseIndex, Deny, sig, text)
		}
	}
	if !r.UnavailableAfter.IsZero() {
		sig, text := by("unavailable_after")
		if now.After(r.UnavailableAfter) {
			c.add(UseIndex, Deny, sig, text+" (passed)")
		} else {
			c.add(UseIndex, Conditional, sig, text+" (until then)")
		}
	}
	if r.NoSnippet {
		sig, text := by("nosnippet")
		if text == "" {
			sig, text = by("max-snippet")
		}
		c.add(UseSnippet, Deny, sig, text)
		c.add(UseAIInput, Deny, sig, text)
	} else if r.HasMaxSnippet {
		sig, text := by("max-snippet")
		if r.MaxSnippet == -1 {
			c.add(UseSnippet, Allow, sig, text)
		} else {
			// The snippet limits also bound the "direct input for AI
			// Overviews and AI Mode" (Google, since 5 March 2025).
			c.add(UseSnippet, Conditional, sig, text)
			c.add(UseAIInput, Conditional, sig, text)
		}
	}
	// Bing: "If content has both NOCACHE and NOARCHIVE tags, we will treat
	// it as NOCACHE" (the one place the less restrictive rule wins).
	if r.NoArchive && !r.NoCache {
		sig, text := by("noarchive")
		c.add(UseAIInput, Deny, sig, text)
		c.add(UseAITrain, Deny, sig, text)
	}
	if r.NoCache {
		sig, text := by("nocache")
		c.add(UseAIInput, Conditional, sig, text+" (URL, title and snippet only)")
		c.add(UseAITrain, Conditional, sig, text+" (URL, title and snippet only)")
	}
	for _, name := range []string{"noai", "noml"} {
		if sig, text := by(name); text != "" {
			c.add(UseAITrain, Deny, sig, text)
		}
	}
	if r.NoImageAI {
		sig, text := by("noimageai")
		c.add(UseAITrain, Conditional, sig, text+" (images excluded)")
	}
}

// prefAnswer maps a yes or no preference to allow or deny.
func prefAnswer(yes bool) Answer {
	if yes {
		return Allow
	}
	return Deny
}

// contributions collect what each signal says about each use.
type contributions struct {
	list []contribution
}

type contribution struct {
	use    Use
	answer Answer
	reason Reason
}

func (c *contributions) add(u Use, a Answer, signal, detail string) {
	c.list = append(c.list, contribution{u, a, Reason{Signal: signal, Detail: detail}})
}

// verdict returns the most restrictive answer given for u and every
// reason that gave it, in the order added.
func (c *contributions) verdict(u Use) Verdict {
	v := Verdict{Answer: Unknown, By: []Reason{}}
	for _, x := range c.list {
		if x.use != u {
			continue
		}
		switch {
		case x.answer.rank() > v.Answer.rank():
			v.Answer, v.By = x.answer, []Reason{x.reason}
		case x.answer == v.Answer:
			v.By = append(v.By, x.reason)
		}
	}
	return v
}

// strconvQuote quotes s for a report.
func strconvQuote(s string) string { return strconv.Quote(truncate(s, 80)) }
