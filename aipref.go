package robots

// AI-usage preferences: what a file says about the use of content once
// fetched (Robots.Preferences).

import (
	"slices"
	"strings"

	"github.com/gorep/robots/internal/sfv"
)

// A Preference is what a file states about one use of content: yes, no, or
// nothing.
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
	// keys whose value is not the token y or n, as written (a key given
	// twice in a line with its last value only).
	Other []UsageValue `json:"other,omitempty"`
	// Lines are the rules that apply: those with the longest matching path,
	// in file order. It is empty when no rule applies.
	Lines []int `json:"lines,omitempty"`
}

// Preferences are what a file states for one crawler and URL.
type Preferences struct {
	// Allowed reports whether the crawler may fetch the URL, as Allowed
	// answers. Content-Usage applies only to URLs that may be fetched.
	Allowed bool `json:"allowed"`
	// Signals are the Content-Signal values of the crawler's groups.
	Signals ContentSignals `json:"content_signal"`
	// Usage is the Content-Usage preference for the URL.
	Usage ContentUsage `json:"content_usage"`
}

const (
	keyContentSignal = "content-signal"
	keyContentUsage  = "content-usage"
)

// Content-Signal and Content-Usage categories, in the order of the fields
// of ContentSignals and ContentUsage.
var (
	signalKeys = []string{"search", "ai-input", "ai-train"}
	usageKeys  = []string{"train-ai", "ai-use", "search"}
)

// Preferences returns the usage preferences that the file states for agent
// and url, in the groups that apply to agent as for Allowed:
//
//   - Content-Signal lines (contentsignals.org,
//     draft-romm-aipref-contentsignals-00), such as "Content-Signal:
//     search=yes, ai-input=yes, ai-train=no", values yes and no in any case.
//   - Content-Usage rules (draft-ietf-aipref-attach-05, vocabulary
//     draft-ietf-aipref-vocab-08): an optional path pattern, whitespace, then
//     an RFC 9651 dictionary of train-ai, ai-use and search with the tokens
//     y and n ("Content-Usage: /ai-ok/ train-ai=y"). The rules with the
//     longest path that matches url apply, matched as Allow and Disallow; a
//     rule without a path matches every path with length 0. Where rules of
//     equal length conflict, "n" wins. Rules apply only to URLs that may be
//     fetched. A key given twice keeps its last value; a value other than y
//     or n, or a dictionary that does not parse, leaves the category unknown.
//
// Unknown keys and values are kept in Other; Check reports them. It does not
// change what Allowed answers. Unlike Allowed, it allocates.
func (r *Robots) Preferences(agent, url string) Preferences {
	p := Preferences{Allowed: r.Allowed(agent, url)}
	p.Signals = contentSignals(r.GroupExtras(agent, keyContentSignal))
	if p.Allowed {
		p.Usage = contentUsage(r.GroupExtras(agent, keyContentUsage), url)
	}
	return p
}

// combineKnown combines pref into *prefs[i] if key is keys[i] and pref is
// known, and reports whether it did. Any "no" wins, then any "yes"
// (draft-ietf-aipref-vocab, "Combining Preferences"): the greatest.
func combineKnown(key string, pref Preference, keys []string, prefs ...*Preference) bool {
	i := slices.Index(keys, key)
	if i < 0 || pref == PreferenceUnknown {
		return false
	}
	*prefs[i] = max(*prefs[i], pref)
	return true
}

func contentSignals(lines []Extra) ContentSignals {
	var s ContentSignals
	for _, e := range lines {
		s.Lines = append(s.Lines, e.Line)
		for _, f := range parseContentSignal(e.Value) {
			if !combineKnown(f.key, f.pref, signalKeys, &s.Search, &s.AIInput, &s.AITrain) {
				s.Other = append(s.Other, UsageValue{Key: f.key, Value: f.value, Line: e.Line})
			}
		}
	}
	return s
}

// A signalField is one "key=value" of a Content-Signal line.
type signalField struct {
	key   string // lower-cased
	value string // as written
	pref  Preference
}

// parseContentSignal splits the value of a Content-Signal line into its
// fields, skipping empty ones:
//
//	content-signal = field *( "," field )
//	field          = OWS key "=" value OWS   ; value "yes" or "no", any case
func parseContentSignal(v string) []signalField {
	var out []signalField
	for f := range strings.SplitSeq(v, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		key, value, _ := strings.Cut(f, "=")
		value = strings.TrimSpace(value)
		pref := max(0, slices.Index(preferenceNames[:], strings.ToLower(value))) // "yes", "no", or unknown
		out = append(out, signalField{strings.ToLower(strings.TrimSpace(key)), value, Preference(pref)})
	}
	return out
}

// yesNo are the preferences of the tokens y and n (sfv.Member.YesNo).
var yesNo = map[byte]Preference{'y': PreferenceYes, 'n': PreferenceNo}

// A usageRule is a parsed Content-Usage line.
type usageRule struct {
	path string       // starts with "/"; "" when the line has none
	dict []sfv.Member // nil if the dictionary did not parse
	err  error        // why the dictionary did not parse
	line int
}

// parseContentUsage reads the value of a Content-Usage line
// (draft-ietf-aipref-attach-05, section 3):
//
//	content-usage = [ path-pattern 1*WS ] usage-pref
//
// A path starts with "/" and ends at the first space or tab.
func parseContentUsage(v string, line int) usageRule {
	u := usageRule{line: line}
	pref := v
	if strings.HasPrefix(v, "/") {
		u.path, pref = cutSpace(v)
	}
	u.dict, u.err = sfv.ParseDictionary(pref)
	return u
}

// contentUsage returns the preference of the Content-Usage rules lines for
// url: those with the longest matching path, combined.
func contentUsage(lines []Extra, url string) ContentUsage {
	var cu ContentUsage
	rules := make([]usageRule, len(lines))
	priority := map[string]int{"": 0} // of each path, for url
	best := -1
	for i, e := range lines {
		u := parseContentUsage(e.Value, e.Line)
		if _, ok := priority[u.path]; !ok {
			priority[u.path] = usagePriority(u.path, url)
		}
		rules[i] = u
		best = max(best, priority[u.path])
	}
	for _, u := range rules {
		if best < 0 || priority[u.path] != best {
			continue
		}
		cu.Lines = append(cu.Lines, u.line)
		for _, m := range sfv.LastValues(u.dict) {
			if !combineKnown(m.Key, yesNo[m.YesNo()], usageKeys, &cu.TrainAI, &cu.AIUse, &cu.Search) {
				cu.Other = append(cu.Other, UsageValue{Key: m.Key, Value: m.Raw, Line: u.line})
			}
		}
	}
	return cu
}

// usagePriority returns the length of path if it matches url, else -1:
// matched exactly as Allow and Disallow, as the only rule of a file.
func usagePriority(path, url string) int {
	if d := Parse([]byte("User-agent: a\nDisallow: "+path+"\n")).Decide("a", url); d.Reason == ReasonRule {
		return len(d.Rule.Pattern)
	}
	return -1
}
