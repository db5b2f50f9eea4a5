package signals

// Robots meta tags and X-Robots-Tag headers, as Google documents them
// ("Robots meta tag, data-nosnippet, and X-Robots-Tag specifications",
// developers.google.com/search/reference/robots_meta_tag) with Bing's
// noarchive and nocache and the noai, noimageai and noml extensions.
//
// A value is a comma-separated list of rules, case-insensitive. In a
// header, a rule may be preceded by a user agent and a colon
// ("googlebot: noindex"); the agent then applies to that rule and the
// rules after it in the same header value, until another agent. In HTML
// the agent is the meta tag's name ("robots" for every crawler).

import (
	"strconv"
	"strings"
	"time"
)

// A Directive is one rule of a robots meta tag or X-Robots-Tag header.
type Directive struct {
	// Signal is SignalXRobotsTag or SignalMeta.
	Signal string `json:"signal"`
	// Agent is the lower-cased user agent the rule is scoped to, "" for
	// every crawler: a header rule without one, or <meta name="robots">.
	Agent string `json:"agent,omitempty"`
	// Name is the lower-cased rule name, such as "noindex" or
	// "max-snippet".
	Name string `json:"name"`
	// Value is what follows the colon of a rule with a value, trimmed.
	Value string `json:"value,omitempty"`
	// Text is the rule as written, with its agent: "evalbot: noindex".
	Text string `json:"text"`
	// Known reports whether the rule is in the vocabulary; unknown rules
	// are kept and reported, never applied.
	Known bool `json:"known"`
}

// ruleNames is the vocabulary. The value says whether the rule takes a
// value after a colon.
var ruleNames = map[string]bool{
	"all": false, "none": false, "noindex": false, "nofollow": false,
	"nosnippet": false, "indexifembedded": false, "notranslate": false,
	"noimageindex": false, "noarchive": false, "nocache": false,
	"noai": false, "noimageai": false, "noml": false,
	"index": false, "follow": false, // the defaults, written out by many sites
	"max-snippet": true, "max-image-preview": true, "max-video-preview": true,
	"unavailable_after": true,
}

// maxDirectives bounds the rules read from one value, and from all of a
// page's X-Robots-Tag headers and meta tags (Decide): a header of a
// million rules costs no more than its bytes.
const maxDirectives = 1000

// ParseRobotsValue parses one robots meta tag content or X-Robots-Tag
// header value, of which it reads the first 1,000 rules. signal is
// SignalMeta or SignalXRobotsTag; agent is the meta tag's name ("" for
// "robots") and is ignored for a header, whose agents are written in the
// value.
func ParseRobotsValue(signal, agent, value string) []Directive {
	out, _ := parseRobotsValue(nil, signal, agent, value)
	return out
}

// parseRobotsValue is ParseRobotsValue, appending to out up to
// maxDirectives rules in all; it reports whether rules were left out.
func parseRobotsValue(out []Directive, signal, agent, value string) ([]Directive, bool) {
	agent = strings.ToLower(strings.TrimSpace(agent))
	if signal == SignalMeta && agent == "robots" {
		agent = "" // <meta name="robots">: every crawler, as Directive.Agent says
	}
	start := len(out)
	for rest, more := value, true; more; {
		var piece string
		piece, rest, more = strings.Cut(rest, ",")
		text := strings.TrimSpace(piece)
		if text == "" {
			continue
		}
		if n := len(out); n > start && out[n-1].Name == "unavailable_after" && isWeekday(out[n-1].Value) {
			// The comma after the weekday of an RFC 850 or RFC 822 date
			// ("unavailable_after: Sunday, 06-Nov-94 08:49:37 GMT").
			out[n-1].Value += ", " + text
			out[n-1].Text += ", " + text
			continue
		}
		name, val, hasColon := strings.Cut(text, ":")
		name = strings.ToLower(strings.TrimSpace(name))
		val = strings.TrimSpace(val)
		if signal == SignalXRobotsTag && hasColon {
			if takes, known := ruleNames[name]; !known || !takes {
				// "googlebot: noindex": an agent, then the rule.
				agent = name
				text = strings.TrimSpace(val)
				name, val, _ = strings.Cut(text, ":")
				name = strings.ToLower(strings.TrimSpace(name))
				val = strings.TrimSpace(val)
				if name == "" {
					continue
				}
			}
		}
		_, known := ruleNames[name]
		d := Directive{Signal: signal, Agent: agent, Name: name, Value: val, Known: known, Text: text}
		if signal == SignalXRobotsTag && agent != "" {
			d.Text = agent + ": " + text
		}
		if len(out) == maxDirectives {
			return out, true
		}
		out = append(out, d)
	}
	return out, false
}

// ImagePreview is the largest image preview allowed, from the most to the
// least restrictive.
type ImagePreview uint8

