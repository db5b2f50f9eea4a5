package robots

// User agents: the product token of a user-agent line, the lookup of a
// crawler's group by token, and the token of a full User-Agent header.

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// ProductToken returns the crawler's product token from a full User-Agent
// header, for use with Allowed:
//
//	"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" → "Googlebot"
//	"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/41.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" → "Googlebot"
//	"FooBot/1.0" → "FooBot"
//
// It returns the first name/version product that follows "compatible;" in
// a comment, as crawlers that pose as browsers write it; failing that, the
// first name/version product, or else the first word, that is not one of
// the generic browser tokens (Mozilla, AppleWebKit, KHTML, Gecko, Chrome,
// Safari, ...); cut to the characters a product token may hold (letters,
// "-" and "_"). This is a heuristic, since User-Agent headers follow no
// grammar in practice: crawlers that know their token should pass it
// directly.
//
// It returns "" when the header names no crawler (a plain browser header).
// Do not pass "" to Allowed: the empty token names the groups whose
// user-agent value has no token ("User-agent:" with no value), not "*".
func ProductToken(userAgent string) string {
	if _, after, ok := strings.Cut(userAgent, "compatible;"); ok {
		for _, f := range strings.FieldsFunc(after, isUASeparator) {
			name, _, product := strings.Cut(f, "/")
			if name = name[:tokenLen(name)]; product && name != "" && !isGenericToken(name) {
				return name
			}
		}
	}
	var word string
	for _, f := range strings.FieldsFunc(userAgent, isUASeparator) {
		name, _, product := strings.Cut(f, "/")
		name = name[:tokenLen(name)]
		if name == "" || isGenericToken(name) {
			continue // "+http://...", "5.0", "Mozilla/5.0", ...
		}
		if product {
			return name
		}
		if word == "" {
			word = name
		}
	}
	return word
}

// CrawlerToken returns the token to ask a file's groups with for agent, a
// crawler named by a person or a configuration: the one rule of this
// module's front ends (the robotstxt command, its tester page, fetch.Cache
// and fetch.Transport), so that they all answer the same agent alike.
//
//   - "*", or a product token (letters, "-" and "_", such as "GPTBot"), is
//     returned as given, with no warning.
//   - A value with "/", whitespace, ";", "(" or ")" is a User-Agent header
//     ("GPTBot/1.2 (+https://openai.com/gptbot)"): asked as given it would
//     match no group and silently get the answers of "*", so its
//     ProductToken ("GPTBot") is returned, with a warning that says so. If
//     it names no crawler ("Mozilla/5.0 (X11)"), err says so.
//   - Any other value ("MJ12bot") is returned as given, as Google's matcher
//     asks it, with a warning that no user-agent line can name it (a line
//     "User-agent: MJ12bot" names "MJ"), so only the groups for "*" answer.
//   - "" is an error: the empty token names no crawler.
//
// The warning, if any, is a sentence about agent for a front end to show;
// callers that show nothing may ignore it.
func CrawlerToken(agent string) (token, warning string, err error) {
	switch {
	case agent == "":
		return "", "", errors.New(`robots: the agent is empty: give a product token, such as "Googlebot"`)
	case agent == "*" || tokenLen(agent) == len(agent):
		return agent, "", nil
	case strings.ContainsAny(agent, "/;()") || strings.ContainsFunc(agent, unicode.IsSpace):
		token = ProductToken(agent)
		if token == "" {
			return "", "", fmt.Errorf("robots: the agent %q names no crawler (a browser's User-Agent header?): give its product token, such as \"Googlebot\"", agent)
		}
		return token, fmt.Sprintf("%q is a User-Agent header, not a product token: asking as %q", agent, token), nil
	}
	return agent, fmt.Sprintf("%q is not a product token (letters, \"-\" and \"_\"): no user-agent line can name it, so the groups for \"*\" answer", agent), nil
}

// tokenLen returns the length of the product token that s starts with.
func tokenLen(s string) int {
	i := 0
	for i < len(s) && isTokenChar(s[i]) {
		i++
	}
	return i
}

