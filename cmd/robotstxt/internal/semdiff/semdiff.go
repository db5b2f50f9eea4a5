// Package semdiff compares two versions of a robots.txt file by what they
// do rather than by their text: which crawlers gain or lose which paths,
// with the line that decides on each side, and which sitemaps, Crawl-delay
// values and usage preferences (Content-Signal, Content-Usage) change.
//
// # What is compared
//
// The crawlers compared are "*", every product token that either file names
// in a user-agent line, and the crawlers of Options.Agents (by default the
// known AI and search crawlers of lint.KnownCrawlers that are not
// retired). A crawler that neither file names obeys the groups for "*"
// in both, so it changes exactly when "*" does: it is listed with "*" in
// AgentChange.Like rather than on its own.
//
// Verdicts are compared on witness paths: those of Witnesses, derived from
// the patterns of both files; for a crawler whose rules have a "*" inside a
// pattern, one path for each pair of deciding rules (old, new) that some
// path gets, found by exploring the automaton that follows all those rules
// at once (see explore); and the URLs of Options.URLs.
//
// # What is guaranteed
//
// Every change reported is real: the witness shown gets the two verdicts
// shown, decided by the lines shown. Conversely, when Report.Complete is
// true, the report is complete: if any path at all gets a different verdict
// for a crawler compared, a change is reported for that crawler with the
// same deciding lines on both sides. Report.Complete is true unless the
// wildcards of a crawler's rules combine in more ways than Compare explores
// (20,000 states of the automaton per pair of groups, 50 million steps of a
// position in all, about a second; 2 of the 38 real files of the root
// package's testdata, one with 1,708 rules). Then a change
// seen only on paths that match several wildcard patterns at once can be
// missed: give such paths in Options.URLs.
//
// The verdicts cost one decision per crawler and witness, which grows as
// the square of the files' size (100 KiB of groups that each name their
// own crawler: 3,000 crawlers times 6,000 witnesses, 6 seconds). Compare
// makes at most maxDecisions (5 million, a second or two; a decision in a
// group of more than 64 rules counts for more) and reads at most
// maxDecisionBytes of paths; past them, the verdicts of the remaining
// crawlers, in the order "*" then by name, are not compared and
// Report.Complete is false. Their Crawl-delay and usage preferences still
// are. The witnesses of Witnesses hold at most 16 MiB (a pattern of n
// wildcards has n prefixes: a 20 KB rule of 10,000 would make 400 MB), and
// the explorations keep at most 32 MiB of states and paths. Report.Limits
// says which of these budgets cut a report: whatever the files, Compare
// takes about a second and tens of megabytes at most.
//
// Paths are compared as given, already %-encoded, as Google matches them.
// The guarantee is about the groups as Google's reference selects them for
// one product token; a crawler that obeys several tokens at once
// (Googlebot-News obeys "googlebot-news" and "googlebot") is compared token
// by token only.
//
// A change is one pair of deciding lines (old, new) for one crawler, shown
// with its first witness in byte order and the number of witnesses that
// share it: not every path it affects.
package semdiff

import (
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/gorep/robots"
)

// Options says what Compare compares besides the files' own agents.
type Options struct {
	// Agents are crawlers to compare even if neither file names them. Nil
	// means the known crawlers of lint.KnownCrawlers that are not
	// retired, in the order of that table; an empty, non-nil slice means
	// none.
	Agents []string
	// URLs are more URLs to compare, absolute or paths starting with "/".
	// Each change on one of them is reported on its own.
	URLs []string
}

