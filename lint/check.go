// Package lint checks a robots.txt file as Google reads it: Check reports
// what in it is wrong, ignored by Google or likely to surprise its author,
// each finding a Diagnostic of a stable Code and a Severity; KnownCrawlers
// is the table of AI and search crawlers it names, which the robotstxt
// command's audit asks. It reads a file as robots.Parse does, and changes
// nothing robots.Parse does.
//
//	for _, d := range lint.Check(body) {
//		fmt.Println(d) // robots: line 3: key "Disalow" is read as "disallow" ...
//	}
package lint

// Check: each line as the parser reads it, as Google does (package lines);
// then, over the rules compiled as the engine compiles them (package
// ruleset), the rules of each group that never decide.

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
	"github.com/gorep/robots/internal/values"
)

// Check reads the body of a robots.txt file as robots.Parse does and reports what
// in it is wrong, ignored by Google or likely to surprise its author, with
// the 1-based line of each finding; the constants of type Code list them.
// Check never fails; a file without findings gives an empty list. The
// findings are about the file alone: they change nothing robots.Parse does.
func Check(data []byte) Diagnostics {
	var c checker
	s := string(data)
	if len(s) > robots.MaxSize {
		c.add(lineAt(s, robots.MaxSize), SeverityError, CodeTooLarge,
			"the file is "+strconv.Itoa(len(s))+" bytes long: only the first "+strconv.Itoa(robots.MaxSize)+
				" (500 KiB) are read, and the rest from here on is ignored")
		s = s[:robots.MaxSize]
	}
	c.check(s, data)
	return c.diags
}

// A line is what the parser makes of one physical line.
type line struct {
	n          int // its 1-based number
	text       string
	kind       lines.Kind
	key, value string
	// newRecord reports that a user-agent line started a record; kept,
	// that an allow or disallow line belongs to a record.
	newRecord, kept bool
}

// check checks body, the first robots.MaxSize bytes of data.
func (c *checker) check(body string, data []byte) {
	s := lines.SkipBOM(body)
	if nuls := strings.Count(s[:min(len(s), binarySniffLen)], "\x00"); nuls >= binaryNULs {
		c.binary = true
		msg := "the file is not text (" + strconv.Itoa(nuls) + " NUL bytes in its first " + strconv.Itoa(binarySniffLen) + "): it is not a robots.txt file"
		if strings.HasPrefix(s, "\xFF\xFE") || strings.HasPrefix(s, "\xFE\xFF") {
			msg = "the file is UTF-16 text: a robots.txt file must be UTF-8 encoded, and Google reads nothing from it"
		}
		c.add(1, SeverityError, CodeBinary, msg)
	}
	if c.html = looksLikeHTML(s); c.html {
		start := len(s) - len(strings.TrimLeft(s, " \t\n\v\f\r")) // isspace
		c.add(lineAt(s, start), SeverityError, CodeHTML,
			"the file looks like an HTML page, not a robots.txt file: only lines that happen to be directives are read")
	}
	ls := lines.NewScanner(s)
	for ls.Next() {
		l := line{n: ls.Num(), text: ls.Text()}
		l.kind, l.key, l.value = lines.SplitDirective(ls.Content())
		c.directive(&l)
		c.line(l)
	}
	c.more(robots.Parse(data))
	// The rules of each record, compiled as the engine compiles a group's,
	// every one kept.
	var src ruleset.Source
	src.SetText(string(c.text), uint32(len(c.text)), uint32(len(c.text)))
	sc := ruleset.KeepAll()
	for i, rules := range c.rules {
		var s ruleset.Set
		ruleset.Compile(&s, &src, rules, &sc)
		c.checkRules(&s, src.Text(), c.global[i])
	}
	slices.SortStableFunc(c.diags, func(a, b Diagnostic) int { return a.Line - b.Line })
}

// lineAt returns the 1-based number of the line of s that holds byte off,
// counting line breaks as Parse does (LF, CR, CRLF).
func lineAt(s string, off int) int {
	s = s[:min(off, len(s))]
	return 1 + strings.Count(s, "\n") + strings.Count(s, "\r") - strings.Count(s, "\r\n")
}

// A body is binary when its first binarySniffLen bytes hold binaryNULs NUL
// bytes or more (text files have none, or one by mistake).
const binarySniffLen, binaryNULs, htmlSniffLen = 1024, 4, 1024

// looksLikeHTML reports whether the body s is an HTML page, as a site serves
// its home or error page for /robots.txt: it starts with "<" and names an
// element every page has near its start.
func looksLikeHTML(s string) bool {
	s = lines.TrimSpace(s)
	head := lines.LowerASCII(s[:min(len(s), htmlSniffLen)])
	return strings.HasPrefix(s, "<") && slices.ContainsFunc([]string{"<!doctype html", "<html", "<head", "<body", "<title"},
		func(tag string) bool { return strings.Contains(head, tag) })
}