// isUASeparator reports whether c separates the products and comments of a
// User-Agent header.
func isUASeparator(c rune) bool {
	return c == ' ' || c == '\t' || c == ';' || c == '(' || c == ')' || c == ','
}

// genericTokens are the products and words of browser User-Agent headers
// that do not name a crawler.
var genericTokens = []string{
	"mozilla", "applewebkit", "khtml", "like", "gecko", "compatible",
	"chrome", "safari", "mobile", "version", "linux", "android", "windows",
	"nt", "win", "x", "macintosh", "intel", "mac", "os", "iphone", "cpu",
	"u", "en", "wow", "firefox", "edg", "opera", "headlesschrome",
}

// isGenericToken reports whether name is one of genericTokens.
func isGenericToken(name string) bool {
	return slices.ContainsFunc(genericTokens, func(t string) bool { return equalFoldASCII(name, t) })
}

// agentToken returns the token a user-agent value is matched with.
//
// A value is global if it is "*", or "*" followed by whitespace and anything
// ("* foo", which Google's reference parser accepts). Otherwise only its
// leading product token counts:
//
//	token = 1*( ALPHA | "-" | "_" )
//
// so "Googlebot/2.1" is "Googlebot", "Foo Bar" is "Foo" and "MJ12bot" is
// "MJ". A value that starts with another character gives the empty token,
// which names nobody who gives a real product token.
func agentToken(v string) string {
	if len(v) > 0 && v[0] == '*' && (len(v) == 1 || isSpace(v[1])) {
		return "*"
	}
	return v[:tokenLen(v)]
}

// A namedGroup is the group of a product token, which is written in the
// kept text of its file as in one of its lines: the tokens are sorted, and
// compared, ignoring ASCII case. Its bits, from the least significant: the
// offset of the token (srcOffBits), its length (srcLenBits), and the ref of
// its group, which is record ref alone, if ref >= 0, or else multi[^ref] of
// the file (fewer than 1<<27 of either: a line is at least a byte).
type namedGroup uint64

// newNamedGroup returns the namedGroup of the token of n bytes at off and
// the group ref.
func newNamedGroup(off uint32, n int, ref int32) namedGroup {
	return namedGroup(off) | namedGroup(n)<<srcLenShift | namedGroup(uint64(int64(ref))<<namedRefShift)
}

// namedRefShift is the shift of the ref of a namedGroup, signed.
const namedRefShift = srcLenShift + srcLenBits

// token returns the token of g, as written in text.
func (g namedGroup) token(text string) string {
	off := uint32(g & (1<<srcOffBits - 1))
	return text[off : off+g.tokenLen()]
}

// tokenLen returns the length of the token of g.
func (g namedGroup) tokenLen() uint32 { return uint32(g >> srcLenShift & (1<<srcLenBits - 1)) }

// ref returns the ref of the group of g.
func (g namedGroup) ref() int32 { return int32(int64(g) >> namedRefShift) }

// lookup returns the group whose token equals agent, ignoring ASCII case,
// and whether there is one. It does not allocate.
func (r *Robots) lookup(agent string) (Group, bool) {
	var g Group
	ref, ok := r.lookupRef(agent)
	if ok {
		r.refGroup(ref, &g)
	}
	return g, ok
}