// A Report is what changed between two files. A report with nothing changed
// has no agents, no sitemaps and no extras.
type Report struct {
	// Agents are the crawlers for which something changed: "*" first, then
	// the others sorted by name, ignoring case.
	Agents []AgentChange `json:"agents"`
	// Sitemaps are the sitemap URLs removed and added, or nil.
	Sitemaps *ListChange `json:"sitemaps,omitempty"`
	// Extras are the usage preferences outside any group that changed.
	Extras []ExtraChange `json:"extras,omitempty"`
	// Crawlers is the number of crawlers compared: "*", those the files
	// name and those of Options.Agents. Paths is the number of witnesses
	// and URLs each was asked about.
	Crawlers int `json:"crawlers"`
	Paths    int `json:"paths"`
	// Complete reports whether the witnesses match every set of patterns
	// that some path matches, and every crawler's verdicts were compared
	// within the budget, so that every change of verdict on any path is
	// reported (see the package doc).
	Complete bool `json:"complete"`
	// Limits says which budgets cut the comparison when Complete is false:
	// LimitPatterns, LimitWildcards, LimitDecisions, in that order.
	Limits []string `json:"limits,omitempty"`
}

// The budgets that cut a comparison (Report.Limits), each about a second
// and tens of megabytes at most, whatever the files.
const (
	// LimitPatterns: the patterns are too long for all their witnesses
	// (maxWitnessBytes): those of the later ones are left out.
	LimitPatterns = "patterns"
	// LimitWildcards: the wildcards of a crawler's rules combine in more
	// ways than explore follows (maxStates, maxWork, maxExploreBytes).
	LimitWildcards = "wildcards"
	// LimitDecisions: more crawlers times witnesses than maxDecisions and
	// maxDecisionBytes: the verdicts of the last crawlers are not compared.
	LimitDecisions = "decisions"
)

// Changed reports whether r holds any change.
func (r *Report) Changed() bool {
	return len(r.Agents) > 0 || r.Sitemaps != nil || len(r.Extras) > 0
}

// An AgentChange is what changed for one crawler.
type AgentChange struct {
	// Agent is the product token, or "*".
	Agent string `json:"agent"`
	// Like lists other crawlers to which exactly the same changes apply:
	// on "*", the crawlers of Options.Agents that neither file names ("*"
	// governs them in both); on another crawler, those named by a file
	// whose changes are the same, which are not listed on their own.
	Like []string `json:"like,omitempty"`
	// Verdicts are the changes of verdict, in the order of their witness.
	Verdicts []VerdictChange `json:"verdicts,omitempty"`
	// CrawlDelay is the change of the crawler's crawl-delay, or nil.
	CrawlDelay *ValueChange `json:"crawl_delay,omitempty"`
	// Extras are the usage-preference lines of the crawler's groups that
	// changed.
	Extras []ExtraChange `json:"extras,omitempty"`
}

// A VerdictChange is a change of verdict on one or more witnesses, decided
// by the same lines.
type VerdictChange struct {
	// Path is the first witness, in byte order: a path or a URL of
	// Options.URLs.
	Path string `json:"path"`
	// Paths is the number of witnesses that show the same change.
	Paths int `json:"paths"`
	// Old and New are the verdicts of the two files.
	Old Verdict `json:"old"`
	New Verdict `json:"new"`
}

// A Verdict is the answer of one file for a witness.
type Verdict struct {
	Allowed bool `json:"allowed"`
	// Line is the line of the deciding rule, or 0 when no rule decided.
	Line int `json:"line,omitempty"`
	// Decision is robots.Decision.String, such as
	// "disallowed by line 3: Disallow: /x".
	Decision string `json:"decision"`
	// Global reports whether the groups for "*" answered, because none
	// named the crawler.
	Global bool `json:"global"`
}

// A ValueChange is a value that changed; "" stands for none.
type ValueChange struct {
	Old string `json:"old"`
	New string `json:"new"`
}

// An ExtraChange lists the values of the lines with one key, in file order,
// in each file.
type ExtraChange struct {
	Key string   `json:"key"`
	Old []string `json:"old"`
	New []string `json:"new"`
}

// A ListChange lists what was removed from a list and what was added.
type ListChange struct {
	Removed []string `json:"removed"`
	Added   []string `json:"added"`
}

