package lint

// The checks of the keys Google ignores: extensions, unknown keys, and the
// usage preference lines, which checker.more reads once the lines are checked.

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/values"
)

// An extension is a key that Google ignores and other crawlers read.
type extension struct {
	sev   Severity
	note  string             // who reads it, or why it has no effect
	group bool               // it applies to the group it stands in
	parse func(string) error // checks a value, if the key has a syntax
}

func valid[T any](parse func(string) (T, error)) func(string) error {
	return func(v string) error { _, err := parse(v); return err }
}

func validRate(v string) error { _, _, _, _, err := values.RequestRate(v); return err }

func validTime(v string) error { _, _, err := values.VisitTime(v); return err }

func validClean(v string) error { _, _, err := values.CleanParam(v); return err }

// extensions are the keys of extension, lower-case.
var extensions = map[string]extension{
	values.KeyCrawlDelay:    {SeverityInfo, "Bing and Yandex read it", true, valid(values.CrawlDelay)},
	values.KeyRequestRate:   {SeverityInfo, "a few crawlers read it", true, validRate},
	values.KeyVisitTime:     {SeverityInfo, "a few crawlers read it", true, validTime},
	values.KeyHost:          {SeverityInfo, "Yandex used to read it", false, values.Host},
	values.KeyCleanParam:    {SeverityInfo, "Yandex reads it", false, validClean},
	values.KeyContentSignal: {SeverityInfo, "it states preferences on the use of content (contentsignals.org)", true, nil},
	values.KeyContentUsage:  {SeverityInfo, "it states preferences on the use of content (IETF AI preferences)", true, nil},
	"noindex":               {SeverityWarning, "it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", false, nil},
	"nofollow":              {SeverityWarning, "it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", false, nil},
	"noarchive":             {SeverityWarning, "use a robots meta tag or an X-Robots-Tag header", false, nil},
	"nosnippet":             {SeverityWarning, "use a robots meta tag or an X-Robots-Tag header", false, nil},
}

// other checks a line with a key Google does not read.
func (c *checker) other(n int, key, value string) {
	ext, ok := extensions[lines.LowerASCII(key)]
	if !ok {
		if c.html || c.binary {
			return
		}
		sev, msg := SeverityWarning, "unknown key "+quoteValue(key)
		// "ï»¿User-agent": a BOM encoded twice before a key of Google's
		bare := strings.TrimLeftFunc(key, func(r rune) bool { return r >= utf8.RuneSelf })
		if bare != key && lines.KeyKind(bare) != lines.KindOther {
			c.add(n, SeverityError, CodeUnknownKey, "key "+quoteValue(key)+" has stray bytes before "+quoteValue(bare)+
				" (a byte order mark?): the line is ignored")
			return
		}
		if guess := suggestKey(key); guess != "" {
			msg += " (did you mean " + quoteValue(guess) + "?)"
			if guess == "user-agent" || guess == "allow" || guess == "disallow" {
				sev = SeverityError
			}
		}
		c.add(n, sev, CodeUnknownKey, msg+": the line is ignored")
		return
	}
	c.add(n, ext.sev, CodeIgnoredByGoogle, quoteValue(key)+" is ignored by Google ("+ext.note+")")
	if ext.group && len(c.rules) == 0 {
		c.add(n, SeverityWarning, CodeKeyOutsideGroup, quoteValue(key)+" line before any user-agent line: it belongs to no group")
	}
	if ext.parse != nil {
		if err := ext.parse(value); err != nil {
			c.add(n, SeverityWarning, CodeInvalidValue, quoteValue(key)+" value "+quoteValue(value)+" is "+err.Error()+": the line is ignored")
		}
	}
	if lines.EqualFold(key, values.KeyCrawlDelay) && len(c.rules) > 0 {
		c.crawlDelay(n, value)
	}
}

// suggestableKeys are the keys unknown keys are compared with.
var suggestableKeys = []string{
	"user-agent", "allow", "disallow", "sitemap",
	values.KeyCrawlDelay, values.KeyRequestRate, values.KeyVisitTime, values.KeyHost, values.KeyCleanParam,
}

