package signals

// The Content-Usage and Content-Signal response headers.
//
// Content-Usage (draft-ietf-aipref-attach-05, 18 August 2026, section 2)
// is an RFC 9651 Dictionary in the vocabulary of
// draft-ietf-aipref-vocab-08 (14 September 2026): train-ai, ai-use and
// search, each the token y or n. A key given twice keeps its last value; a
// value that is not the token y or n leaves the category unknown; a
// dictionary that does not parse leaves every category unknown (vocab-08,
// "Processing Algorithm"). Several header lines are one field, joined by
// commas (RFC 9110, section 5.3).
//
// Content-Signal is Cloudflare's Content Signals Policy (contentsignals.org;
// draft-romm-aipref-contentsignals-00, 1 October 2025) sent as a header:
// "search=yes, ai-input=yes, ai-train=no", values yes or no. It is not a
// structured field; it is read as the robots.txt line is.

import (
	"strconv"
	"strings"

	"github.com/gorep/robots/internal/sfv"
)

// A Pref is a stated preference about one use: 'y', 'n' or 0 (unknown).
type Pref = byte

// UsagePrefs are the preferences of one Content-Usage or Content-Signal
// field, keyed by category ("train-ai", "ai-use", "search" or "ai-input",
// "ai-train", "search"), with the field's text for reports.
type UsagePrefs struct {
	Prefs map[string]Pref
	// Text is the field as received (joined lines), cut to 200 bytes.
	Text string
	// Problems say what made a category unknown.
	Problems []string
}

// maxFieldProblems bounds the problems kept for one field; the rest are
// counted in one last problem, so that a header of a million unknown keys
// costs no more than its bytes.
const maxFieldProblems = 20

// problem records a problem of the field name, up to maxFieldProblems;
// over counts the others.
func (u *UsagePrefs) problem(over *int, msg string) {
	if len(u.Problems) < maxFieldProblems {
		u.Problems = append(u.Problems, msg)
	} else {
		*over++
	}
}

// counted appends the count of the problems over maxFieldProblems, if any.
func (u *UsagePrefs) counted(name string, over int) {
	if over > 0 {
		u.Problems = append(u.Problems, name+": "+strconv.Itoa(over)+" more problems not listed")
	}
}

// usageCategories are the categories of draft-ietf-aipref-vocab-08.
var usageCategories = []string{"train-ai", "ai-use", "search"}

// signalCategories are the categories of the Content Signals Policy.
var signalCategories = []string{"search", "ai-input", "ai-train"}

// ParseContentUsage reads the Content-Usage field values, up to 8 KiB and
// 64 members in all; a problem says what was left out.
func ParseContentUsage(values []string) UsagePrefs {
	values, cut := capField("Content-Usage", values)
	text := strings.Join(values, ", ")
	u := UsagePrefs{Prefs: map[string]Pref{}, Text: truncate(text, 200)}
	if cut != "" {
		u.Problems = append(u.Problems, cut)
	}
	if len(values) == 0 {
		return u
	}
	members, err := sfv.ParseDictionary(text)
	if err != nil {
		u.Problems = append(u.Problems, "Content-Usage is not a structured-field dictionary ("+err.Error()+"): every category is unknown")
		return u
	}
	if p := membersOver("Content-Usage", len(members)); p != "" {
		u.Problems, members = append(u.Problems, p), members[:maxFieldMembers]
	}
	over := 0
	for _, m := range sfv.LastValues(members) {
		known := false
		for _, c := range usageCategories {
			known = known || c == m.Key
		}
		switch yn := m.YesNo(); {
		case !known:
			u.problem(&over, "Content-Usage: unknown category "+truncate(m.Key, 40)+" ignored")
		case yn == 0:
			u.problem(&over, "Content-Usage: "+truncate(m.Key, 40)+"="+truncate(m.Raw, 40)+" is not the token y or n: unknown")
		default:
			u.Prefs[m.Key] = yn
		}
	}
	u.counted("Content-Usage", over)
	return u
}

// ParseContentSignal reads the Content-Signal field values: comma-separated
// key=value pairs, keys and values case-insensitive, up to 8 KiB and 64
// members in all. Where a key is given twice, "no" wins, as where several
// robots.txt lines apply.
func ParseContentSignal(values []string) UsagePrefs {
	values, cut := capField("Content-Signal", values)
	text := strings.Join(values, ", ")
	u := UsagePrefs{Prefs: map[string]Pref{}, Text: truncate(text, 200)}
	if cut != "" {
		u.Problems = append(u.Problems, cut)
	}
	over, members := 0, 0
	for rest, more := text, true; more; {
		var f string
		f, rest, more = strings.Cut(rest, ",")
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		if members++; members > maxFieldMembers {
			u.Problems = append(u.Problems, membersOver("Content-Signal", members+strings.Count(rest, ",")))
			break
		}
		k, v, _ := strings.Cut(f, "=")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.ToLower(strings.TrimSpace(v))
		known := false
		for _, c := range signalCategories {
			known = known || c == k
		}
		switch {
		case !known:
			u.problem(&over, "Content-Signal: unknown key "+truncate(k, 40)+" ignored")
		case v == "yes" && u.Prefs[k] != 'n':
			u.Prefs[k] = 'y'
		case v == "no":
			u.Prefs[k] = 'n'
		case v != "yes":
			u.problem(&over, "Content-Signal: "+truncate(f, 60)+" is not yes or no: unknown")
		}
	}
	u.counted("Content-Signal", over)
	return u
}
