package robots

// AI use: what a file says about the use of content once fetched
// (Robots.Preferences); who fetches it for what is package lint's table
// (lint.KnownCrawlers).

import (
	"slices"

	"github.com/gorep/robots/internal/sfv"
	"github.com/gorep/robots/internal/values"
)

// A Preference is what a file states about one use of content.
type Preference uint8

const (
	// PreferenceUnknown: the file states nothing valid about the use.
	PreferenceUnknown Preference = iota
	// PreferenceYes: the file allows the use ("yes" or the token "y").
	PreferenceYes
	// PreferenceNo: the file disallows the use ("no" or the token "n").
	PreferenceNo
)

var preferenceNames = [...]string{PreferenceUnknown: "unknown", PreferenceYes: "yes", PreferenceNo: "no"}

// String returns "unknown", "yes" or "no".
func (p Preference) String() string { return enumName(preferenceNames[:], p, "preference") }

// MarshalText encodes p as its name, such as "no".
func (p Preference) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// A UsageValue is one entry of a Content-Signal or Content-Usage line that
// is not one of the known categories, kept as written.
type UsageValue struct {
	Key   string `json:"key"`
	Value string `json:"value"` // as written; "" for a key without value
	Line  int    `json:"line"`
}

// ContentSignals are the Content-Signal values of the groups that apply to
// a crawler. Several lines combine: any "no" wins.
type ContentSignals struct {
	Search  Preference `json:"search"`   // building a search index and showing links and short excerpts
	AIInput Preference `json:"ai-input"` // input to AI models at answer time (grounding, retrieval)
	AITrain Preference `json:"ai-train"` // training or fine-tuning AI models
	// Other holds the other keys, such as "use", and the known keys whose
	// value is neither "yes" nor "no", as written.
	Other []UsageValue `json:"other,omitempty"`
	// Lines are the Content-Signal lines read, in file order.
	Lines []int `json:"lines,omitempty"`
}

// ContentUsage is the usage preference of the Content-Usage rules that
// apply to a URL, in the categories of draft-ietf-aipref-vocab-08.
type ContentUsage struct {
	TrainAI Preference `json:"train-ai"` // training generative AI models
	AIUse   Preference `json:"ai-use"`   // input to a generative AI model, not provided by its user (vocab-08)
	Search  Preference `json:"search"`   // search applications that link to the content
	// Other holds the other keys of the rules that apply, and the known
	// keys whose value is not the token y or n, as written.
	Other []UsageValue `json:"other,omitempty"`
	// Lines are the lines of the rules that apply, in file order.
	Lines []int `json:"lines,omitempty"`
}

// Preferences are what a file states for one crawler and URL.
type Preferences struct {
	Allowed bool           `json:"allowed"`        // as Allowed answers; Usage is empty when false
	Signals ContentSignals `json:"content_signal"` // of the crawler's groups
	Usage   ContentUsage   `json:"content_usage"`  // for the URL
}

// Preferences returns the usage preferences that the file states for agent
// and url, in the groups that apply to agent as for Allowed: its
// Content-Signal lines, each read as ParseContentSignal reads one, and its
// Content-Usage rules, each an optional path pattern, whitespace, then a
// dictionary read as ParseContentUsage reads one ("Content-Usage: /ai-ok/
// train-ai=y"). The rules with the longest path that matches url (as Allow
// and Disallow; no path matches with length 0) apply, and only to a url that
// may be fetched. Where lines conflict, "no" wins. Unknown keys and values
// are kept in Other; lint.Check reports them. Unlike Allowed, it allocates.
func (r *Robots) Preferences(agent, url string) Preferences {
	p := Preferences{Allowed: r.Allowed(agent, url)}
	p.Signals = contentSignals(r.GroupExtras(agent, values.KeyContentSignal))
	if p.Allowed {
		p.Usage = contentUsage(r.GroupExtras(agent, values.KeyContentUsage), url)
	}
	return p
}

// combineKnown combines a known pref into *prefs[i] if key is keys[i], and
// reports whether it did: the greatest wins, "no" (draft-ietf-aipref-vocab).
func combineKnown(key string, pref Preference, keys []string, prefs ...*Preference) bool {
	i := slices.Index(keys, key)
	if i < 0 || pref == PreferenceUnknown {
		return false
	}
	*prefs[i] = max(*prefs[i], pref)
	return true
}

// ParseContentSignal reads a Content-Signal value (contentsignals.org) of a
// line or a header: "search=yes, ai-train=no", any case; "no" wins. Line 0.
func ParseContentSignal(value string) ContentSignals {
	return contentSignals([]Extra{{Value: value}})
}

// ParseContentUsage reads a Content-Usage dictionary (RFC 9651, aipref-vocab
// train-ai, ai-use, search = y or n; the last of a key counts) of a header
// or a rule after its path; one that does not parse, nothing, and the error.
func ParseContentUsage(value string) (cu ContentUsage, err error) {
	dict, err := sfv.ParseDictionary(value)
	cu.add(dict, 0)
	return cu, err
}

func contentSignals(lines []Extra) ContentSignals {
	var s ContentSignals
	for _, e := range lines {
		s.Lines = append(s.Lines, e.Line)
		for _, f := range values.SignalFields(e.Value) {
			pref := Preference(values.SignalPref(f.Value))
			if !combineKnown(f.Key, pref, values.SignalKeys, &s.Search, &s.AIInput, &s.AITrain) {
				s.Other = append(s.Other, UsageValue{Key: f.Key, Value: f.Value, Line: e.Line})
			}
		}
	}
	return s
}

// contentUsage returns the preference of the Content-Usage rules lines for
// url: those with the longest matching path, combined.
func contentUsage(lines []Extra, url string) ContentUsage {
	var cu ContentUsage
	priority := map[string]int{"": 0} // of each path, for url
	best := 0
	for _, e := range lines {
		path, dict, _ := values.UsageLine(e.Value)
		if _, ok := priority[path]; !ok {
			priority[path] = usagePriority(path, url)
		}
		switch p := priority[path]; {
		case p < best:
			continue
		case p > best:
			cu, best = ContentUsage{}, p // a longer path: the rules read so far do not apply
		}
		cu.Lines = append(cu.Lines, e.Line)
		cu.add(dict, e.Line)
	}
	return cu
}

// add combines the members of dict, of a rule on line, into cu.
func (cu *ContentUsage) add(dict []sfv.Member, line int) {
	for _, m := range sfv.LastValues(dict) {
		if !combineKnown(m.Key, Preference(values.UsagePref(m)), values.UsageKeys, &cu.TrainAI, &cu.AIUse, &cu.Search) {
			cu.Other = append(cu.Other, UsageValue{Key: m.Key, Value: m.Raw, Line: line})
		}
	}
}

// usagePriority returns the length of path if it matches url, else -1:
// matched exactly as Allow and Disallow, as the only rule of a file.
func usagePriority(path, url string) int {
	if d := Parse([]byte("User-agent: a\nDisallow: "+path+"\n")).Decide("a", url); d.Reason == ReasonRule {
		return len(d.Rule.Pattern)
	}
	return -1
}