// suggestKey returns the known key that key probably misspells, or "".
func suggestKey(key string) string {
	k := lines.LowerASCII(key)
	if len(k) < 4 || len(k) > 20 {
		return ""
	}
	best, bestEdits := "", 3 // at most 2 edits
	for _, known := range suggestableKeys {
		if e := editDistance(k, known); e < bestEdits {
			best, bestEdits = known, e
		}
	}
	return best
}

// editDistance returns the optimal string alignment distance of a and b:
// the insertions, deletions, substitutions and transpositions of adjacent
// bytes that turn one into the other; d[i][j] is that of a[:i] and b[:j].
func editDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		for j := range d[i] {
			d[i][j] = i + j // at i == 0 or j == 0: j or i edits
		}
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// oldUsageKeys are categories of earlier vocabulary drafts.
var oldUsageKeys = []string{"bots", "train-genai", "all", "ai-output"}

// more adds the findings about r, the file as parsed.
func (c *checker) more(r *robots.Robots) {
	recs := r.Records()
	rec, seen := -1, map[string]int{} // the line of each signal in record rec
	for _, e := range r.Extras("") {
		switch {
		case e.Record < 0: // reported by the line checks
		case lines.EqualFold(e.Key, values.KeyContentSignal):
			if e.Record != rec {
				rec, seen = e.Record, map[string]int{}
			}
			c.signal(e, recs[e.Record], seen)
		case lines.EqualFold(e.Key, values.KeyContentUsage):
			c.usage(r, recs, e)
		}
	}
}

// signal checks a Content-Signal line of rec, given the line of each
// signal seen before in rec.
func (c *checker) signal(e robots.Extra, rec robots.Record, seen map[string]int) {
	fields := values.SignalFields(e.Value)
	if len(fields) == 0 {
		c.add(e.Line, SeverityWarning, CodeInvalidSignal, "empty Content-Signal: it states nothing")
	}
	for _, f := range fields {
		switch {
		case f.Key == "use": // Cloudflare's managed files add "use=...": kept, not a signal
		case !slices.Contains(values.SignalKeys, f.Key):
			msg := "unknown content signal " + strconv.Quote(f.Key) + ": the signals are search, ai-input and ai-train"
			if guess := strings.ReplaceAll(f.Key, "_", "-"); slices.Contains(values.SignalKeys, guess) {
				msg = "unknown content signal " + strconv.Quote(f.Key) + " (did you mean " + strconv.Quote(guess) + "?)"
			}
			c.add(e.Line, SeverityWarning, CodeUnknownSignal, msg)
		default:
			if robots.Preference(values.SignalPref(f.Value)) == robots.PreferenceUnknown {
				c.add(e.Line, SeverityWarning, CodeInvalidSignal, "content signal "+strconv.Quote(f.Key)+" has the value "+
					strconv.Quote(f.Value)+": only \"yes\" and \"no\" count, so the preference is unknown")
			}
			if prev, ok := seen[f.Key]; ok {
				where := "line " + strconv.Itoa(prev)
				if prev == e.Line {
					where = "this line"
				}
				c.add(e.Line, SeverityWarning, CodeDuplicateSignal, "content signal "+strconv.Quote(f.Key)+
					" is given again (first on "+where+"): where the values differ, \"no\" wins")
			} else {
				seen[f.Key] = e.Line
			}
		}
		if robots.Preference(values.SignalPref(f.Value)) == robots.PreferenceYes && disallowsAll(rec) {
			c.add(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Signal "+
				strconv.Quote(f.Key+"="+f.Value)+" in a group that disallows the whole site: its crawlers fetch nothing, so the signal has no effect")
		}
	}
}

