package robots

// AI-usage preferences: what a file says about the use of content once
// fetched, as opposed to whether it may be fetched.
//
// Two vocabularies live inside robots.txt groups, and Preferences reads both:
//
//   - Content-Signal, from Cloudflare's Content Signals Policy
//     (contentsignals.org) and draft-romm-aipref-contentsignals-00
//     (October 2025; its abstract and the policy text were read):
//     "Content-Signal: search=yes, ai-input=yes, ai-train=no", keys search,
//     ai-input and ai-train, values yes and no, scoped to the group the
//     line stands in, as crawler-commons scopes it.
//   - Content-Usage, from the IETF AI Preferences working group:
//     draft-ietf-aipref-attach-05 (18 August 2026) with the vocabulary of
//     draft-ietf-aipref-vocab-08 (14 September 2026). A rule is an
//     optional path pattern, whitespace, then an RFC 9651 dictionary of
//     categories with the tokens y and n: "Content-Usage: /ai-ok/
//     train-ai=y". The categories of -08 are train-ai (AI Training),
//     ai-use (AI Use: input to a generative AI model, new in -08) and
//     search; -08 also says search, where allowed, overrides the other two
//     for use inside a search application (a caller's policy, not an
//     answer this package changes). Earlier drafts had other categories
//     (bots, train-genai), which are kept as unknown keys. The rule that
//     applies is the one with the longest matching path, matched as Allow
//     and Disallow are; rules of equal length all apply, and where they
//     conflict "n" wins (unlike Allow, which wins ties). A rule without a
//     path ("Content-Usage: train-ai=n") matches every path with the
//     lowest priority, length 0. Rules apply only to paths the group may
//     crawl.
//
// In the dictionary, a key given twice keeps its last value; a value that
// is not the token y or n, and a dictionary that does not parse, leave the
// category unknown, as the vocabulary draft says. Unknown keys and values
// are kept in Other. Check reports all of these.
//
// Purpose tokens (draft-kelley-aipref-training-preference-signal) need no
// new grammar: a group keyed by a policy token is queried like any agent,
// with Allowed or Preferences.
//
// None of this changes what Allowed answers.

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

// combine returns the preference that results from two statements about
// the same use: any "no" wins, then any "yes" (draft-ietf-aipref-vocab,
// "Combining Preferences").
func (p Preference) combine(q Preference) Preference {
	if p == PreferenceNo || q == PreferenceNo {
		return PreferenceNo
	}
	if p == PreferenceYes || q == PreferenceYes {
		return PreferenceYes
	}
	return PreferenceUnknown
}

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

// Preferences are the usage preferences a file states for one crawler and
// URL.
type Preferences struct {
	// Allowed reports whether the crawler may fetch the URL, as Allowed
	// answers. Content-Usage applies only to URLs that may be fetched.
	Allowed bool `json:"allowed"`
	// Signals are the Content-Signal values of the crawler's groups.
	Signals ContentSignals `json:"content_signal"`
	// Usage is the Content-Usage preference for the URL.
	Usage ContentUsage `json:"content_usage"`
}

// Keys of the usage preference lines.
const (
	keyContentSignal = "content-signal"
	keyContentUsage  = "content-usage"
)

// Preferences returns the usage preferences that the file states for the
// crawler agent and url, read as Allowed reads them: the Content-Signal
// lines of the groups that apply to agent (those naming it, or else those
// naming "*"), and the Content-Usage rules of those groups that apply to
// url. It does not change what Allowed answers. Unlike Allowed, it
// allocates.
func (r *Robots) Preferences(agent, url string) Preferences {
	p := Preferences{Allowed: r.Allowed(agent, url)}
	p.Signals = contentSignals(r.GroupExtras(agent, keyContentSignal))
	if p.Allowed {
		p.Usage = contentUsage(r.GroupExtras(agent, keyContentUsage), url)
	}
	return p
}

