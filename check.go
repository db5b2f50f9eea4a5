package robots

// Diagnostics: Check drives the parser line by line, apart from Parse, so
// that it sees what Google sees, and reports each finding with its line.

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Check reads the body of a robots.txt file as Parse does and reports what
// in it is wrong, ignored by Google or likely to surprise its author, with
// the 1-based line of each finding; the constants of type Code list them.
// Check never fails; a file without findings gives an empty list. The
// findings are about the file alone: they change nothing Parse does.
func Check(data []byte) Diagnostics {
	var c checker
	s := string(data)
	if len(s) > MaxSize {
		c.add(lineAt(s, MaxSize), SeverityError, CodeTooLarge,
			"the file is "+strconv.Itoa(len(s))+" bytes long: only the first "+strconv.Itoa(MaxSize)+
				" (500 KiB) are read, and the rest from here on is ignored")
		s = s[:MaxSize]
	}
	c.check(s)
	return c.diags
}

// A checker collects the findings of one file.
type checker struct {
	diags Diagnostics
	// html and binary leave out the per-line findings that would repeat
	// CodeHTML and CodeBinary.
	html, binary bool
	p            parser
	recordLine   int // the first user-agent line of the current record
	// between is the line of the last non-rule directive after the
	// user-agent lines of the current record, before any rule, or 0;
	// betweenKey is its key.
	between    int
	betweenKey string
}

func (c *checker) add(line int, sev Severity, code Code, msg string) {
	c.diags = append(c.diags, Diagnostic{Line: line, Severity: sev, Code: code, Message: msg})
}

