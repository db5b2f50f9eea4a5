package robots

// More diagnostics: usage preference lines (Content-Signal, Content-Usage),
// crawl-delay values a site owner would not mean, spaces inside patterns,
// and user-agent lines that name known crawlers badly.
//
// These checks read the file through the public API of Parse (Records,
// Extras), apart from the line-by-line checker of Check, which calls
// checkMore once. Findings that the checker already makes (a line outside
// any group, a sitemap that is not an absolute http or https URL, a
// user-agent value cut to its token) are not repeated.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gorep/robots/internal/sfv"
)

// The codes of the findings of checkMore, with their severity.
const (
	// CodeUnknownSignal (warning): a Content-Signal key other than search,
	// ai-input, ai-train and the auxiliary "use" of Cloudflare's files, or a Content-Usage category other than
	// train-ai, ai-use and search (draft-ietf-aipref-vocab-08); crawlers ignore it.
	CodeUnknownSignal Code = "unknown-signal"
	// CodeInvalidSignal (warning): a Content-Signal value other than "yes"
	// and "no", or a Content-Usage value that is not the token "y" or "n"
	// ("train-ai=no"), or a Content-Usage line that is not a path and a
	// dictionary: the preference is unknown.
	CodeInvalidSignal Code = "invalid-signal"
	// CodeDuplicateSignal (warning): a signal or category given twice in a
	// group; for Content-Usage, within one line, where the last value
	// counts.
	CodeDuplicateSignal Code = "duplicate-signal"
	// CodeSignalContradictsRules (warning): a Content-Signal that allows a
	// use in a group that disallows the whole site, whose crawlers fetch
	// nothing to use; or a Content-Usage line whose path the group
	// disallows, with nothing under it allowed back: preferences apply only
	// to paths that may be crawled.
	CodeSignalContradictsRules Code = "signal-contradicts-rules"
	// CodeLongCrawlDelay (warning): a crawl-delay of more than a minute,
	// which lets a crawler that obeys it fetch fewer than 1,440 pages a
	// day.
	CodeLongCrawlDelay Code = "long-crawl-delay"
	// CodeDuplicateCrawlDelay (warning): a second crawl-delay line in one
	// group; crawlers read one of them.
	CodeDuplicateCrawlDelay Code = "duplicate-crawl-delay"
	// CodeSpaceInPattern (warning): an allow or disallow pattern holds a
	// space or a tab, which %-encoded URLs never hold: the rule matches
	// nothing past it ("Disallow: /a /b").
	CodeSpaceInPattern Code = "space-in-pattern"
	// CodeCrawlerToken (info): a user-agent value that is not a product
	// token, nor a token and a version ("Googlebot/2.1"), names a known
	// crawler ("Brightbot 1.0"): write its token.
	CodeCrawlerToken Code = "crawler-token"
	// CodeRetiredCrawler (warning): a user-agent line names a token that no
	// crawler sends any more ("anthropic-ai").
	CodeRetiredCrawler Code = "retired-crawler"
)

// maxSensibleDelay is the longest crawl-delay, in seconds, that is not
// reported.
const maxSensibleDelay = 60

// Content-Signal and Content-Usage categories.
var (
	signalKeys = []string{"search", "ai-input", "ai-train"}
	usageKeys  = []string{"train-ai", "ai-use", "search"}
	// oldUsageKeys are categories of earlier vocabulary drafts.
	oldUsageKeys = []string{"bots", "train-genai", "all", "ai-output"}
)

// checkMore returns the findings of this file about r, the file as the
// checker parsed it.
func checkMore(r *Robots) Diagnostics {
	var d Diagnostics
	recs := r.Records()
	d = append(d, checkSignals(r, recs)...)
	d = append(d, checkUsage(r, recs)...)
	d = append(d, checkCrawlDelays(r)...)
	for _, rec := range recs {
		d = append(d, checkRecordMore(rec)...)
	}
	return d
}

// addMore appends a finding to d.
func (d *Diagnostics) addMore(line int, sev Severity, code Code, msg string) {
	*d = append(*d, Diagnostic{Line: line, Severity: sev, Code: code, Message: msg})
}

// checkSignals checks the Content-Signal lines of r.
func checkSignals(r *Robots, recs []Record) Diagnostics {
	var d Diagnostics
	// seen holds, per record, the line of each signal given.
	seen := map[int]map[string]int{}
	for _, e := range r.Extras(keyContentSignal) {
		if e.Record < 0 {
			continue // the checker reports lines outside any group
		}
		fields := parseContentSignal(e.Value)
		if len(fields) == 0 {
			d.addMore(e.Line, SeverityWarning, CodeInvalidSignal, "empty Content-Signal: it states nothing")
		}
		if seen[e.Record] == nil {
			seen[e.Record] = map[string]int{}
		}
		for _, f := range fields {
			d = append(d, checkSignalField(e.Line, f, seen[e.Record])...)
			if f.pref == PreferenceYes && disallowsAll(recs[e.Record]) {
				d.addMore(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Signal "+
					strconv.Quote(f.key+"="+f.value)+" in a group that disallows the whole site: its crawlers fetch nothing, so the signal has no effect")
			}
		}
	}
	return d
}