// line checks a line, after the parser has read it.
func (c *checker) line(l line) {
	n, s := l.n, l.text
	if len(s) > lines.MaxLineLen {
		c.add(n, SeverityError, CodeLineTooLong, "the line is "+strconv.Itoa(len(s))+
			" bytes long: only the first "+strconv.Itoa(lines.MaxLineLen)+" are read")
		s = s[:lines.MaxLineLen]
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		if !c.binary {
			c.add(n, SeverityError, CodeNULByte, "a NUL byte at column "+strconv.Itoa(i+1)+" ends the line: the rest is ignored")
		}
		s = s[:i]
	}
	if !c.binary {
		if i := strings.Index(s, lines.UTF8BOM); i >= 0 {
			msg := "a byte order mark inside the file is read as data"
			if lines.TrimSpace(s[:i]) == "" {
				msg += ": the line's key is not recognised"
			}
			c.add(n, SeverityWarning, CodeMisplacedBOM, msg)
		}
		if !utf8.ValidString(s) {
			c.add(n, SeverityWarning, CodeInvalidUTF8, "the line is not valid UTF-8: a robots.txt file must be UTF-8 encoded")
		}
	}
	kind, key, value := l.kind, l.key, l.value
	content, _, _ := strings.Cut(s, "#")
	if kind == lines.KindNone {
		if lines.TrimSpace(content) != "" && !c.html && !c.binary {
			c.add(n, SeverityWarning, CodeInvalidLine, "the line is not a key, a colon and a value: it is ignored")
		}
		return
	}
	if (kind == lines.KindAllow || kind == lines.KindDisallow || kind == lines.KindSitemap) && strings.ContainsAny(key, " \t") {
		// "Disallow https://example.com/a": the first colon is the URL's.
		word, _ := values.CutSpace(key)
		c.add(n, SeverityWarning, CodeMissingColon, "no colon after "+quoteValue(word)+": the key read is "+quoteValue(key)+
			" and the value "+quoteValue(value))
	} else if kind != lines.KindOther && !lines.EqualFold(key, lines.Keys[kind][0]) {
		c.add(n, SeverityWarning, CodeTypo, "key "+quoteValue(key)+" is read as "+quoteValue(lines.Keys[kind][0])+
			" by Google, but other crawlers may ignore the line")
	}
	if kind != lines.KindOther && strings.IndexByte(content, ':') < 0 {
		c.add(n, SeverityWarning, CodeMissingColon, "no colon after "+quoteValue(key)+
			": Google reads the line, but other crawlers may not")
	}
	switch kind {
	case lines.KindUserAgent:
		c.userAgent(l)
	case lines.KindAllow, lines.KindDisallow:
		c.rule(l)
	default: // sitemap or other: not a rule, so it does not end a group
		if kind == lines.KindOther {
			c.other(n, key, value)
		} else if u, err := url.Parse(value); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			c.add(n, SeverityWarning, CodeSitemapURL, "sitemap "+quoteValue(value)+" is not an absolute http or https URL")
		}
		if len(c.rules) > 0 && !c.ruled {
			c.between, c.betweenKey = n, key
		}
	}
}

func (c *checker) userAgent(l line) {
	n, value := l.n, l.value
	switch {
	case l.newRecord:
		c.recordLine, c.delayLine = n, 0
	case c.between > 0:
		c.add(n, SeverityWarning, CodeGroupNotEnded, "this user-agent line joins the group of line "+
			strconv.Itoa(c.recordLine)+": the "+quoteValue(c.betweenKey)+" line "+strconv.Itoa(c.between)+
			" is not a rule, so it does not end the group, and the rules that follow apply to both")
	}
	c.between = 0
	token := lines.AgentToken(value)
	switch {
	case token == "*":
	case value == "":
		c.add(n, SeverityWarning, CodeEmptyUserAgent, "empty user-agent: it names no crawler")
	case token == "":
		c.add(n, SeverityWarning, CodeCutUserAgent, "user-agent "+quoteValue(value)+
			" names no crawler: a name is matched by its leading letters, \"-\" and \"_\", and \"*\" only stands alone")
	case token != value:
		sev := SeverityInfo
		if next := value[len(token)]; next >= '0' && next <= '9' || next >= 0x80 {
			sev = SeverityWarning // cut inside a word: "MJ12bot" is "MJ"
		}
		c.add(n, sev, CodeCutUserAgent, "user-agent "+quoteValue(value)+" is matched as "+quoteValue(token)+
			": only the leading letters, \"-\" and \"_\" count")
	}
	if k, ok := LookupCrawler(token); ok {
		if k.Retired {
			c.add(n, SeverityWarning, CodeRetiredCrawler, "user-agent "+strconv.Quote(token)+
				" is a retired token of "+k.Operator+" ("+k.Note+")")
		}
		if value != token && value[len(token)] != '/' {
			c.add(n, SeverityInfo, CodeCrawlerToken, "user-agent "+strconv.Quote(value)+" is not a product token: it names "+
				k.Operator+"'s crawler "+strconv.Quote(k.Token)+" ("+k.Purpose.String()+"); write "+strconv.Quote(k.Token))
		}
	}
}

func (c *checker) rule(l line) {
	n, p := l.n, l.value
	if l.kept {
		c.between = 0
	} else {
		name := "Disallow"
		if l.kind == lines.KindAllow {
			name = "Allow"
		}
		c.add(n, SeverityError, CodeRuleOutsideGroup, name+" line before any user-agent line: it applies to no crawler")
	}
	if p != "" && p[0] != '/' && p[0] != '*' {
		msg := "pattern " + quoteValue(p) + " starts with neither \"/\" nor \"*\": it never matches"
		if _, host, ok := strings.Cut(p, "://"); ok {
			_, path, _ := strings.Cut(host, "/")
			msg = "pattern " + quoteValue(p) + " is a URL, not a path: it never matches (write " + quoteValue("/"+path) + ")"
		}
		c.add(n, SeverityError, CodePatternNeverMatches, msg)
	}
	if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
		c.add(n, SeverityWarning, CodeLiteralDollar, "the \"$\" inside pattern "+quoteValue(p)+
			" matches a \"$\" in the path: \"$\" anchors only at the end of a pattern")
	}
	if l.kept && strings.ContainsAny(p, " \t") {
		c.add(n, SeverityWarning, CodeSpaceInPattern, "pattern "+strconv.Quote(p)+
			" holds a space, which URLs never hold (they have %20): write one rule per path")
	}
}
