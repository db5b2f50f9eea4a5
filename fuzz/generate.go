package fuzz

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
)

// A Case is a generated robots.txt file with questions about it.
type Case struct {
	Robots  []byte
	Queries []Query
}

// A Query asks whether any of Agents may fetch URL.
type Query struct {
	Agents []string
	URL    string
}

// Generate returns the case for seed. The same seed gives the same case on
// every platform and Go version (math/rand/v2's PCG is specified).
//
// The files follow the robots.txt grammar loosely enough to reach its
// corners: user-agent values with mixed case, "*", "* foo", "*foo",
// versions, digits, spaces and non-ASCII; allow and disallow patterns with
// "*", "$" at the end and inside, %xx in both cases, raw and invalid UTF-8,
// NUL; misspelt and prefixed keys; lines without a colon; comments
// everywhere; blank, sitemap and unknown lines between user-agent lines;
// whole, partial and broken byte order marks; LF, CR, CRLF and CR CR LF;
// lines around the 16,663-byte limit; rarely, files around the 500 KiB cap.
// The URLs are derived mostly from the file's own patterns, so that they
// match often.
func Generate(seed uint64) Case {
	g := &generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	g.file()
	return Case{Robots: g.b, Queries: g.queries(3 + g.r.IntN(6))}
}

// QueriesFor returns n questions about an arbitrary robots.txt body, derived
// from the user-agent values and patterns found in it.
func QueriesFor(body []byte, seed uint64, n int) []Query {
	g := &generator{r: rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))}
	g.scan(body)
	return g.queries(n)
}

// generator builds one file in b, remembering the agents and patterns it
// wrote so that the questions can be about them.
type generator struct {
	r        *rand.Rand
	b        []byte
	eol      string   // line ending of the file, or "" for a mix
	agents   []string // user-agent values as written
	patterns []string // allow and disallow values as written
}

// pick returns one of xs.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// chance reports true with probability p.
func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

func (g *generator) file() {
	g.bom()
	g.eol = pick(g.r, "\n", "\n", "\n", "\r\n", "\r\n", "\r", "")
	if g.chance(0.1) {
		// A tiny file: one group, a rule or two, nothing else, where the
		// patterns are most of the bytes.
		g.directive(g.userAgentKey(), g.agentValue())
		g.rules(1 + g.r.IntN(2))
		return
	}
	if g.chance(0.3) {
		g.extras(1 + g.r.IntN(3)) // before any group
	}
	if g.chance(0.15) {
		g.rules(1 + g.r.IntN(2)) // rules outside any group
	}
	for n := 1 + g.r.IntN(5); n > 0; n-- {
		g.group()
	}
	if g.chance(0.3) {
		g.extras(1 + g.r.IntN(3))
	}
	if g.chance(0.005) {
		g.longLine()
	}
	if g.chance(0.0005) {
		g.huge()
	}
	if g.chance(0.25) {
		// No final line break.
		g.b = bytes.TrimRight(g.b, "\r\n")
	}
}

// bom writes, sometimes, a byte order mark or a piece of one.
func (g *generator) bom() {
	if g.chance(0.85) {
		return
	}
	g.b = append(g.b, pick(g.r,
		utf8BOM, utf8BOM, "\xEF", "\xEF\xBB", // skipped
		"\xEF\x11\xBF", "\xEF\xBB\x00", "\xBB\xBF", // broken: the rest is data
		utf8BOM+utf8BOM, // the second one is data
	)...)
}

// line ends the current line.
func (g *generator) line() {
	if g.eol != "" {
		g.b = append(g.b, g.eol...)
		return
	}
	g.b = append(g.b, pick(g.r, "\n", "\n", "\r\n", "\r\n", "\r", "\r\r\n", "\n\r")...)
}

// group writes one to three user-agent lines and up to eight rules, with
// other lines between them.
func (g *generator) group() {
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		g.directive(g.userAgentKey(), g.agentValue())
		if g.chance(0.2) {
			g.extras(1)
		}
	}
	g.rules(g.r.IntN(9))
	if g.chance(0.3) {
		g.b = append(g.b, pick(g.r, "", "", " ", "\t")...)
		g.line() // blank line between groups, which ends nothing
	}
}

