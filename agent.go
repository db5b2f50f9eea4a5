package robots

// User agents: tokens of user-agent lines and headers, groups by token.

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// A Record is one group as written in a file: user-agent lines and the
// allow and disallow rules that follow them.
type Record struct {
	Agents []Agent // the user-agent lines, in file order
	Rules  []Rule  // the allow and disallow lines, in file order
}

// An Agent is one user-agent line.
type Agent struct {
	Value string // as written, without comment or surrounding space
	// Token is what the line is matched with: "*", or the longest prefix
	// of Value of letters, "-" and "_" ("MJ12bot" gives "MJ").
	Token string
	Line  int // the 1-based line number
}

// A Rule is one allow or disallow line.
type Rule struct {
	Allow   bool   // an allow rule; false for disallow
	Pattern string // the value as written, without comment or surrounding space
	Line    int    // the 1-based line number
}

func ruleOf(l lines.Line, text string) Rule {
	return Rule{Allow: l.Allow(), Pattern: l.Value(text), Line: l.Num()}
}

func agentOf(l lines.Line, text string) Agent {
	v := l.Value(text)
	return Agent{Value: v, Token: lines.AgentToken(v), Line: l.Num()}
}

// ProductToken returns the crawler's product token from a full User-Agent
// header, for use with Allowed:
//
//	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" → "Googlebot"
//	"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" → "Googlebot"
//	"FooBot/1.0" → "FooBot"
//
// It returns the first name/version product after "compatible;", as
// crawlers posing as browsers write it; failing that, the first
// name/version product, or else the first word, that is not a generic
// browser token (Mozilla, AppleWebKit, KHTML, Gecko, Chrome, Safari, ...);
// cut to the letters, "-" and "_" a token may hold. It is a heuristic
// (User-Agent headers follow no grammar in practice): crawlers that know
// their token should pass it.
//
// It returns "" when the header names no crawler. Do not pass "" to
// Allowed: it names the groups whose user-agent has no token, not "*".
func ProductToken(userAgent string) string {
	if _, after, ok := strings.Cut(userAgent, "compatible;"); ok {
		if name, product := firstProduct(after); product {
			return name
		}
	}
	name, _ := firstProduct(userAgent)
	return name
}

// firstProduct returns the first name/version product of a User-Agent
// header that is not generic, and true, or else its first such word.
func firstProduct(s string) (string, bool) {
	var word string
	separates := func(c rune) bool { return strings.ContainsRune(" \t;(),", c) } // products, comments
	for _, f := range strings.FieldsFunc(s, separates) {
		name, _, product := strings.Cut(f, "/")
		name = name[:lines.TokenLen(name)]
		if name == "" || slices.ContainsFunc(genericTokens, func(t string) bool { return lines.EqualFold(name, t) }) {
			continue // "+http://...", "5.0", "Mozilla/5.0", ...
		}
		if product {
			return name, true
		}
		if word == "" {
			word = name
		}
	}
	return word, false
}

// SplitAgents returns the agents that agent names, each trimmed of
// spaces: those of a crawler that obeys several, spelled with commas
// ("googlebot-news,googlebot"), or agent alone. A value with "/", ";", "("
// or ")" is a User-Agent header, one agent whatever its commas. The one
// reading of the robotstxt command's -agent, fetch's agent and signals'.
func SplitAgents(agent string) []string {
	if strings.ContainsAny(agent, "/;()") || !strings.Contains(agent, ",") {
		return []string{strings.TrimSpace(agent)}
	}
	agents := strings.Split(agent, ",")
	for i, a := range agents {
		agents[i] = strings.TrimSpace(a)
	}
	return agents
}