// contentSignals combines the Content-Signal lines lines.
func contentSignals(lines []Extra) ContentSignals {
	var s ContentSignals
	for _, e := range lines {
		s.Lines = append(s.Lines, e.Line)
		for _, f := range parseContentSignal(e.Value) {
			switch {
			case f.ok && f.key == "search":
				s.Search = s.Search.combine(f.pref)
			case f.ok && f.key == "ai-input":
				s.AIInput = s.AIInput.combine(f.pref)
			case f.ok && f.key == "ai-train":
				s.AITrain = s.AITrain.combine(f.pref)
			default:
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
	// ok reports whether the field is "key=yes" or "key=no".
	ok bool
}

// parseContentSignal splits the value of a Content-Signal line into its
// fields:
//
//	content-signal = field *( "," field )
//	field          = OWS key "=" value OWS   ; value "yes" or "no", any case
//
// A field that is not "key=yes" or "key=no" is kept with ok false and an
// unknown preference; empty fields are skipped.
func parseContentSignal(v string) []signalField {
	var out []signalField
	for f := range strings.SplitSeq(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		key, value, _ := strings.Cut(f, "=")
		sf := signalField{key: strings.ToLower(strings.TrimSpace(key)), value: strings.TrimSpace(value)}
		switch strings.ToLower(sf.value) {
		case "yes":
			sf.pref, sf.ok = PreferenceYes, true
		case "no":
			sf.pref, sf.ok = PreferenceNo, true
		}
		out = append(out, sf)
	}
	return out
}

// memberPreference returns the preference a Content-Usage member states:
// the token y or n, or else unknown.
func memberPreference(m sfv.Member) Preference {
	switch m.YesNo() {
	case 'y':
		return PreferenceYes
	case 'n':
		return PreferenceNo
	}
	return PreferenceUnknown
}

// A usageRule is a parsed Content-Usage line.
type usageRule struct {
	path string       // the path pattern, which starts with "/"; "" when the line has none
	dict []sfv.Member // as written; nil if the dictionary did not parse
	err  error        // why the dictionary did not parse
	line int
}

// parseContentUsage reads the value of a Content-Usage line
// (draft-ietf-aipref-attach-05, section 3):
//
//	content-usage = [ path-pattern 1*WS ] usage-pref
//
// The path, when there is one, starts with "/" and ends at the first space
// or tab; a value that starts with another character has no path.
func parseContentUsage(v string, line int) usageRule {
	u := usageRule{line: line}
	pref := v
	if strings.HasPrefix(v, "/") {
		u.path, pref = v, ""
		if i := strings.IndexAny(v, " \t"); i >= 0 {
			u.path, pref = v[:i], strings.TrimLeft(v[i:], " \t")
		}
	}
	u.dict, u.err = sfv.ParseDictionary(pref)
	return u
}

// contentUsage returns the preference of the Content-Usage rules lines for
// url: those with the longest matching path, combined.
func contentUsage(lines []Extra, url string) ContentUsage {
	var cu ContentUsage
	if len(lines) == 0 {
		return cu
	}
	rules := make([]usageRule, len(lines))
	for i, e := range lines {
		rules[i] = parseContentUsage(e.Value, e.Line)
	}
	matched := matchUsagePaths(rules, url)
	best := slices.Max(matched) // -1 if none matches
	if best < 0 {
		return cu
	}
	for i, u := range rules {
		if matched[i] != best {
			continue
		}
		cu.Lines = append(cu.Lines, u.line)
		for _, m := range sfv.LastValues(u.dict) {
			pref := memberPreference(m)
			switch {
			case pref == PreferenceUnknown:
				cu.Other = append(cu.Other, UsageValue{Key: m.Key, Value: m.Raw, Line: u.line})
			case m.Key == "train-ai":
				cu.TrainAI = cu.TrainAI.combine(pref)
			case m.Key == "ai-use":
				cu.AIUse = cu.AIUse.combine(pref)
			case m.Key == "search":
				cu.Search = cu.Search.combine(pref)
			default:
				cu.Other = append(cu.Other, UsageValue{Key: m.Key, Value: m.Raw, Line: u.line})
			}
		}
	}
	return cu
}

// matchUsagePaths returns, for each rule, the priority of its path if it
// matches url (its length, as for Allow and Disallow; 0 for a rule without
// a path, which matches every URL), or -1. Rules with the same path have
// the same priority: each path is matched once.
func matchUsagePaths(rules []usageRule, url string) []int {
	index := make(map[string]int) // of each path in paths
	var paths []string
	for _, u := range rules {
		if _, ok := index[u.path]; !ok && u.path != "" {
			index[u.path] = len(paths)
			paths = append(paths, u.path)
		}
	}
	priority := matchPaths(paths, url)
	out := make([]int, len(rules))
	for i, u := range rules {
		if u.path != "" {
			out[i] = priority[index[u.path]]
		}
	}
	return out
}

// matchPaths returns, for each path pattern, its priority if it matches
// url, or -1.
//
// The paths are matched by the package's own matcher, so that they match
// exactly as Allow and Disallow patterns do: each becomes the only rule of
// a group of a robots.txt made for the purpose. Such a file holds at most
// MaxSize bytes, like any other, and a group takes more bytes than its
// Content-Usage line (15,001 lines of "content-usage: /a train-ai=y"
// with distinct paths, 435 KB, would make 12,504 groups in MaxSize
// bytes): the paths are matched in as many files as they need, each of at
// most MaxSize bytes. A group takes at most 40 bytes more than its path,
// and a Content-Usage line with a path at least 16 bytes
// ("content-usage:/\n"), so the lines of a file hold paths for at most
// three files of MaxSize bytes.
func matchPaths(paths []string, url string) []int {
	out := make([]int, len(paths))
	for from := 0; from < len(paths); {
		file, n := pathFile(paths, from)
		for i := from; i < from+n; i++ {
			out[i] = -1
			if d := file.Decide(usageAgent(i), url); d.Reason == ReasonRule {
				out[i] = len(d.Rule.Pattern)
			}
		}
		from += n
	}
	return out
}

// pathFile returns the robots.txt, of at most MaxSize bytes, with a group
// "User-agent: usageAgent(i)" and "Disallow: paths[i]" for each path from
// paths[from], as many as fit, and how many that is (at least one).
func pathFile(paths []string, from int) (*Robots, int) {
	const userAgent, disallow = "User-agent: ", "\nDisallow: "
	var b strings.Builder
	n := 0
	for i, p := range paths[from:] {
		agent := usageAgent(from + i)
		// A path is part of a line of at most maxLineLen bytes, so
		// that one group always fits.
		if n > 0 && b.Len()+len(userAgent)+len(agent)+len(disallow)+len(p)+1 > MaxSize {
			break
		}
		b.WriteString(userAgent + agent + disallow + p + "\n")
		n++
	}
	return Parse([]byte(b.String())), n
}

// usageAgent returns a product token, made of letters only, that names the
// i-th path in matchPaths.
func usageAgent(i int) string {
	b := []byte("contentusage")
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}