func (g *generator) rules(n int) {
	for ; n > 0; n-- {
		if g.chance(0.5) {
			g.directive(g.allowKey(), g.pattern())
		} else {
			g.directive(g.disallowKey(), g.pattern())
		}
		if g.chance(0.15) {
			g.extras(1)
		}
	}
}

// extras writes n lines that are not user-agent or rule lines.
func (g *generator) extras(n int) {
	for ; n > 0; n-- {
		switch g.r.IntN(5) {
		case 0:
			g.b = append(g.b, pick(g.r, "", " ", "\t", "\v", "\f")...)
			g.line()
		case 1:
			g.b = append(g.b, g.comment()...)
			g.line()
		case 2:
			g.directive(pick(g.r, "Sitemap", "sitemap", "SITEMAP", "site-map", "Sitemaps", "Site-Map"),
				pick(g.r, "https://example.com/sitemap.xml", "/s.xml", "", "https://ja.example.org/テスト.xml", "http://x/a b"))
		case 3:
			g.directive(pick(g.r, "Crawl-delay", "crawl-delay", "Host", "Clean-param", "Request-rate",
				"Visit-time", "Noindex", "Content-Signal", "X-Robots", "User", "Agent", "Dis", "Sitemapx"),
				pick(g.r, "10", "example.com", "ref /a", "1/5", "search=yes", "/private", ""))
		case 4:
			// Lines that look like directives but are not.
			g.b = append(g.b, pick(g.r,
				"<html><body>", "</p>", "disallow /a /b", "user-agent foo bar", ": /x",
				"user agent FooBot", "dis allow: /", "Disallow", "-", "\xEF\xBB\xBF# bom in the middle",
				"allow\u00a0/a", "\u00a0disallow: /", "\x00disallow: /", "disallow\x00: /",
			)...)
			g.line()
		}
	}
}

// comment returns a comment, which may contain anything but a line break.
func (g *generator) comment() string {
	return pick(g.r, "#", "# comment", "#user-agent: *", "# disallow: /", "#\t:x", "## é \xff", "# \x00 nul")
}

// directive writes one key/value line with a random separator, spacing and
// trailing comment.
func (g *generator) directive(key, value string) {
	if g.chance(0.1) {
		g.b = append(g.b, pick(g.r, " ", "\t", "  ", "\v")...)
	}
	g.b = append(g.b, key...)
	switch g.r.IntN(12) {
	case 0:
		g.b = append(g.b, ' ') // no colon: two or three words
	case 1:
		g.b = append(g.b, '\t')
	case 2:
		g.b = append(g.b, " : "...)
	case 3:
		g.b = append(g.b, ":\t"...)
	case 4:
		g.b = append(g.b, ':')
	case 5:
		g.b = append(g.b, ":  "...)
	default:
		g.b = append(g.b, ": "...)
	}
	g.b = append(g.b, value...)
	if g.chance(0.05) {
		g.b = append(g.b, pick(g.r, " ", "\t", " \t ", "\u00a0")...)
	}
	if g.chance(0.15) {
		g.b = append(g.b, pick(g.r, " ", "", "\t")...)
		g.b = append(g.b, g.comment()...)
	}
	g.line()
}

// mixCase changes the case of some ASCII letters of s.
func (g *generator) mixCase(s string) string {
	switch g.r.IntN(4) {
	case 0:
		return strings.ToUpper(s)
	case 1:
		return strings.ToLower(s)
	case 2:
		b := []byte(s)
		for i, c := range b {
			if g.chance(0.5) {
				if 'a' <= c && c <= 'z' {
					b[i] = c - 32
				} else if 'A' <= c && c <= 'Z' {
					b[i] = c + 32
				}
			}
		}
		return string(b)
	}
	return s
}

func (g *generator) userAgentKey() string {
	if g.chance(0.8) {
		return pick(g.r, "User-agent", "user-agent", "User-Agent")
	}
	return g.mixCase(pick(g.r, "user-agent", "useragent", "user agent", "User-agents", "user-agent-x", "user_agent", "usera-gent", "agent"))
}

func (g *generator) allowKey() string {
	if g.chance(0.8) {
		return pick(g.r, "Allow", "allow")
	}
	return g.mixCase(pick(g.r, "allow", "Allowed", "allows", "alow", "allow-x", "alloww"))
}

