package signals

// The Content-Usage and Content-Signal response headers, read by the
// parsers robots.txt's lines are read with (robots.ParseContentUsage,
// robots.ParseContentSignal), into the same types.
//
// Content-Usage (draft-ietf-aipref-attach-05, 18 August 2026, section 2)
// is an RFC 9651 Dictionary in the vocabulary of
// draft-ietf-aipref-vocab-08 (14 September 2026): train-ai, ai-use and
// search, each the token y or n. Content-Signal is Cloudflare's Content
// Signals Policy (contentsignals.org; draft-romm-aipref-contentsignals-00,
// 1 October 2025) sent as a header: "search=yes, ai-input=yes,
// ai-train=no". Several header lines are one field, joined by commas (RFC
// 9110, section 5.3), read up to maxFieldBytes and maxFieldMembers.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gorep/robots"
)

// maxFieldProblems bounds the problems listed for one field; the rest are
// counted in one last problem, so that a header of a thousand unknown keys
// costs no more than its bytes.
const maxFieldProblems = 20

// headerText returns the field of the lines values, joined and cut to the
// bounds, with the problems of the cuts.
func headerText(name string, values []string) (string, []string) {
	values, cut := capField(name, values)
	text, cutMembers := capMembers(name, strings.Join(values, ", "))
	var problems []string
	for _, p := range []string{cut, cutMembers} {
		if p != "" {
			problems = append(problems, p)
		}
	}
	return text, problems
}

// contentUsageHeader reads the Content-Usage field of the lines values.
func contentUsageHeader(values []string) (robots.ContentUsage, []string) {
	text, problems := headerText("Content-Usage", values)
	cu, err := robots.ParseContentUsage(text)
	if err != nil {
		return robots.ContentUsage{}, append(problems, "Content-Usage is not a structured-field dictionary ("+err.Error()+"): every category is unknown")
	}
	return cu, otherProblems(problems, "Content-Usage", cu.Other, func(o robots.UsageValue) string {
		if !slices.Contains(usageKeys, o.Key) {
			return "unknown category " + truncate(o.Key, 40) + " ignored"
		}
		return truncate(o.Key, 40) + "=" + truncate(o.Value, 40) + " is not the token y or n: unknown"
	})
}

// contentSignalHeader reads the Content-Signal field of the lines values.
func contentSignalHeader(values []string) (robots.ContentSignals, []string) {
	text, problems := headerText("Content-Signal", values)
	cs := robots.ParseContentSignal(text)
	return cs, otherProblems(problems, "Content-Signal", cs.Other, func(o robots.UsageValue) string {
		if !slices.Contains(signalKeys, o.Key) {
			return "unknown key " + truncate(o.Key, 40) + " ignored"
		}
		f := o.Key
		if o.Value != "" {
			f += "=" + o.Value
		}
		return truncate(f, 60) + " is not yes or no: unknown"
	})
}

// usageKeys and signalKeys are the categories of draft-ietf-aipref-vocab-08
// and of the Content Signals Policy.
var (
	usageKeys  = []string{"train-ai", "ai-use", "search"}
	signalKeys = []string{"search", "ai-input", "ai-train"}
)

// otherProblems appends to problems what says of each of other, up to
// maxFieldProblems in all, and counts the rest.
func otherProblems(problems []string, name string, other []robots.UsageValue, says func(robots.UsageValue) string) []string {
	over := 0
	for _, o := range other {
		if len(problems) < maxFieldProblems {
			problems = append(problems, name+": "+says(o))
		} else {
			over++
		}
	}
	if over > 0 {
		problems = append(problems, name+": "+strconv.Itoa(over)+" more problems not listed")
	}
	return problems
}