// disallowsAll reports whether rec has a rule "Disallow: /" (or "/*", "*")
// and no allow rule.
func disallowsAll(rec robots.Record) bool {
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

func (c *checker) usage(r *robots.Robots, recs []robots.Record, e robots.Extra) {
	path, dict, err := values.UsageLine(e.Value)
	if path == "" && disallowsAll(recs[e.Record]) {
		c.add(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Usage in a group that disallows the whole site: "+
			"preferences apply only to paths that may be crawled, so this line has no effect")
	} else if rule, ok := disallowedUsage(r, recs, recs[e.Record], path); ok {
		c.add(e.Line, SeverityWarning, CodeSignalContradictsRules, "Content-Usage for "+strconv.Quote(path)+
			" in a group that disallows it (line "+strconv.Itoa(rule.Line)+": "+rule.String()+"): preferences apply only to paths that may be crawled, so this line has no effect")
	}
	if err != nil {
		c.add(e.Line, SeverityWarning, CodeInvalidSignal, "Content-Usage value "+strconv.Quote(e.Value)+
			" is not a path and a preference such as \"/ train-ai=n\" ("+err.Error()+"): the preference is unknown")
		return
	}
	seen := map[string]bool{}
	for _, m := range dict {
		if seen[m.Key] {
			c.add(e.Line, SeverityWarning, CodeDuplicateSignal, "category "+strconv.Quote(m.Key)+
				" is given twice: only the last value counts")
		}
		seen[m.Key] = true
		switch {
		case slices.Contains(oldUsageKeys, m.Key):
			c.add(e.Line, SeverityWarning, CodeUnknownSignal, "usage category "+strconv.Quote(m.Key)+
				" is not in draft-ietf-aipref-vocab-08 (only train-ai, ai-use and search are): crawlers that follow it ignore the key")
		case !slices.Contains(values.UsageKeys, m.Key):
			c.add(e.Line, SeverityWarning, CodeUnknownSignal, "unknown usage category "+strconv.Quote(m.Key)+
				": the categories are train-ai, ai-use and search, and crawlers ignore other keys")
		case robots.Preference(values.UsagePref(m)) == robots.PreferenceUnknown:
			c.add(e.Line, SeverityWarning, CodeInvalidSignal, "category "+strconv.Quote(m.Key)+" has the value "+
				strconv.Quote(m.Raw)+": only the tokens y and n count, so the preference is unknown")
		}
	}
}

// disallowedUsage reports whether path, of a Content-Usage line of rec, is
// disallowed to the first crawler of rec, with nothing under it allowed back,
// and returns the deciding rule.
func disallowedUsage(r *robots.Robots, recs []robots.Record, rec robots.Record, path string) (robots.Rule, bool) {
	prefix, _, _ := strings.Cut(path, "*")
	prefix, _, _ = strings.Cut(prefix, "$")
	if len(rec.Agents) == 0 || prefix == "" {
		return robots.Rule{}, false
	}
	token := rec.Agents[0].Token
	d := r.Decide(token, prefix)
	if d.Allowed || d.Reason != robots.ReasonRule {
		return robots.Rule{}, false
	}
	for _, other := range recs {
		if !slices.ContainsFunc(other.Agents, func(a robots.Agent) bool { return strings.EqualFold(a.Token, token) }) {
			continue
		}
		for _, rule := range other.Rules {
			if rule.Allow && (strings.HasPrefix(rule.Pattern, prefix) || strings.Contains(rule.Pattern, "*")) {
				return robots.Rule{}, false // something under the path may be allowed back
			}
		}
	}
	return d.Rule, true
}

// crawlDelay checks the value of a crawl-delay line n of the current record.
func (c *checker) crawlDelay(n int, value string) {
	if c.delayLine > 0 {
		c.add(n, SeverityWarning, CodeDuplicateCrawlDelay, "a second \"Crawl-delay\" line in this group (the first is line "+
			strconv.Itoa(c.delayLine)+"): crawlers read only one of them")
	} else {
		c.delayLine = n
	}
	secs, err := strconv.ParseFloat(value, 64)
	if err != nil || strings.ContainsAny(value, "eEnNxX+-") || secs <= 60 {
		return // an invalid value (reported apart), or at most a minute
	}
	pages := "fewer than one page"
	switch perDay := int(86400 / secs); {
	case perDay == 1:
		pages = "at most 1 page"
	case perDay > 1:
		pages = "at most " + strconv.Itoa(perDay) + " pages"
	}
	c.add(n, SeverityWarning, CodeLongCrawlDelay, "a \"Crawl-delay\" of "+value+
		" seconds lets a crawler that obeys it fetch "+pages+" a day")
}