func (g *generator) disallowKey() string {
	if g.chance(0.75) {
		return pick(g.r, "Disallow", "disallow")
	}
	return g.mixCase(pick(g.r, "Disallowed", "dissallow", "dissalow", "disalow", "diasllow",
		"disallaw", "diaslow", "disalllow", "dis-allow", "Disallow-x", "disallo"))
}

// agentNames are product tokens, some shared with the questions' defaults.
var agentNames = []string{
	"Googlebot", "googlebot-news", "Googlebot-Image", "bingbot", "FooBot", "MJ12bot",
	"Mediapartners-Google", "Baiduspider-image", "GPTBot", "a", "x_y", "AdsBot-Google",
	"Slurp", "Yandex", "123", "bot.example", "bot~1", "ia_archiver", "-", "_",
}

// agentValue returns a user-agent value and remembers it.
func (g *generator) agentValue() string {
	name := pick(g.r, agentNames...)
	var v string
	switch g.r.IntN(16) {
	case 0, 1, 2:
		v = "*"
	case 3:
		v = pick(g.r, "* foo", "*\tbar", "* ", "*foo", "*/1.0", "**", "*\xA0x", "*\x85")
	case 4:
		v = name + pick(g.r, "/2.1", "/1.0 (+http://example.com/bot)", "/")
	case 5:
		v = name + pick(g.r, " Bar", " *", "  2")
	case 6:
		v = name + strconv.Itoa(g.r.IntN(100))
	case 7:
		v = pick(g.r, "", "Bötbot", "\u00a0"+name, name+"\u00a0", "é", name+"\x00x", name+"*", "\xff"+name)
	default:
		v = g.mixCase(name)
	}
	g.agents = append(g.agents, v)
	return v
}

// words are path pieces; few enough that URLs and patterns overlap.
var words = []string{
	"a", "b", "ab", "fish", "Fish", "x.php", "page", "cgi-bin", "private", "index.html",
	"index.htm", "search", "q", "tmp", "A", "1",
}

// pattern returns an allow or disallow value and remembers it.
func (g *generator) pattern() string {
	var b strings.Builder
	switch g.r.IntN(20) {
	case 0:
		// Empty: matches everything with priority 0.
	case 1:
		b.WriteString("*")
	case 2:
		b.WriteString(pick(g.r, "a", "fish", "?", "%2F", "é"))
	case 3:
		b.WriteString(pick(g.r, "/index.html", "/d/index.htm", "/a/index.html5", "/index.htmx", "/*/index.html", "index.html"))
	default:
		b.WriteByte('/')
	}
	for n := g.r.IntN(4); n > 0; n-- {
		switch g.r.IntN(24) {
		case 0, 1:
			b.WriteByte('*')
		case 2:
			b.WriteByte('$') // a '$' before the end is a literal
		case 3:
			b.WriteString(g.hexEscape())
		case 4:
			b.WriteString(pick(g.r, "é", "ü", "日本", "\u00a0", "日本語のページ", "ééééééé"))
		case 5:
			b.WriteString(pick(g.r, "\xff", "\xc3", "\xe6\x97", "\x80\x80"))
		case 6:
			b.WriteString(pick(g.r, "%", "%z", "%zz", "%%41", "%4"))
		case 7:
			b.WriteString(pick(g.r, "?", "?q=", "&", ";", "=", "?id=*"))
		case 8:
			b.WriteString(pick(g.r, " ", "  x", ":", "\"", "<", "|"))
		case 9:
			if g.chance(0.3) {
				b.WriteString("\x00x") // NUL ends the line
			} else {
				b.WriteString("//")
			}
		case 10, 11, 12:
			b.WriteString(pick(g.r, words...))
			b.WriteByte('/')
		default:
			b.WriteString(pick(g.r, words...))
		}
	}
	switch g.r.IntN(8) {
	case 0, 1:
		b.WriteByte('$')
	case 2:
		b.WriteByte('*')
	case 3:
		b.WriteByte('/')
	}
	p := b.String()
	g.patterns = append(g.patterns, p)
	return p
}

// hexEscape returns %xx with digits and letters of both cases.
func (g *generator) hexEscape() string {
	const digits = "0123456789abcdefABCDEF"
	return "%" + string(digits[g.r.IntN(len(digits))]) + string(digits[g.r.IntN(len(digits))])
}