// checkSignalField checks one field of a Content-Signal line, given the
// lines of the signals seen before in its group.
func checkSignalField(line int, f signalField, seen map[string]int) Diagnostics {
	var d Diagnostics
	if f.key == "use" {
		return d // Cloudflare's managed files add "use=...": kept, not a signal
	}
	if !slices.Contains(signalKeys, f.key) {
		msg := "unknown content signal " + strconv.Quote(f.key) + ": the signals are search, ai-input and ai-train"
		if guess := strings.ReplaceAll(f.key, "_", "-"); slices.Contains(signalKeys, guess) {
			msg = "unknown content signal " + strconv.Quote(f.key) + " (did you mean " + strconv.Quote(guess) + "?)"
		}
		d.addMore(line, SeverityWarning, CodeUnknownSignal, msg)
		return d
	}
	if !f.ok {
		d.addMore(line, SeverityWarning, CodeInvalidSignal, "content signal "+strconv.Quote(f.key)+" has the value "+
			strconv.Quote(f.value)+": only \"yes\" and \"no\" count, so the preference is unknown")
	}
	if prev, ok := seen[f.key]; ok {
		where := "line " + strconv.Itoa(prev)
		if prev == line {
			where = "this line"
		}
		d.addMore(line, SeverityWarning, CodeDuplicateSignal, "content signal "+strconv.Quote(f.key)+
			" is given again (first on "+where+"): where the values differ, \"no\" wins")
	} else {
		seen[f.key] = line
	}
	return d
}

// disallowsAll reports whether the rules of rec disallow every path: it
// has a rule "Disallow: /" (or "/*", "*") and no allow rule.
func disallowsAll(rec Record) bool {
	all := false
	for _, rule := range rec.Rules {
		switch {
		case rule.Allow && rule.Pattern != "":
			return false
		case !rule.Allow && (rule.Pattern == "/" || rule.Pattern == "/*" || rule.Pattern == "*"):
			all = true
		}
	}
	return all
}

// checkUsage checks the Content-Usage lines of r.
func checkUsage(r *Robots, recs []Record) Diagnostics {
	var d Diagnostics
	for _, e := range r.Extras(keyContentUsage) {
		if e.Record < 0 {
			continue
		}
		u := parseContentUsage(e.Value, e.Line)
		if !u.explicit && disallowsAll(recs[e.Record]) {
			d.addMore(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Usage in a group that disallows the whole site: "+
				"preferences apply only to paths that may be crawled, so this line has no effect")
		} else if rule, ok := disallowedUsage(r, recs, e.Record, u.path); ok {
			d.addMore(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Usage for "+strconv.Quote(u.path)+
				" in a group that disallows it ("+ruleString(rule)+"): preferences apply only to paths that may be crawled, so this line has no effect")
		}
		if u.err != nil {
			d.addMore(e.Line, SeverityWarning, CodeInvalidSignal, "Content-Usage value "+strconv.Quote(e.Value)+
				" is not a path and a preference such as \"/ train-ai=n\" ("+u.err.Error()+"): the preference is unknown")
			continue
		}
		seen := map[string]bool{}
		for _, m := range u.dict {
			d = append(d, checkUsageMember(e.Line, m, seen)...)
		}
	}
	return d
}

// disallowedUsage reports whether the path of a Content-Usage line of
// recs[i] is disallowed to the first crawler of that record, with nothing
// under it allowed back, and returns the deciding rule.
func disallowedUsage(r *Robots, recs []Record, i int, path string) (Rule, bool) {
	rec := recs[i]
	prefix := path
	if i := strings.IndexAny(prefix, "*$"); i >= 0 {
		prefix = prefix[:i]
	}
	if len(rec.Agents) == 0 || prefix == "" { // no path: the rule applies to what may be crawled
		return Rule{}, false
	}
	token := rec.Agents[0].Token
	d := r.Decide(token, prefix)
	if d.Allowed || d.Reason != ReasonRule {
		return Rule{}, false
	}
	for _, other := range recs {
		if !namesToken(other, token) {
			continue
		}
		for _, rule := range other.Rules {
			if rule.Allow && (strings.HasPrefix(rule.Pattern, prefix) || strings.Contains(rule.Pattern, "*")) {
				return Rule{}, false // something under the path may be allowed back
			}
		}
	}
	return d.Rule, true
}