// usageKeys are the keys of the usage-preference lines compared as written.
var usageKeys = []string{"Content-Signal", "Content-Usage"}

// Compare reports what changed from old to new. A nil file allows
// everything, as an empty one does.
func Compare(old, new *robots.Robots, opts Options) *Report {
	if opts.Agents == nil {
		opts.Agents = defaultAgents()
	}
	named := namedAgents(opts.Agents, old, new)
	var like []string
	for _, a := range opts.Agents {
		if _, ok := named[strings.ToLower(a)]; !ok && !slices.Contains(like, a) {
			like = append(like, a)
		}
	}
	agents := slices.SortedFunc(maps.Values(named), func(a, b string) int {
		return strings.Compare(strings.ToLower(a), strings.ToLower(b))
	})
	w := newWitnessSet(old, new)
	report := &Report{Agents: []AgentChange{}, Crawlers: 1 + len(agents) + len(like)}
	budget, bytes := maxDecisions, maxDecisionBytes
	urlBytes := 0
	for _, u := range opts.URLs {
		urlBytes += len(u)
	}
	cut := false
	oldRules, newRules := countRules(old), countRules(new)
	for _, a := range append([]string{"*"}, agents...) {
		var witnesses []string
		urls := opts.URLs
		// A decision costs more in a larger group: with thousands of
		// floating wildcards, tens of microseconds.
		weight := 1 + (oldRules.of(a)+newRules.of(a))/decisionRules
		// The common witnesses are the fewest a crawler has: past the
		// budget, of is not asked (it sorts them).
		if !cut && budget-(len(w.common)+len(urls))*weight >= 0 {
			witnesses = w.of(a)
			budget -= (len(witnesses) + len(urls)) * weight
			bytes -= urlBytes
			for _, p := range witnesses {
				bytes -= len(p)
			}
		}
		if cut = cut || witnesses == nil || budget < 0 || bytes < 0; cut {
			// Out of work: keep comparing the cheap values, not the verdicts.
			witnesses, urls, w.complete = nil, nil, false
		}
		c := compareAgent(a, old, new, witnesses, urls)
		if c.Verdicts == nil && c.CrawlDelay == nil && c.Extras == nil {
			continue
		}
		if a == "*" {
			c.Like = like
		}
		report.Agents = appendAgent(report.Agents, c)
	}
	report.Paths, report.Complete, report.Limits = len(w.all)+len(opts.URLs), w.complete, w.limits
	if cut {
		report.Limits = append(report.Limits, LimitDecisions)
	}
	report.Sitemaps = compareLists(old.Sitemaps(), new.Sitemaps())
	for _, key := range usageKeys {
		if c, ok := compareExtras(key, outside(old.Extras(key)), outside(new.Extras(key))); ok {
			report.Extras = append(report.Extras, c)
		}
	}
	return report
}

// appendAgent appends c to changes, or adds its agent to the Like of an
// earlier crawler other than "*" with the same changes.
func appendAgent(changes []AgentChange, c AgentChange) []AgentChange {
	for i := range changes {
		if e := &changes[i]; e.Agent != "*" && sameChanges(e, &c) {
			e.Like = append(e.Like, c.Agent)
			return changes
		}
	}
	return append(changes, c)
}

// sameChanges reports whether a and b hold the same changes.
func sameChanges(a, b *AgentChange) bool {
	return slices.Equal(a.Verdicts, b.Verdicts) &&
		(a.CrawlDelay == nil) == (b.CrawlDelay == nil) && (a.CrawlDelay == nil || *a.CrawlDelay == *b.CrawlDelay) &&
		slices.EqualFunc(a.Extras, b.Extras, func(x, y ExtraChange) bool {
			return x.Key == y.Key && slices.Equal(x.Old, y.Old) && slices.Equal(x.New, y.New)
		})
}