const (
	ImagePreviewUnset ImagePreview = iota
	ImagePreviewNone
	ImagePreviewStandard
	ImagePreviewLarge
)

// RobotsRules are the combined rules that apply to one crawler. Where
// rules conflict the more restrictive wins, as Google says ("if there are
// conflicting robots rules, the more restrictive rule applies"): a flag
// set by any rule is set, and a limit is the smallest given.
type RobotsRules struct {
	NoIndex, NoFollow, NoSnippet, IndexIfEmbedded, NoTranslate,
	NoImageIndex, NoArchive, NoCache, NoAI, NoImageAI, NoML bool
	// MaxSnippet is the snippet length in characters, -1 for no limit;
	// HasMaxSnippet says whether a rule gave it.
	MaxSnippet    int
	HasMaxSnippet bool
	// MaxVideoPreview is in seconds, -1 for no limit.
	MaxVideoPreview    int
	HasMaxVideoPreview bool
	MaxImagePreview    ImagePreview
	// UnavailableAfter is the earliest valid unavailable_after date; zero
	// if none.
	UnavailableAfter time.Time
	// By holds, for each rule name that set something, the directive that
	// did (the first of equal ones, the most restrictive of limits).
	By map[string]Directive
	// Unknown are the rules outside the vocabulary, kept as written.
	Unknown []Directive
	// Problems are rules in the vocabulary with a bad value, such as a
	// malformed date, each with why; they are ignored.
	Problems []string
}

// Combine returns the rules of ds that apply to the crawler whose product
// token is agent: those without an agent, and those whose agent is the
// token (case-insensitively); for meta tags the name "robots" counts as
// every crawler. Rules for other crawlers are ignored.
func Combine(agent string, ds []Directive) RobotsRules {
	agent = strings.ToLower(agent)
	r := RobotsRules{By: map[string]Directive{}}
	set := func(flag *bool, d Directive) {
		if !*flag {
			*flag = true
			r.By[d.Name] = d
		}
	}
	for _, d := range ds {
		if d.Agent != "" && d.Agent != "robots" && d.Agent != agent {
			continue
		}
		if !d.Known {
			r.Unknown = append(r.Unknown, d)
			continue
		}
		switch d.Name {
		case "none":
			set(&r.NoIndex, d)
			set(&r.NoFollow, d)
		case "noindex":
			set(&r.NoIndex, d)
		case "nofollow":
			set(&r.NoFollow, d)
		case "nosnippet":
			set(&r.NoSnippet, d)
		case "indexifembedded":
			set(&r.IndexIfEmbedded, d)
		case "notranslate":
			set(&r.NoTranslate, d)
		case "noimageindex":
			set(&r.NoImageIndex, d)
		case "noarchive":
			set(&r.NoArchive, d)
		case "nocache":
			set(&r.NoCache, d)
		case "noai":
			set(&r.NoAI, d)
		case "noimageai":
			set(&r.NoImageAI, d)
		case "noml":
			set(&r.NoML, d)
		case "max-snippet", "max-video-preview":
			n, err := strconv.Atoi(d.Value)
			if err != nil || n < -1 {
				r.Problems = append(r.Problems, d.Text+": the value must be a whole number, -1 or more")
				continue
			}
			lim, has := &r.MaxSnippet, &r.HasMaxSnippet
			if d.Name == "max-video-preview" {
				lim, has = &r.MaxVideoPreview, &r.HasMaxVideoPreview
			}
			if !*has || tighter(n, *lim) {
				*lim, *has = n, true
				r.By[d.Name] = d
			}
		case "max-image-preview":
			p := map[string]ImagePreview{"none": ImagePreviewNone, "standard": ImagePreviewStandard, "large": ImagePreviewLarge}[strings.ToLower(d.Value)]
			if p == ImagePreviewUnset {
				r.Problems = append(r.Problems, d.Text+": the value must be none, standard or large")
				continue
			}
			if r.MaxImagePreview == ImagePreviewUnset || p < r.MaxImagePreview {
				r.MaxImagePreview = p
				r.By[d.Name] = d
			}
		case "unavailable_after":
			t, err := ParseDate(d.Value)
			if err != nil {
				r.Problems = append(r.Problems, d.Text+": "+err.Error())
				continue
			}
			if r.UnavailableAfter.IsZero() || t.Before(r.UnavailableAfter) {
				r.UnavailableAfter = t
				r.By[d.Name] = d
			}
		}
	}
	if r.HasMaxSnippet && r.MaxSnippet == 0 {
		// "max-snippet:0 ... equivalent to nosnippet" (Google).
		set(&r.NoSnippet, r.By["max-snippet"])
	}
	return r
}

// tighter reports whether limit n is more restrictive than m, where -1 is
// no limit.
func tighter(n, m int) bool {
	if m == -1 {
		return n != -1
	}
	return n != -1 && n < m
}
