package robots

// More findings of Check, read through the public API of Parse (Records,
// Extras) once the lines are checked: usage preference lines, crawl-delay
// values, spaces inside patterns, and known crawlers named badly. What the
// line checks report (a line outside any group, a sitemap URL, a cut
// user-agent value) is not repeated.

import (
	"slices"
	"strconv"
	"strings"

	"github.com/gorep/robots/internal/sfv"
)

// maxSensibleDelay is the longest crawl-delay, in seconds, not reported.
const maxSensibleDelay = 60

// oldUsageKeys are categories of earlier vocabulary drafts.
var oldUsageKeys = []string{"bots", "train-genai", "all", "ai-output"}

// more adds the findings about r, the file as parsed.
func (c *checker) more(r *Robots) {
	recs := r.Records()
	signals := map[int]map[string]int{} // per record, the line of each signal
	delays := map[int]int{}             // per record, its first crawl-delay line
	for _, e := range r.Extras("") {
		if e.Record < 0 {
			continue // reported by the line checks
		}
		switch lowerASCII(e.Key) {
		case keyContentSignal:
			if signals[e.Record] == nil {
				signals[e.Record] = map[string]int{}
			}
			c.signal(e, recs[e.Record], signals[e.Record])
		case keyContentUsage:
			c.usage(r, recs, e)
		case keyCrawlDelay:
			c.crawlDelay(e, delays)
		}
	}
	for _, rec := range recs {
		c.recordMore(rec)
	}
}

// signal checks a Content-Signal line of rec, given the line of each
// signal seen before in rec.
func (c *checker) signal(e Extra, rec Record, seen map[string]int) {
	fields := parseContentSignal(e.Value)
	if len(fields) == 0 {
		c.add(e.Line, SeverityWarning, CodeInvalidSignal, "empty Content-Signal: it states nothing")
	}
	for _, f := range fields {
		c.signalField(e.Line, f, seen)
		if f.pref == PreferenceYes && disallowsAll(rec) {
			c.add(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Signal "+
				strconv.Quote(f.key+"="+f.value)+" in a group that disallows the whole site: its crawlers fetch nothing, so the signal has no effect")
		}
	}
}

// signalField checks one field of a Content-Signal line.
func (c *checker) signalField(line int, f signalField, seen map[string]int) {
	if f.key == "use" {
		return // Cloudflare's managed files add "use=...": kept, not a signal
	}
	if !slices.Contains(signalKeys, f.key) {
		msg := "unknown content signal " + strconv.Quote(f.key) + ": the signals are search, ai-input and ai-train"
		if guess := strings.ReplaceAll(f.key, "_", "-"); slices.Contains(signalKeys, guess) {
			msg = "unknown content signal " + strconv.Quote(f.key) + " (did you mean " + strconv.Quote(guess) + "?)"
		}
		c.add(line, SeverityWarning, CodeUnknownSignal, msg)
		return
	}
	if f.pref == PreferenceUnknown {
		c.add(line, SeverityWarning, CodeInvalidSignal, "content signal "+strconv.Quote(f.key)+" has the value "+
			strconv.Quote(f.value)+": only \"yes\" and \"no\" count, so the preference is unknown")
	}
	if prev, ok := seen[f.key]; ok {
		where := "line " + strconv.Itoa(prev)
		if prev == line {
			where = "this line"
		}
		c.add(line, SeverityWarning, CodeDuplicateSignal, "content signal "+strconv.Quote(f.key)+
			" is given again (first on "+where+"): where the values differ, \"no\" wins")
	} else {
		seen[f.key] = line
	}
}

// disallowsAll reports whether rec has a rule "Disallow: /" (or "/*", "*")
// and no allow rule.
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

// usage checks a Content-Usage line.
func (c *checker) usage(r *Robots, recs []Record, e Extra) {
	u := parseContentUsage(e.Value, e.Line)
	if u.path == "" && disallowsAll(recs[e.Record]) {
		c.add(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Usage in a group that disallows the whole site: "+
			"preferences apply only to paths that may be crawled, so this line has no effect")
	} else if rule, ok := disallowedUsage(r, recs, e.Record, u.path); ok {
		c.add(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Usage for "+strconv.Quote(u.path)+
			" in a group that disallows it (line "+strconv.Itoa(rule.Line)+": "+rule.String()+"): preferences apply only to paths that may be crawled, so this line has no effect")
	}
	if u.err != nil {
		c.add(e.Line, SeverityWarning, CodeInvalidSignal, "Content-Usage value "+strconv.Quote(e.Value)+
			" is not a path and a preference such as \"/ train-ai=n\" ("+u.err.Error()+"): the preference is unknown")
		return
	}
	seen := map[string]bool{}
	for _, m := range u.dict {
		c.usageMember(e.Line, m, seen)
	}
}