// lookupRef returns the ref of the group whose token equals agent,
// ignoring ASCII case, and whether there is one.
//
// A file naming up to linearNamed tokens (most do) is scanned in order,
// comparing lengths first, so that most tokens are passed over without
// reading them; more are searched by halves.
func (r *Robots) lookupRef(agent string) (int32, bool) {
	if len(r.named) <= linearNamed {
		for _, g := range r.named {
			if g.tokenLen() == uint32(len(agent)) && equalFoldASCII(g.token(r.text), agent) {
				return g.ref(), true
			}
		}
		return 0, false
	}
	lo, hi := 0, len(r.named)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := compareLower(r.named[mid].token(r.text), agent); {
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

// linearNamed is the number of tokens up to which lookupRef scans them in
// order: a scan that passes over tokens of other lengths costs less than
// a binary search, whose every step compares bytes, up to about this many.
const linearNamed = 8

// refOrGlobal sets *g to the group of ref if named, else to the group of
// the records that name "*"; ref and named are what lookupRef returned.
func (r *Robots) refOrGlobal(ref int32, named bool, g *Group) {
	if named {
		r.refGroup(ref, g)
	} else {
		r.globalGroup(g)
	}
}

// refGroup sets *g to the group of a namedGroup's ref. Groups are built
// in place, rather than returned, since the questions of Robots build one
// each: a Group is six words.
func (r *Robots) refGroup(ref int32, g *Group) {
	if ref < 0 {
		r.more.multi[^ref].group(r, g)
		return
	}
	r.single(ref, true, g)
}

// globalGroup sets *g to the group of the records that name "*".
func (r *Robots) globalGroup(g *Group) {
	switch ref := r.global; {
	case ref == 0:
		*g = Group{file: r}
	case ref < 0:
		r.more.multi[^ref].group(r, g)
	default:
		r.single(ref-1, false, g)
	}
}

// single sets *g to the group of record rec alone.
func (r *Robots) single(rec int32, named bool, g *Group) {
	*g = Group{file: r, recLo: rec, recN: 1, named: named, ruled: r.sets[rec]&recSetRuled != 0}
	r.recSet(rec, &g.set)
}

// recSet sets *s to the compiled rules of record rec alone.
func (r *Robots) recSet(rec int32, s *ruleSet) {
	rs := r.sets[rec]
	s.file, s.lo, s.n, s.big = r, int32(rs>>recSetLo), int32(rs&recSetBig), nil
	switch s.n {
	case recSetBig:
		b := &r.more.bigs[s.lo]
		s.lo, s.n, s.big = b.lo, b.n, b.big
	case recSetLines:
		s.lo, s.n = ^rec, s.lo
	}
}

// A moreGroups holds the groups of several records of a file, and the
// layouts of its sets of more than smallSet rules.
type moreGroups struct {
	// multi holds the groups of several records, and recs their lists of
	// records (Group.records).
	multi []multiGroup
	recs  []int32
	// bigs holds the records' own sets of more than smallSet rules, which
	// their recSet indexes.
	bigs []bigOf
}

// A multiGroup is a Group of several records as moreGroups keeps it, in
// 40 bytes rather than 56: without its file, the file that keeps it, and
// its policy, that of a parsed file.
type multiGroup struct {
	lo, n                      int32
	big                        *lazyLayout
	recLo, recN, restLo, restN int32
	named, ruled, split        bool
}

// newMultiGroup returns the multiGroup of g, a group of several records.
func newMultiGroup(g *Group) multiGroup {
	return multiGroup{lo: g.set.lo, n: g.set.n, big: g.set.big, recLo: g.recLo, recN: g.recN,
		restLo: g.restLo, restN: g.restN, named: g.named, ruled: g.ruled, split: g.split}
}

// group sets *g to the group of mg, of file r.
func (mg *multiGroup) group(r *Robots, g *Group) {
	*g = Group{set: ruleSet{file: r, lo: mg.lo, n: mg.n, big: mg.big}, file: r, recLo: mg.recLo, recN: mg.recN,
		restLo: mg.restLo, restN: mg.restN, named: mg.named, ruled: mg.ruled, split: mg.split}
}

// A bigOf is the set of a record of more than smallSet rules: n rules from
// lo in Robots.compiled, and their layout (moreGroups.bigs).
type bigOf struct {
	lo, n int32
	big   *lazyLayout
}

// compareLower compares token with s, both lower-cased, as strings.Compare
// does.
func compareLower(token, s string) int {
	n := min(len(token), len(s))
	for i := 0; i < n; i++ {
		if a, b := lower(token[i]), lower(s[i]); a != b {
			if a < b {
				return -1
			}
			return 1
		}
	}
	return cmp.Compare(len(token), len(s))
}