// check checks body, the part of the file Parse reads.
func (c *checker) check(body string) {
	c.p = parser{src: body, r: &Robots{}}
	s := skipBOM(body)
	if nuls := strings.Count(s[:min(len(s), binarySniffLen)], "\x00"); nuls >= binaryNULs {
		c.binary = true
		msg := "the file is not text (" + strconv.Itoa(nuls) + " NUL bytes in its first " + strconv.Itoa(binarySniffLen) + "): it is not a robots.txt file"
		if strings.HasPrefix(s, "\xFF\xFE") || strings.HasPrefix(s, "\xFE\xFF") {
			msg = "the file is UTF-16 text: a robots.txt file must be UTF-8 encoded, and Google reads nothing from it"
		}
		c.add(1, SeverityError, CodeBinary, msg)
	}
	if c.html = looksLikeHTML(s); c.html {
		start := len(s) - len(strings.TrimLeft(s, " \t\n\v\f\r")) // isSpace
		c.add(lineAt(s, start), SeverityError, CodeHTML,
			"the file looks like an HTML page, not a robots.txt file: only lines that happen to be directives are read")
	}
	c.p.scan(c.line)
	c.p.finish()
	r := c.p.r
	c.more(r)
	sc := scratch{all: true}
	var agents, rules []srcLine
	for i := range r.recordCount() {
		agents, rules = r.recordLines(i, agents[:0], rules[:0])
		global := slices.ContainsFunc(agents, func(a srcLine) bool { return agentToken(a.value(r.text)) == "*" })
		var s ruleSet
		compile(&s, r, rules, &sc)
		c.checkRules(&s, global)
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
// bytes or more (text files have none, or one by mistake); looksLikeHTML
// reads its first htmlSniffLen bytes.
const binarySniffLen, binaryNULs, htmlSniffLen = 1024, 4, 1024

// looksLikeHTML reports whether the body s is an HTML page, as a site serves
// its home or error page for /robots.txt: it starts with "<" and names an
// element every page has near its start.
func looksLikeHTML(s string) bool {
	s = trimSpace(s)
	if !strings.HasPrefix(s, "<") {
		return false
	}
	head := lowerASCII(s[:min(len(s), htmlSniffLen)])
	return slices.ContainsFunc([]string{"<!doctype html", "<html", "<head", "<body", "<title"},
		func(tag string) bool { return strings.Contains(head, tag) })
}

// line checks a line, after the parser has read it.
func (c *checker) line(l line) {
	n, s := l.n, l.text
	if len(s) > maxLineLen {
		c.add(n, SeverityError, CodeLineTooLong, "the line is "+strconv.Itoa(len(s))+
			" bytes long: only the first "+strconv.Itoa(maxLineLen)+" are read")
		s = s[:maxLineLen]
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		if !c.binary {
			c.add(n, SeverityError, CodeNULByte, "a NUL byte at column "+strconv.Itoa(i+1)+" ends the line: the rest is ignored")
		}
		s = s[:i]
	}
	if !c.binary {
		if i := strings.Index(s, utf8BOM); i >= 0 {
			msg := "a byte order mark inside the file is read as data"
			if trimSpace(s[:i]) == "" {
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
	content = trimSpace(content)
	if kind == kindNone {
		if content != "" && !c.html && !c.binary {
			c.add(n, SeverityWarning, CodeInvalidLine, "the line is not a key, a colon and a value: it is ignored")
		}
		return
	}
	if (kind == kindAllow || kind == kindDisallow || kind == kindSitemap) && strings.ContainsAny(key, " \t") {
		// "Disallow https://example.com/a": the first colon is the URL's.
		word, _ := cutSpace(key)
		c.add(n, SeverityWarning, CodeMissingColon, "no colon after "+quote(word)+": the key read is "+quote(key)+
			" and the value "+quote(value))
	} else if kind != kindOther && !equalFoldASCII(key, keysOf[kind][0]) {
		c.add(n, SeverityWarning, CodeTypo, "key "+quote(key)+" is read as "+quote(keysOf[kind][0])+
			" by Google, but other crawlers may ignore the line")
	}
	if kind != kindOther && strings.IndexByte(content, ':') < 0 {
		c.add(n, SeverityWarning, CodeMissingColon, "no colon after "+quote(key)+
			": Google reads the line, but other crawlers may not")
	}
	switch kind {
	case kindUserAgent:
		c.userAgent(l)
	case kindAllow, kindDisallow:
		c.rule(l)
	case kindSitemap:
		if u, err := url.Parse(value); err != nil || u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
			c.add(n, SeverityWarning, CodeSitemapURL, "sitemap "+quote(value)+" is not an absolute http or https URL")
		}
		c.nonRule(n, key)
	case kindOther:
		c.other(n, key, value)
		c.nonRule(n, key)
	}
}

// userAgent checks a user-agent line.
func (c *checker) userAgent(l line) {
	n, value := l.n, l.value
	switch {
	case l.newRecord:
		c.recordLine = n
	case c.between > 0:
		c.add(n, SeverityWarning, CodeGroupNotEnded, "this user-agent line joins the group of line "+
			strconv.Itoa(c.recordLine)+": the "+quote(c.betweenKey)+" line "+strconv.Itoa(c.between)+
			" is not a rule, so it does not end the group, and the rules that follow apply to both")
	}
	c.between = 0
	token := agentToken(value)
	switch {
	case token == "*":
	case value == "":
		c.add(n, SeverityWarning, CodeEmptyUserAgent, "empty user-agent: it names no crawler")
	case token == "":
		c.add(n, SeverityWarning, CodeCutUserAgent, "user-agent "+quote(value)+
			" names no crawler: a name is matched by its leading letters, \"-\" and \"_\", and \"*\" only stands alone")
	case token != value:
		sev := SeverityInfo
		if next := value[len(token)]; next >= '0' && next <= '9' || next >= 0x80 {
			sev = SeverityWarning // cut inside a word: "MJ12bot" is "MJ"
		}
		c.add(n, sev, CodeCutUserAgent, "user-agent "+quote(value)+" is matched as "+quote(token)+
			": only the leading letters, \"-\" and \"_\" count")
	}
}

// rule checks an allow or disallow line.
func (c *checker) rule(l line) {
	n, p := l.n, l.value
	if !l.kept {
		name := Rule{Allow: l.kind == kindAllow}.key()
		c.add(n, SeverityError, CodeRuleOutsideGroup, name+" line before any user-agent line: it applies to no crawler")
	}
	if p != "" && p[0] != '/' && p[0] != '*' {
		msg := "pattern " + quote(p) + " starts with neither \"/\" nor \"*\": it never matches"
		if i := strings.Index(p, "://"); i >= 0 {
			path := "/"
			if j := strings.IndexByte(p[i+3:], '/'); j >= 0 {
				path = p[i+3+j:]
			}
			msg = "pattern " + quote(p) + " is a URL, not a path: it never matches (write " + quote(path) + ")"
		}
		c.add(n, SeverityError, CodePatternNeverMatches, msg)
	}
	if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
		c.add(n, SeverityWarning, CodeLiteralDollar, "the \"$\" inside pattern "+quote(p)+
			" matches a \"$\" in the path: \"$\" anchors only at the end of a pattern")
	}
	if l.kept {
		c.between = 0
	}
}

// nonRule notes a directive that does not end a group.
func (c *checker) nonRule(n int, key string) {
	if len(c.p.starts) > 0 && !c.p.ruled {
		c.between, c.betweenKey = n, key
	}
}

// maxQuoted is the number of bytes of a value that quote quotes.
const maxQuoted = 80

// quote quotes s for a message.
func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}

// Keys Google ignores, and unknown keys.

// An extension is a key that Google ignores and other crawlers read.
type extension struct {
	sev   Severity
	note  string             // who reads it, or why it has no effect
	group bool               // it applies to the group it stands in
	parse func(string) error // checks a value, if the key has a syntax
}

// valid returns a check of a value by parse.
func valid[T any](parse func(string) (T, error)) func(string) error {
	return func(v string) error { _, err := parse(v); return err }
}

// extensions are the keys of extension, lower-case.
var extensions = map[string]extension{
	keyCrawlDelay:    {SeverityInfo, "Bing and Yandex read it", true, valid(parseCrawlDelay)},
	keyRequestRate:   {SeverityInfo, "a few crawlers read it", true, valid(parseRequestRate)},
	keyVisitTime:     {SeverityInfo, "a few crawlers read it", true, valid(parseVisitTime)},
	keyHost:          {SeverityInfo, "Yandex used to read it", false, validHost},
	keyCleanParam:    {SeverityInfo, "Yandex reads it", false, valid(parseCleanParam)},
	"content-signal": {SeverityInfo, "it states preferences on the use of content (contentsignals.org)", true, nil},
	"content-usage":  {SeverityInfo, "it states preferences on the use of content (IETF AI preferences)", true, nil},
	"noindex":        {SeverityWarning, "it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", false, nil},
	"nofollow":       {SeverityWarning, "it stopped reading it in 2019: use a robots meta tag or an X-Robots-Tag header", false, nil},
	"noarchive":      {SeverityWarning, "use a robots meta tag or an X-Robots-Tag header", false, nil},
	"nosnippet":      {SeverityWarning, "use a robots meta tag or an X-Robots-Tag header", false, nil},
}

// other checks a line with a key Google does not read.
func (c *checker) other(n int, key, value string) {
	ext, ok := extensions[lowerASCII(key)]
	if !ok {
		if c.html || c.binary {
			return
		}
		sev, msg := SeverityWarning, "unknown key "+quote(key)
		if bare := strayPrefix(key); bare != "" { // "ï»¿User-agent": a BOM encoded twice
			c.add(n, SeverityError, CodeUnknownKey, "key "+quote(key)+" has stray bytes before "+quote(bare)+
				" (a byte order mark?): the line is ignored")
			return
		}
		if guess := suggestKey(key); guess != "" {
			msg += " (did you mean " + quote(guess) + "?)"
			if guess == "user-agent" || guess == "allow" || guess == "disallow" {
				sev = SeverityError
			}
		}
		c.add(n, sev, CodeUnknownKey, msg+": the line is ignored")
		return
	}
	c.add(n, ext.sev, CodeIgnoredByGoogle, quote(key)+" is ignored by Google ("+ext.note+")")
	if ext.group && len(c.p.starts) == 0 {
		c.add(n, SeverityWarning, CodeKeyOutsideGroup, quote(key)+" line before any user-agent line: it belongs to no group")
	}
	if ext.parse != nil {
		if err := ext.parse(value); err != nil {
			c.add(n, SeverityWarning, CodeInvalidValue, quote(key)+" value "+quote(value)+" is "+err.Error()+": the line is ignored")
		}
	}
}

// strayPrefix returns the directive of Google's that key is after non-ASCII
// bytes, or "".
func strayPrefix(key string) string {
	i := 0
	for i < len(key) && key[i] >= 0x80 {
		i++
	}
	if i == 0 || i == len(key) || keyKind(key[i:]) == kindOther {
		return ""
	}
	return key[i:]
}

// suggestableKeys are the keys unknown keys are compared with.
var suggestableKeys = []string{
	"user-agent", "allow", "disallow", "sitemap",
	keyCrawlDelay, keyRequestRate, keyVisitTime, keyHost, keyCleanParam,
}

// suggestKey returns the known key that key probably misspells, or "".
func suggestKey(key string) string {
	const maxEdits = 2
	k := lowerASCII(key)
	if len(k) < 4 || len(k) > 20 {
		return ""
	}
	best, bestEdits := "", maxEdits+1
	for _, known := range suggestableKeys {
		if e := editDistance(k, known); e < bestEdits {
			best, bestEdits = known, e
		}
	}
	return best
}

// editDistance returns the optimal string alignment distance of a and b:
// the insertions, deletions, substitutions and transpositions of adjacent
// bytes that turn one into the other. Row i holds those of a[:i] and b[:j].
func editDistance(a, b string) int {
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