// disallowedUsage reports whether path, of a Content-Usage line of recs[i],
// is disallowed to the first crawler of that record, with nothing under it
// allowed back, and returns the deciding rule.
func disallowedUsage(r *Robots, recs []Record, i int, path string) (Rule, bool) {
	rec := recs[i]
	prefix := path
	if i := strings.IndexAny(prefix, "*$"); i >= 0 {
		prefix = prefix[:i]
	}
	if len(rec.Agents) == 0 || prefix == "" {
		return Rule{}, false
	}
	token := rec.Agents[0].Token
	d := r.Decide(token, prefix)
	if d.Allowed || d.Reason != ReasonRule {
		return Rule{}, false
	}
	for _, other := range recs {
		if !slices.ContainsFunc(other.Agents, func(a Agent) bool { return strings.EqualFold(a.Token, token) }) {
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

// usageMember checks one member of a Content-Usage dictionary, given the
// keys seen before in its line.
func (c *checker) usageMember(line int, m sfv.Member, seen map[string]bool) {
	if seen[m.Key] {
		c.add(line, SeverityWarning, CodeDuplicateSignal, "category "+strconv.Quote(m.Key)+
			" is given twice: only the last value counts")
	}
	seen[m.Key] = true
	if !slices.Contains(usageKeys, m.Key) {
		msg := "unknown usage category " + strconv.Quote(m.Key) + ": the categories are train-ai, ai-use and search, and crawlers ignore other keys"
		if slices.Contains(oldUsageKeys, m.Key) {
			msg = "usage category " + strconv.Quote(m.Key) + " is not in draft-ietf-aipref-vocab-08 (only train-ai, ai-use and search are): crawlers that follow it ignore the key"
		}
		c.add(line, SeverityWarning, CodeUnknownSignal, msg)
		return
	}
	if memberPreference(m) == PreferenceUnknown {
		c.add(line, SeverityWarning, CodeInvalidSignal, "category "+strconv.Quote(m.Key)+" has the value "+
			strconv.Quote(m.Raw)+": only the tokens y and n count, so the preference is unknown")
	}
}

// crawlDelay checks a crawl-delay line, given the first crawl-delay line of
// each record.
func (c *checker) crawlDelay(e Extra, first map[int]int) {
	if prev, ok := first[e.Record]; ok {
		c.add(e.Line, SeverityWarning, CodeDuplicateCrawlDelay, "a second \"Crawl-delay\" line in this group (the first is line "+
			strconv.Itoa(prev)+"): crawlers read only one of them")
	} else {
		first[e.Record] = e.Line
	}
	secs, err := strconv.ParseFloat(e.Value, 64)
	if err != nil || strings.ContainsAny(e.Value, "eEnNxX+-") || secs <= maxSensibleDelay {
		return // the line checks report values that are not numbers
	}
	pages := "fewer than one page"
	switch perDay := int(86400 / secs); {
	case perDay == 1:
		pages = "at most 1 page"
	case perDay > 1:
		pages = "at most " + strconv.Itoa(perDay) + " pages"
	}
	c.add(e.Line, SeverityWarning, CodeLongCrawlDelay, "a \"Crawl-delay\" of "+e.Value+
		" seconds lets a crawler that obeys it fetch "+pages+" a day")
}

// recordMore checks the rules and user-agent lines of rec.
func (c *checker) recordMore(rec Record) {
	for _, rule := range rec.Rules {
		if strings.ContainsAny(rule.Pattern, " \t") {
			c.add(rule.Line, SeverityWarning, CodeSpaceInPattern, "pattern "+strconv.Quote(rule.Pattern)+
				" holds a space, which URLs never hold (they have %20): write one rule per path")
		}
	}
	for _, a := range rec.Agents {
		k, ok := LookupCrawler(a.Token)
		if !ok {
			continue
		}
		if k.Retired {
			c.add(a.Line, SeverityWarning, CodeRetiredCrawler, "user-agent "+strconv.Quote(a.Token)+
				" is a retired token of "+k.Operator+" ("+k.Note+")")
		}
		if a.Value != a.Token && a.Value[len(a.Token)] != '/' {
			c.add(a.Line, SeverityInfo, CodeCrawlerToken, "user-agent "+strconv.Quote(a.Value)+" is not a product token: it names "+
				k.Operator+"'s crawler "+strconv.Quote(k.Token)+" ("+k.Purpose.String()+"); write "+strconv.Quote(k.Token))
		}
	}
}