// namesToken reports whether rec has a user-agent line with token, compared
// case-insensitively ("*" with "*").
func namesToken(rec Record, token string) bool {
	for _, a := range rec.Agents {
		if strings.EqualFold(a.Token, token) {
			return true
		}
	}
	return false
}

// ruleString writes a rule as written, with its line: "line 3: Disallow: /a".
func ruleString(rule Rule) string {
	kind := "Disallow"
	if rule.Allow {
		kind = "Allow"
	}
	return "line " + strconv.Itoa(rule.Line) + ": " + kind + ": " + rule.Pattern
}

// checkUsageMember checks one member of a Content-Usage dictionary, given
// the keys seen before in the line.
func checkUsageMember(line int, m sfv.Member, seen map[string]bool) Diagnostics {
	var d Diagnostics
	if seen[m.Key] {
		d.addMore(line, SeverityWarning, CodeDuplicateSignal, "category "+strconv.Quote(m.Key)+
			" is given twice: only the last value counts")
	}
	seen[m.Key] = true
	if !slices.Contains(usageKeys, m.Key) {
		msg := "unknown usage category " + strconv.Quote(m.Key) + ": the categories are train-ai, ai-use and search, and crawlers ignore other keys"
		if slices.Contains(oldUsageKeys, m.Key) {
			msg = "usage category " + strconv.Quote(m.Key) + " is not in draft-ietf-aipref-vocab-08 (only train-ai, ai-use and search are): crawlers that follow it ignore the key"
		}
		d.addMore(line, SeverityWarning, CodeUnknownSignal, msg)
		return d
	}
	if memberPreference(m) == PreferenceUnknown {
		d.addMore(line, SeverityWarning, CodeInvalidSignal, "category "+strconv.Quote(m.Key)+" has the value "+
			strconv.Quote(m.Raw)+": only the tokens y and n count, so the preference is unknown")
	}
	return d
}

// checkCrawlDelays checks the crawl-delay lines of r.
func checkCrawlDelays(r *Robots) Diagnostics {
	var d Diagnostics
	first := map[int]int{} // the first crawl-delay line of each record
	for _, e := range r.Extras("crawl-delay") {
		if e.Record < 0 {
			continue
		}
		if prev, ok := first[e.Record]; ok {
			d.addMore(e.Line, SeverityWarning, CodeDuplicateCrawlDelay, "a second \"Crawl-delay\" line in this group (the first is line "+
				strconv.Itoa(prev)+"): crawlers read only one of them")
		} else {
			first[e.Record] = e.Line
		}
		secs, err := strconv.ParseFloat(e.Value, 64)
		if err != nil || strings.ContainsAny(e.Value, "eEnNxX+-") {
			continue // the checker reports values that are not numbers
		}
		if secs > maxSensibleDelay {
			pages := "fewer than one page"
			switch perDay := int(86400 / secs); {
			case perDay == 1:
				pages = "at most 1 page"
			case perDay > 1:
				pages = "at most " + strconv.Itoa(perDay) + " pages"
			}
			d.addMore(e.Line, SeverityWarning, CodeLongCrawlDelay, "a \"Crawl-delay\" of "+e.Value+
				" seconds lets a crawler that obeys it fetch "+pages+" a day")
		}
	}
	return d
}

// checkRecordMore checks the rules and user-agent lines of rec.
func checkRecordMore(rec Record) Diagnostics {
	var d Diagnostics
	for _, rule := range rec.Rules {
		if strings.ContainsAny(rule.Pattern, " \t") {
			d.addMore(rule.Line, SeverityWarning, CodeSpaceInPattern, "pattern "+strconv.Quote(rule.Pattern)+
				" holds a space, which URLs never hold (they have %20): write one rule per path")
		}
	}
	for _, a := range rec.Agents {
		c, ok := LookupCrawler(a.Token)
		if !ok {
			continue
		}
		if c.Retired {
			d.addMore(a.Line, SeverityWarning, CodeRetiredCrawler, "user-agent "+strconv.Quote(a.Token)+
				" is a retired token of "+c.Operator+" ("+c.Note+")")
		}
		if a.Value != a.Token && a.Value[len(a.Token)] != '/' {
			d.addMore(a.Line, SeverityInfo, CodeCrawlerToken, "user-agent "+strconv.Quote(a.Value)+" is not a product token: it names "+
				c.Operator+"'s crawler "+strconv.Quote(c.Token)+" ("+c.Purpose.String()+"); write "+strconv.Quote(c.Token))
		}
	}
	return d
}