// longLine writes a rule line of about 16,663 bytes, the longest line the
// reference keeps, so that the cut falls inside, just before or just after
// the pattern's end.
func (g *generator) longLine() {
	prefix := pick(g.r, "Disallow: /", "Allow: /", "User-agent: ", "# ")
	unit := pick(g.r, "a", "a", "a", "x", "x", "x", "é", "é", "/*")
	n := maxLineLen + g.r.IntN(9) - 4 - len(prefix)
	body := strings.Repeat(unit, n/len(unit)+1)[:n]
	tail := pick(g.r, "", "$", "b", "*", "\x00")
	if strings.HasSuffix(prefix, "/") {
		v := "/" + body + tail
		g.patterns = append(g.patterns, v, "/"+body[:len(body)/2])
		g.cutPatterns(v, maxLineLen-(len(prefix)-1))
	}
	g.b = append(g.b, prefix...)
	g.b = append(g.b, body...)
	g.b = append(g.b, tail...)
	g.line()
}

// huge pads the file to about MaxSize bytes and writes a group whose rule
// straddles the cap.
func (g *generator) huge() {
	agent := pick(g.r, "FooBot", "*", "Googlebot")
	g.agents = append(g.agents, agent)
	g.b = append(g.b, "User-agent: "+agent+"\n"...)
	var target int
	switch g.r.IntN(4) {
	case 0:
		target = maxSize - 100 + g.r.IntN(50) // the whole file is read
	case 1:
		target = maxSize - 30 + g.r.IntN(60)
	default:
		target = maxSize - len("\nDisallow: ") - 1 - g.r.IntN(16) // the cap cuts the next pattern
	}
	filler := pick(g.r, "Disallow: /filler/*/x$\n", "# padding padding padding\n", "Allow: /a\n")
	for len(g.b)+len(filler) < target {
		g.b = append(g.b, filler...)
	}
	for len(g.b) < target {
		g.b = append(g.b, ' ')
	}
	p := "/" + pick(g.r, "cap", "fish", "a") + "/beyond/the/cap"
	g.patterns = append(g.patterns, p)
	g.b = append(g.b, "\nDisallow: "...)
	g.cutPatterns(p, maxSize-len(g.b))
	g.b = append(g.b, p+"\nDisallow: /\n"...)
}

// cutPatterns remembers, several times over, the exact paths one byte short
// of, at, and one byte past kept bytes of the pattern p, when the file
// keeps only that many: the URLs that tell an off-by-one cut.
func (g *generator) cutPatterns(p string, kept int) {
	for k := kept - 1; k <= kept+1; k++ {
		if 0 < k && k <= len(p) {
			for range 3 {
				g.patterns = append(g.patterns, p[:k]+"$")
			}
		}
	}
}