// compareAgent compares what the two files say to the crawler agent.
func compareAgent(agent string, old, new *robots.Robots, witnesses, urls []string) AgentChange {
	c := AgentChange{Agent: agent}
	c.Verdicts = compareVerdicts(old.Group(agent), new.Group(agent), witnesses, urls)
	od, ook := old.CrawlDelay(agent)
	nd, nok := new.CrawlDelay(agent)
	if ook != nok || od != nd {
		c.CrawlDelay = &ValueChange{Old: delayString(od, ook), New: delayString(nd, nok)}
	}
	for _, key := range usageKeys {
		if e, ok := compareExtras(key, old.GroupExtras(agent, key), new.GroupExtras(agent, key)); ok {
			c.Extras = append(c.Extras, e)
		}
	}
	return c
}

// compareVerdicts returns the changes of verdict between the groups old and
// new: on the witnesses, in their order, one per pair of decisions; then on
// each of the urls, in their order.
func compareVerdicts(old, new *robots.Group, witnesses, urls []string) []VerdictChange {
	type pair struct {
		old, new robots.Decision
		url      int // 1 + the index of a URL of urls, reported on its own
	}
	var changes []VerdictChange
	index := map[pair]int{}
	for k, w := range slices.Concat(witnesses, urls) {
		u := queryURL(w)
		do, dn := old.Decide(u), new.Decide(u)
		if do.Allowed == dn.Allowed {
			continue
		}
		p := pair{old: do, new: dn}
		if k >= len(witnesses) {
			p.url = 1 + k - len(witnesses)
		}
		if i, ok := index[p]; ok {
			changes[i].Paths++
			continue
		}
		index[p] = len(changes)
		changes = append(changes, VerdictChange{Path: w, Paths: 1, Old: verdictOf(do), New: verdictOf(dn)})
	}
	return changes
}

// queryURL returns what to give Decide for the witness w: w itself, unless
// it is a path that Decide would read as a URL without a scheme ("//a/b").
func queryURL(w string) string {
	if strings.HasPrefix(w, "//") {
		return "http://example.com" + w
	}
	return w
}

// verdictOf returns the Verdict of d.
func verdictOf(d robots.Decision) Verdict {
	v := Verdict{Allowed: d.Allowed, Decision: d.String(), Global: d.Global}
	if d.Reason == robots.ReasonRule {
		v.Line = d.Rule.Line
	}
	return v
}

// delayString returns d as a duration, or "" if !ok.
func delayString(d time.Duration, ok bool) string {
	if !ok {
		return ""
	}
	return d.String()
}

// compareExtras compares the values of two lists of lines with key.
func compareExtras(key string, old, new []robots.Extra) (ExtraChange, bool) {
	ov, nv := values(old), values(new)
	if slices.Equal(ov, nv) {
		return ExtraChange{}, false
	}
	return ExtraChange{Key: key, Old: ov, New: nv}, true
}

// values returns the values of extras, never nil.
func values(extras []robots.Extra) []string {
	v := []string{}
	for _, e := range extras {
		v = append(v, e.Value)
	}
	return v
}

// outside returns the extras that stand before the first group.
func outside(extras []robots.Extra) []robots.Extra {
	return slices.DeleteFunc(extras, func(e robots.Extra) bool { return e.Record >= 0 })
}

// compareLists returns what was removed from old and added in new, in the
// order of each, or nil if nothing was.
func compareLists(old, new []string) *ListChange {
	c := &ListChange{Removed: missing(old, new), Added: missing(new, old)}
	if len(c.Removed) == 0 && len(c.Added) == 0 {
		return nil
	}
	return c
}

// missing returns the strings of a that b does not hold, in order.
func missing(a, b []string) []string {
	in := make(map[string]bool, len(b))
	for _, s := range b {
		in[s] = true
	}
	out := []string{}
	for _, s := range a {
		if !in[s] {
			out = append(out, s)
		}
	}
	return out
}