// CrawlerToken returns the token to ask a file's groups with for agent, a
// crawler named by a person or a configuration: the one rule of this
// module's front ends (the robotstxt command, its tester page, fetch.Cache
// and fetch.Transport).
//
//   - "*", or a product token (letters, "-" and "_", such as "GPTBot"), is
//     returned as given.
//   - A value with "/", whitespace, ";", "(" or ")" is a User-Agent header
//     ("GPTBot/1.2 (+https://openai.com/gptbot)"), which would silently get
//     the answers of "*": its ProductToken is returned, with a warning; if
//     it names no crawler ("Mozilla/5.0 (X11)"), or its first word has no
//     version and is not that token ("Eval Bot/1.0"), an error.
//   - Any other value ("MJ12bot") is returned as given, as Google's matcher
//     asks it, with a warning that no user-agent line can name it ("MJ12bot"
//     in a file names "MJ"), so only the groups for "*" answer.
//   - "" is an error.
//
// The warning is a sentence for a front end to show.
func CrawlerToken(agent string) (token, warning string, err error) {
	switch {
	case agent == "":
		return "", "", errors.New(`robots: the agent is empty: give a product token, such as "Googlebot"`)
	case agent == "*" || lines.TokenLen(agent) == len(agent):
		return agent, "", nil
	case strings.ContainsAny(agent, "/;()") || strings.ContainsFunc(agent, unicode.IsSpace):
		token, w := ProductToken(agent), agent[:lines.TokenLen(agent)]
		if token == "" {
			return "", "", fmt.Errorf("robots: the agent %q names no crawler (a browser's User-Agent header?): give its product token, such as \"Googlebot\"", agent)
		} else if n, _ := firstProduct(w); n != "" && n != token && agent[len(w)] != '/' {
			return "", "", fmt.Errorf("robots: the agent %q is ambiguous: its first word %q has no version, its first product is %q: give the product token (%q or %q)", agent, w, token, w, token)
		}
		return token, fmt.Sprintf("%q is a User-Agent header, not a product token: asking as %q", agent, token), nil
	}
	return agent, fmt.Sprintf("%q is not a product token (letters, \"-\" and \"_\"): no user-agent line can name it, so the groups for \"*\" answer", agent), nil
}

// genericTokens are the products and words of browser User-Agent headers
// that do not name a crawler.
var genericTokens = []string{
	"mozilla", "applewebkit", "khtml", "like", "gecko", "compatible",
	"chrome", "safari", "mobile", "version", "linux", "android", "windows",
	"nt", "win", "x", "macintosh", "intel", "mac", "os", "iphone", "cpu",
	"u", "en", "wow", "firefox", "edg", "opera", "headlesschrome",
}

func newNamedGroup(off uint32, n int, ref int32) namedGroup {
	return namedGroup(off) | namedGroup(n)<<lines.LenShift | namedGroup(uint64(int64(ref))<<namedRefShift)
}

// token returns the token of g, whose low bits are a lines.Line's.
func (g namedGroup) token(text string) string { return lines.Line(g).Value(text) }

func (g namedGroup) ref() int32 { return int32(int64(g) >> namedRefShift) }

// lookupRef returns the ref of the group whose token is agent (ASCII case
// ignored), if any: a binary search by hand (slices.BinarySearchFunc cost
// more: BenchmarkAllowed; bench/RESULTS.md, "What each mechanism buys").
func (r *Robots) lookupRef(agent string) (int32, bool) {
	lo, hi := 0, len(r.named)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := compareLower(r.named[mid].token(r.src.Text()), agent); {
		case c == 0:
			return r.named[mid].ref(), true
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// refOrGlobal sets *g to the group of ref, what lookupRef returned, if
// named, else to that of "*".
func (r *Robots) refOrGlobal(ref int32, named bool, g *Group) {
	if !named {
		if ref = r.global; ref == 0 {
			*g = Group{file: r}
			return
		} else if ref > 0 {
			ref--
		}
	}
	if ref < 0 {
		mg := &r.more.multi[^ref]
		*g = Group{set: ruleset.NewSet(&r.src, mg.lo, mg.n, mg.big), file: r, recLo: mg.recLo, recN: mg.recN,
			restLo: mg.restLo, restN: mg.restN, named: mg.named, ruled: mg.ruled, split: mg.split}
		return
	}
	*g = Group{file: r, recLo: ref, recN: 1, named: named, ruled: r.sets[ref]&ownSetRuled != 0}
	r.ownSet(ref, &g.set)
}

func (r *Robots) globalGroup(g *Group) { r.refOrGlobal(0, false, g) }

// ownSet sets *s to the compiled rules of record rec alone.
func (r *Robots) ownSet(rec int32, s *ruleset.Set) {
	rs := r.sets[rec]
	lo, n := int32(rs>>ownSetLo), int32(rs&ownSetBig)
	var big *ruleset.Lazy
	switch n {
	case ownSetBig:
		b := &r.more.bigs[lo]
		lo, n, big = b.lo, b.n, b.big
	case ownSetLines: // read from the line table
		lo, n = ^rec, lo
	}
	*s = ruleset.NewSet(&r.src, lo, n, big)
}

// records returns the indexes of the records of g, in file order (that of
// a group of one in one).
func (g *Group) records(one *[1]int32) []int32 {
	switch {
	case g.file == nil || g.recN == 0:
		return nil
	case g.recN == 1:
		one[0] = g.recLo
		return one[:]
	}
	return g.file.more.recs[g.recLo : g.recLo+g.recN]
}

// compareLower compares token with s, both lower-cased.
func compareLower(token, s string) int {
	n := min(len(token), len(s))
	for i := 0; i < n; i++ {
		if a, b := lines.Lower(token[i]), lines.Lower(s[i]); a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return cmp.Compare(len(token), len(s))
}