// scan collects user-agent values and patterns from an arbitrary body,
// loosely: whatever follows a key that looks like one.
func (g *generator) scan(body []byte) {
	for len(body) > 0 {
		var line []byte
		if i := bytes.IndexAny(body, "\r\n"); i >= 0 {
			line, body = body[:i], body[i+1:]
		} else {
			line, body = body, nil
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		k := strings.ToLower(strings.TrimSpace(string(key)))
		v := strings.TrimSpace(string(value))
		switch {
		case strings.HasPrefix(k, "user"):
			g.agents = append(g.agents, v)
		case strings.Contains(k, "allow") || strings.HasPrefix(k, "dis"):
			if len(g.patterns) < 1000 {
				g.patterns = append(g.patterns, v)
			}
		}
	}
}

// defaultAgents are asked about whatever the file says.
var defaultAgents = []string{"Googlebot", "Googlebot-Image", "bingbot", "GPTBot", "FooBot"}

// queries returns n questions about the agents and patterns seen.
func (g *generator) queries(n int) []Query {
	qs := make([]Query, n)
	for i := range qs {
		qs[i].Agents = []string{g.agent()}
		if g.chance(0.1) {
			qs[i].Agents = append(qs[i].Agents, g.agent())
		}
		qs[i].URL = g.url()
	}
	return qs
}

// agent returns a caller's agent: mostly one named in the file, as written,
// cut to its token, or with its case changed.
func (g *generator) agent() string {
	if len(g.agents) == 0 || g.chance(0.25) {
		if g.chance(0.02) {
			return pick(g.r, "", "Googlebot/2.1", "Mozilla/5.0", "*", "\u212a")
		}
		return pick(g.r, defaultAgents...)
	}
	v := pick(g.r, g.agents...)
	switch g.r.IntN(4) {
	case 0:
		i := 0
		for i < len(v) && isRefAgentByte(v[i]) {
			i++
		}
		v = v[:i]
	case 1:
		v = g.mixCase(v)
	}
	if v == "" || v == "*" || strings.HasPrefix(v, "* ") {
		return pick(g.r, defaultAgents...)
	}
	return v
}

// commonPaths are asked about whatever the file says.
var commonPaths = []string{
	"/", "/a", "/fish", "/fish.html", "/Fish.asp", "/index.html", "/d/", "/d/index.html",
	"/x.php?a=1", "/private/", "/cgi-bin/a", "", "?q", ";p", "/robots.txt", "/robots.txt?x",
	"/robots.txtx", "/%2F", "/%2f", "/%C3%A9", "/é", "/a%20b", "/$", "/*",
}

// url returns a URL, mostly derived from a pattern of the file.
func (g *generator) url() string {
	var p string
	if len(g.patterns) == 0 || g.chance(0.2) {
		p = pick(g.r, commonPaths...)
	} else {
		p = g.pathFor(pick(g.r, g.patterns...))
	}
	if g.chance(0.1) {
		p += pick(g.r, ";jsessionid=1", ";", ";a=b/c")
	}
	if g.chance(0.15) {
		p += pick(g.r, "?a=1&b=2", "?", "?q=/x/", "?%2f", "??")
	}
	if g.chance(0.1) {
		p += pick(g.r, "#frag", "#", "#/a?b", "#%2F")
	}
	if strings.HasPrefix(p, "/") && g.chance(0.15) {
		return p // a bare path
	}
	if g.chance(0.05) && !strings.HasPrefix(p, "/") {
		return p // no scheme, no authority: the first segment is an authority
	}
	host := "example.com"
	if g.chance(0.02) {
		host = pick(g.r, "exämple.com", "xn--exmple-cua.com", "[::1]", "a:b@")
	}
	return pick(g.r,
		"https://", "https://", "https://", "http://", "//", "", "ftp://",
		"http://user:pw@", "https://u@",
	) + host + pick(g.r, "", "", "", ":8080", ":443", ":") + p
}

// pathFor returns a path that the pattern p, or a near miss of it, matches.
func (g *generator) pathFor(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '*':
			b.WriteString(pick(g.r, "", "", "x", "/y/", "a.php", "?q=1", "fish", "*"))
		case c == '$' && i == len(p)-1:
			if g.chance(0.3) {
				b.WriteString(pick(g.r, "x", "/", "?"))
			}
		case c == '%' && i+2 < len(p) && isHex(p[i+1]) && isHex(p[i+2]):
			esc := p[i : i+3]
			if g.chance(0.3) {
				esc = pick(g.r, strings.ToUpper(esc), strings.ToLower(esc))
			}
			b.WriteString(esc)
			i += 2
		case c >= 0x80:
			if g.chance(0.9) {
				b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16)) +
					strings.ToUpper(strconv.FormatUint(uint64(c)&15, 16)))
			} else {
				b.WriteByte(c) // raw: the caller should have escaped it
			}
		case c == '%':
			// A '%' without two hex digits is a literal for the pattern;
			// a URL would carry it as %25, or as is.
			b.WriteString(pick(g.r, "%25", "%"))
		case c == ' ':
			b.WriteString(pick(g.r, "%20", " "))
		case c == 0:
			return b.String()
		default:
			b.WriteByte(c)
		}
	}
	s := b.String()
	switch g.r.IntN(8) {
	case 0:
		if len(s) > 1 {
			s = s[:1+g.r.IntN(len(s)-1)] // cut short
		}
	case 1:
		s += pick(g.r, "x", "/", ".html", "index.html", "/index.html", "$")
	case 2:
		s = g.mixCase(s)
	case 3:
		s = strings.Replace(s, "/", "//", 1)
	}
	if !strings.HasPrefix(s, "/") && g.chance(0.7) {
		s = "/" + s
	}
	return s
}
