package robots

// Diagnostics: what in a robots.txt file is wrong, ignored or surprising.
//
// Check reads a file line by line with the same helpers as Parse, so that it
// sees what Google sees, and reports each finding with its line. It does its
// work apart from Parse, which stays as fast as if it did not exist.

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Severity says how much a finding matters.
type Severity uint8

const (
	// SeverityInfo: the line works as written for Google, but other
	// crawlers may read it differently, or it is ignored on purpose.
	SeverityInfo Severity = iota + 1
	// SeverityWarning: the line probably does not do what its author meant,
	// or other crawlers may not read it.
	SeverityWarning
	// SeverityError: the line, or part of the file, is ignored or can never
	// have an effect.
	SeverityError
)

var severityNames = [...]string{SeverityInfo: "info", SeverityWarning: "warning", SeverityError: "error"}

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	if int(s) < len(severityNames) && severityNames[s] != "" {
		return severityNames[s]
	}
	return "severity(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText encodes s as its name, such as "error".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a name written by MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	for i, name := range severityNames {
		if name != "" && name == string(b) {
			*s = Severity(i)
			return nil
		}
	}
	return strconv.ErrSyntax
}

// A Code names the kind of a finding. Codes are stable: tools may select or
// silence findings by code.
type Code string

// The codes of the findings of Check, with their severity.
const (
	// CodeTooLarge (error): the file is longer than MaxSize; the rest is
	// ignored. The finding is on the line where the cut falls.
	CodeTooLarge Code = "too-large"
	// CodeLineTooLong (error): a line is longer than 16,663 bytes; the rest
	// of it is ignored.
	CodeLineTooLong Code = "line-too-long"
	// CodeNUL (error): a NUL byte ends the line; what follows is ignored.
	CodeNUL Code = "nul-byte"
	// CodeInvalidUTF8 (warning): the line is not valid UTF-8.
	CodeInvalidUTF8 Code = "invalid-utf8"
	// CodeMisplacedBOM (warning): a byte order mark after the start of the
	// file is data; at the start of a line it spoils the key.
	CodeMisplacedBOM Code = "misplaced-bom"
	// CodeHTML (error): the body looks like an HTML page, not a robots.txt
	// file. Lines that are not directives are then not reported one by one.
	CodeHTML Code = "html"
	// CodeBinary (error): the body is not text (an image, a compressed
	// body, UTF-16 text): it holds NUL bytes near its start. Lines are then
	// not reported one by one for NUL bytes, bad UTF-8 or unknown keys.
	CodeBinary Code = "binary"
	// CodeInvalidLine (warning): a line that is not blank or a comment has
	// no key and value ("Disallow /a /b"); it is ignored.
	CodeInvalidLine Code = "invalid-line"
	// CodeMissingColon (warning): a user-agent, allow, disallow or sitemap
	// line with whitespace instead of a colon ("Disallow /tmp"), which
	// Google accepts and others may not; or a rule whose colon is missing
	// but whose value holds one ("Disallow https://example.com/a" is read
	// as the key "Disallow https" and the value "//example.com/a").
	CodeMissingColon Code = "missing-colon"
	// CodeTypo (warning): a misspelt or extended key that Google accepts
	// ("Dissallow", "User agent", "Disallowed"), and others may not.
	CodeTypo Code = "typo"
	// CodeUnknownKey (warning; error when it looks like a misspelt rule or
	// user-agent key, or is one of Google's keys after stray bytes such as
	// a byte order mark encoded twice): a key nobody reads; the line is
	// ignored.
	CodeUnknownKey Code = "unknown-key"
	// CodeIgnoredByGoogle (info; warning for noindex and its kind): a key
	// that Google ignores and other crawlers may read, such as crawl-delay.
	CodeIgnoredByGoogle Code = "ignored-by-google"
	// CodeInvalidValue (warning): the value of a crawl-delay, request-rate,
	// visit-time, host or clean-param line is not valid; the accessors of
	// Robots ignore the line.
	CodeInvalidValue Code = "invalid-value"
	// CodeKeyOutsideGroup (warning): a crawl-delay, request-rate or
	// visit-time line before the first user-agent line belongs to no group.
	CodeKeyOutsideGroup Code = "key-outside-group"
	// CodeRuleOutsideGroup (error): an allow or disallow line before the
	// first user-agent line applies to no crawler.
	CodeRuleOutsideGroup Code = "rule-outside-group"
	// CodeNeverMatches (error): a pattern that starts with neither "/" nor
	// "*" can never match, since every path starts with "/".
	CodeNeverMatches Code = "pattern-never-matches"
	// CodeLiteralDollar (warning): a "$" that is not the last byte of a
	// pattern matches a "$" in the path; it does not anchor.
	CodeLiteralDollar Code = "literal-dollar"
	// CodeEmptyUserAgent (warning): a user-agent line without a value names
	// no crawler.
	CodeEmptyUserAgent Code = "empty-user-agent"
	// CodeCutUserAgent (info when the value is cut at a separator, as
	// "Googlebot/2.1"; warning when it is cut inside a word, as "MJ12bot",
	// or names no crawler at all): only the leading letters, "-" and "_" of
	// a user-agent value are matched.
	CodeCutUserAgent Code = "cut-user-agent"
	// CodeGroupNotEnded (warning): a user-agent line joins the group above
	// it because only non-rule lines (such as crawl-delay) came between:
	// the rules that follow apply to the crawlers of both.
	CodeGroupNotEnded Code = "group-not-ended"
	// CodeSitemapURL (warning): a sitemap value is not an absolute http or
	// https URL.
	CodeSitemapURL Code = "sitemap-url"
	// CodeDuplicateRule (info): a rule repeats an earlier rule of its
	// group; it never decides, and removing it changes nothing.
	CodeDuplicateRule Code = "duplicate-rule"
	// CodeShadowedRule (warning when the rule that wins is of the other
	// kind, so that the shadowed rule has no effect at all; info when it is
	// of the same kind, so that the shadowed rule is merely redundant):
	// another rule of the group matches whenever this one does and always
	// takes precedence; this one never decides.
	CodeShadowedRule Code = "shadowed-rule"
	// CodeDisallowAll (warning): the group for "*" disallows the whole
	// site, as a staging file copied to production does.
	CodeDisallowAll Code = "disallow-all"
)

// A Diagnostic is one finding of Check.
type Diagnostic struct {
	Line     int      `json:"line"` // 1-based
	Severity Severity `json:"severity"`
	Code     Code     `json:"code"`
	Message  string   `json:"message"` // without the line, such as `unknown key "crawl_delay"`
}

// String returns the finding with its line, such as
// `robots: line 12: unknown key "dissalow"`.
func (d Diagnostic) String() string {
	return "robots: line " + strconv.Itoa(d.Line) + ": " + d.Message
}

// Diagnostics is a list of findings, sorted by line.
type Diagnostics []Diagnostic

// Error describes the list: its first finding, and how many others follow.
func (l Diagnostics) Error() string {
	switch len(l) {
	case 0:
		return "no findings"
	case 1:
		return l[0].String()
	}
	return l[0].String() + " (and " + strconv.Itoa(len(l)-1) + " more)"
}

// Err returns the findings of severity error as an error (a Diagnostics),
// or nil if there is none.
func (l Diagnostics) Err() error {
	var errs Diagnostics
	for _, d := range l {
		if d.Severity == SeverityError {
			errs = append(errs, d)
		}
	}
	if errs == nil {
		return nil
	}
	return errs
}

// Check reads the body of a robots.txt file as Parse does and reports what
// in it is wrong, ignored by Google or likely to surprise its author, with
// the 1-based line of each finding; the constants of type Code list them.
// Check never fails; a file without findings gives an empty list.
//
// The findings are about the file alone, not about a crawler: they do not
// change what Parse and Allowed do.
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

// Diagnostics returns the findings of Check for the text r was parsed from.
// Since Parse reads at most MaxSize bytes, CodeTooLarge cannot be among
// them: to know whether a body is too large, give it to Check. A nil
// Robots, or one from AllowAll or DisallowAll, has no findings.
func (r *Robots) Diagnostics() Diagnostics {
	if r == nil {
		return nil
	}
	var c checker
	c.check(r.body)
	return c.diags
}

// A checker collects the findings of one file.
type checker struct {
	diags Diagnostics
	// html reports whether the body looks like an HTML page, binary
	// whether it is not text: per-line findings that would only repeat it
	// are left out.
	html, binary bool
	// records are the groups seen so far, as Parse cuts them.
	records []checkRecord
	// ruled reports whether the current record has had a rule line.
	ruled bool
	// between is the line of the last non-rule directive (such as
	// crawl-delay) since the last user-agent line of the current record,
	// before any rule, or 0; betweenKey is its key.
	between    int
	betweenKey string
}

// A checkRecord is a group as Check sees it.
type checkRecord struct {
	line   int  // the line of its first user-agent line
	global bool // it names "*"
	rules  []Rule
}

// add records a finding.
func (c *checker) add(line int, sev Severity, code Code, msg string) {
	c.diags = append(c.diags, Diagnostic{Line: line, Severity: sev, Code: code, Message: msg})
}

// check reads s, the part of the file Parse reads, line by line, as Parse
// does, then checks its groups.
func (c *checker) check(s string) {
	s = skipBOM(s)
	if nuls := strings.Count(s[:min(len(s), binarySniffLen)], "\x00"); nuls >= binaryNULs {
		c.binary = true
		msg := "the file is not text (" + strconv.Itoa(nuls) + " NUL bytes in its first " + strconv.Itoa(binarySniffLen) + "): it is not a robots.txt file"
		if strings.HasPrefix(s, "\xFF\xFE") || strings.HasPrefix(s, "\xFE\xFF") {
			msg = "the file is UTF-16 text: a robots.txt file must be UTF-8 encoded, and Google reads nothing from it"
		}
		c.add(1, SeverityError, CodeBinary, msg)
	}
	if c.html = looksLikeHTML(s); c.html {
		start := 0 // of the page, after leading space
		for start < len(s) && isSpace(s[start]) {
			start++
		}
		c.add(lineAt(s, start), SeverityError, CodeHTML,
			"the file looks like an HTML page, not a robots.txt file: only lines that happen to be directives are read")
	}
	forEachLine(s, c.line)
	c.diags = append(c.diags, checkMore(s)...) // checkai.go
	for i := range c.records {
		c.checkRecord(&c.records[i])
	}
	slices.SortStableFunc(c.diags, func(a, b Diagnostic) int { return a.Line - b.Line })
}

// lineAt returns the 1-based number of the line of s that holds byte off,
// counting line breaks as Parse does.
func lineAt(s string, off int) int {
	n := 1
	for i := 0; i < off && i < len(s); i++ {
		switch s[i] {
		case '\n':
			n++
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			n++
		}
	}
	return n
}

// A body is binary when its first binarySniffLen bytes hold binaryNULs NUL
// bytes or more: text files have none, or one by mistake.
const (
	binarySniffLen = 1024
	binaryNULs     = 4
)

// htmlSniffLen is how much of the start of a body looksLikeHTML reads.
const htmlSniffLen = 1024

// looksLikeHTML reports whether the body s is an HTML page: it starts with
// "<" and names one of the elements every page has near its start, as when
// a site serves its home page or an error page for /robots.txt.
func looksLikeHTML(s string) bool {
	s = trimSpace(s)
	if !strings.HasPrefix(s, "<") {
		return false
	}
	head := lowerASCII(s[:min(len(s), htmlSniffLen)])
	for _, tag := range []string{"<!doctype html", "<html", "<head", "<body", "<title"} {
		if strings.Contains(head, tag) {
			return true
		}
	}
	return false
}

// line checks physical line number n.
func (c *checker) line(n int, s string) {
	if len(s) > maxLineLen {
		c.add(n, SeverityError, CodeLineTooLong, "the line is "+strconv.Itoa(len(s))+
			" bytes long: only the first "+strconv.Itoa(maxLineLen)+" are read")
		s = s[:maxLineLen]
	}
	if i := strings.IndexByte(s, 0); i >= 0 {
		if !c.binary {
			c.add(n, SeverityError, CodeNUL, "a NUL byte at column "+strconv.Itoa(i+1)+" ends the line: the rest is ignored")
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
	kind, key, value := splitLine(s)
	content := s
	if i := strings.IndexByte(content, '#'); i >= 0 {
		content = content[:i]
	}
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
	} else if kind != kindOther {
		if name, ok := keyTypo(kind, key); ok {
			c.add(n, SeverityWarning, CodeTypo, "key "+quote(key)+" is read as "+quote(name)+
				" by Google, but other crawlers may ignore the line")
		}
	}
	if kind != kindOther && strings.IndexByte(content, ':') < 0 {
		c.add(n, SeverityWarning, CodeMissingColon, "no colon after "+quote(key)+
			": Google reads the line, but other crawlers may not")
	}
	switch kind {
	case kindUserAgent:
		c.userAgent(n, value)
	case kindAllow, kindDisallow:
		c.rule(n, kind == kindAllow, value)
	case kindSitemap:
		if !isAbsoluteHTTP(value) {
			c.add(n, SeverityWarning, CodeSitemapURL, "sitemap "+quote(value)+" is not an absolute http or https URL")
		}
		c.nonRule(n, key)
	case kindOther:
		c.other(n, key, value)
		c.nonRule(n, key)
	}
}

// keyTypo reports whether key, of the given kind, is not spelt as the
// directive's name, and returns that name.
func keyTypo(kind lineKind, key string) (name string, typo bool) {
	var keys []string
	switch kind {
	case kindUserAgent:
		keys = userAgentKeys
	case kindAllow:
		keys = allowKeys
	case kindDisallow:
		keys = disallowKeys
	case kindSitemap:
		keys = sitemapKeys
	default:
		return "", false
	}
	return keys[0], !equalFoldASCII(key, keys[0])
}

// userAgent checks a user-agent line and follows the grouping of Parse.
func (c *checker) userAgent(n int, value string) {
	switch {
	case len(c.records) == 0 || c.ruled:
		c.records = append(c.records, checkRecord{line: n})
		c.ruled = false
	case c.between > 0:
		c.add(n, SeverityWarning, CodeGroupNotEnded, "this user-agent line joins the group of line "+
			strconv.Itoa(c.records[len(c.records)-1].line)+": the "+quote(c.betweenKey)+" line "+strconv.Itoa(c.between)+
			" is not a rule, so it does not end the group, and the rules that follow apply to both")
	}
	c.between = 0
	rec := &c.records[len(c.records)-1]
	token := agentToken(value)
	switch {
	case token == "*":
		rec.global = true
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

// rule checks an allow or disallow line with pattern p.
func (c *checker) rule(n int, allow bool, p string) {
	name := "Disallow"
	if allow {
		name = "Allow"
	}
	if len(c.records) == 0 {
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
		c.add(n, SeverityError, CodeNeverMatches, msg)
	}
	if i := strings.IndexByte(p, '$'); i >= 0 && i < len(p)-1 {
		c.add(n, SeverityWarning, CodeLiteralDollar, "the \"$\" inside pattern "+quote(p)+
			" matches a \"$\" in the path: \"$\" anchors only at the end of a pattern")
	}
	if len(c.records) == 0 {
		return
	}
	c.ruled = true
	c.between = 0
	rec := &c.records[len(c.records)-1]
	rec.rules = append(rec.rules, Rule{Allow: allow, Pattern: p, Line: n})
}

// nonRule notes a directive that is neither a rule nor a user-agent line,
// which does not end a group.
func (c *checker) nonRule(n int, key string) {
	if len(c.records) > 0 && !c.ruled {
		c.between, c.betweenKey = n, key
	}
}

// An extension describes a key that Google ignores and other crawlers read.
type extension struct {
	sev   Severity
	note  string // who reads it, or why it has no effect
	group bool   // it applies to the group it stands in
	// parse checks a value, if the key has a syntax.
	parse func(string) error
}

// extensions are the keys of extension, lower-case.
var extensions = map[string]extension{
	keyCrawlDelay: {SeverityInfo, "Bing and Yandex read it", true,
		func(v string) error { _, err := parseCrawlDelay(v); return err }},
	keyRequestRate: {SeverityInfo, "a few crawlers read it", true,
		func(v string) error { _, err := parseRequestRate(v); return err }},
	keyVisitTime: {SeverityInfo, "a few crawlers read it", true,
		func(v string) error { _, err := parseVisitTime(v); return err }},
	keyHost: {SeverityInfo, "Yandex used to read it", false, validHost},
	keyCleanParam: {SeverityInfo, "Yandex reads it", false,
		func(v string) error { _, err := parseCleanParam(v); return err }},
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
		if bare := strayPrefix(key); bare != "" {
			// "ï»¿User-agent": a byte order mark encoded twice, or another
			// invisible character, before a directive.
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
	if ext.group && len(c.records) == 0 {
		c.add(n, SeverityWarning, CodeKeyOutsideGroup, quote(key)+" line before any user-agent line: it belongs to no group")
	}
	if ext.parse != nil {
		if err := ext.parse(value); err != nil {
			c.add(n, SeverityWarning, CodeInvalidValue, quote(key)+" value "+quote(value)+" is "+err.Error()+": the line is ignored")
		}
	}
}

// strayPrefix returns what key reads as, if it is a directive of Google's
// after non-ASCII bytes, or "".
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

// suggestKey returns the known key that key is probably a misspelling of,
// or "".
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

// editDistance returns the number of insertions, deletions, substitutions
// and transpositions of adjacent bytes that turn a into b (the optimal
// string alignment distance).
func editDistance(a, b string) int {
	// d[i][j] is the distance between a[:i] and b[:j]; three rows suffice.
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

// isAbsoluteHTTP reports whether s is an absolute http or https URL with a
// host.
func isAbsoluteHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// maxQuoted is the number of bytes of a value quoted in a message.
const maxQuoted = 80

// quote quotes s for a message, cut to maxQuoted bytes.
func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}

// A ruleShape is what Check knows of the matches of a rule: enough to prove
// that one rule matches whenever another does.
type ruleShape struct {
	rule Rule
	// prio is the priority of the rule, the length of its escaped pattern.
	prio int
	// norm is the escaped pattern without a trailing "$" or trailing "*"s,
	// which change what it matches only through anchored; rules with the
	// same norm and anchored match the same paths.
	norm     string
	anchored bool
	// head is norm up to its first "*": every path the rule matches starts
	// with it. prefix reports whether the rule matches every such path.
	head   string
	prefix bool
	// For an allow rule of ".../index.htm...", quirk is the shape of the
	// exact directory it also allows, with priority quirkPrio.
	quirk     *ruleShape
	quirkPrio int
}

// shapeOf returns the shape of a rule with escaped pattern ep, read as
// match.go compiles it.
func shapeOf(r Rule, ep string) ruleShape {
	s := ruleShape{rule: r, prio: len(ep), norm: ep}
	if strings.HasSuffix(s.norm, "$") {
		s.norm, s.anchored = s.norm[:len(s.norm)-1], true
	}
	if strings.HasSuffix(s.norm, "*") {
		s.norm, s.anchored = strings.TrimRight(s.norm, "*"), false
	}
	s.head = s.norm
	if i := strings.IndexByte(s.norm, '*'); i >= 0 {
		s.head = s.norm[:i]
	}
	s.prefix = !s.anchored && s.head == s.norm
	return s
}

// outranks reports whether a rule of shape s takes precedence over one of
// priority prio, kind allow and line line, when both match: the greater
// priority wins, then allow, then the earlier line.
func (s *ruleShape) outranks(prio int, allow bool, line int) bool {
	if s.prio != prio {
		return s.prio > prio
	}
	if s.rule.Allow != allow {
		return s.rule.Allow
	}
	return s.rule.Line < line
}

// A best2 holds the indexes of the two rules that take precedence over all
// others in some class, or -1.
type best2 [2]int

// add puts rule i of shapes into b if it is among the two best.
func (b *best2) add(shapes []ruleShape, i int) {
	s := &shapes[i]
	switch {
	case b[0] < 0 || s.outranks(shapes[b[0]].prio, shapes[b[0]].rule.Allow, shapes[b[0]].rule.Line):
		b[0], b[1] = i, b[0]
	case b[1] < 0 || s.outranks(shapes[b[1]].prio, shapes[b[1]].rule.Allow, shapes[b[1]].rule.Line):
		b[1] = i
	}
}

// other returns the best rule of b that is not rule i, or -1.
func (b best2) other(i int) int {
	if b[0] != i {
		return b[0]
	}
	return b[1]
}

// A normKey is a class of rules that match the same paths.
type normKey struct {
	norm     string
	anchored bool
}

// ruleIndex finds, for a rule, another rule of its record that matches
// whenever it does.
type ruleIndex struct {
	shapes []ruleShape
	// same holds the best rules of each class of rules that match the same
	// paths.
	same map[normKey]best2
	// prefixes holds the best prefix rules by head, and lengths the
	// lengths of those heads, increasing.
	prefixes map[string]best2
	lengths  []int
	// maxExtra is the greatest number of bytes by which the priority of a
	// prefix rule exceeds the length of its head (its trailing "*"s).
	maxExtra int
}

// newRuleIndex indexes shapes.
func newRuleIndex(shapes []ruleShape) *ruleIndex {
	x := &ruleIndex{shapes: shapes, same: make(map[normKey]best2, len(shapes)), prefixes: make(map[string]best2, len(shapes))}
	for i := range shapes {
		s := &shapes[i]
		k := normKey{s.norm, s.anchored}
		b, ok := x.same[k]
		if !ok {
			b = best2{-1, -1}
		}
		b.add(shapes, i)
		x.same[k] = b
		if s.prefix {
			b, ok := x.prefixes[s.head]
			if !ok {
				b = best2{-1, -1}
				x.lengths = append(x.lengths, len(s.head))
			}
			b.add(shapes, i)
			x.prefixes[s.head] = b
			x.maxExtra = max(x.maxExtra, s.prio-len(s.head))
		}
	}
	slices.Sort(x.lengths)
	x.lengths = slices.Compact(x.lengths)
	return x
}

// dominator returns the index of a rule other than rule i that matches
// every path s matches and outranks s there (s is rule i, or its
// index.htm quirk), or -1. It finds such a rule only when that is certain:
// one that matches the same paths, or a prefix rule whose head starts the
// head of s.
func (x *ruleIndex) dominator(i int, s *ruleShape, prio int) int {
	r := s.rule
	if b, ok := x.same[normKey{s.norm, s.anchored}]; ok {
		if j := b.other(i); j >= 0 && x.shapes[j].outranks(prio, r.Allow, r.Line) {
			return j
		}
	}
	// A prefix rule outranks s only if its priority, at most its head's
	// length plus maxExtra, reaches that of s: shorter heads need not be
	// looked up.
	i0, _ := slices.BinarySearch(x.lengths, prio-x.maxExtra)
	for _, l := range x.lengths[i0:] {
		if l > len(s.head) {
			break
		}
		if b, ok := x.prefixes[s.head[:l]]; ok {
			if j := b.other(i); j >= 0 && x.shapes[j].outranks(prio, r.Allow, r.Line) {
				return j
			}
		}
	}
	return -1
}

// checkRecord reports the rules of rec that can never decide, because
// another rule of the record matches whenever they do and takes precedence,
// and a "*" group that disallows everything.
func (c *checker) checkRecord(rec *checkRecord) {
	shapes := make([]ruleShape, 0, len(rec.rules))
	for _, r := range rec.rules {
		if r.Pattern == "" || r.Pattern[0] != '/' && r.Pattern[0] != '*' {
			continue // never decides, and reported if it never matches
		}
		ep := escapePattern(r.Pattern)
		s := shapeOf(r, ep)
		// As match.go: "Allow: /d/index.html" also allows exactly "/d/".
		if j := strings.LastIndexByte(ep, '/'); r.Allow && j >= 0 && strings.HasPrefix(ep[j:], "/index.htm") {
			q := shapeOf(r, ep[:j+1]+"$")
			s.quirk, s.quirkPrio = &q, j+2
		}
		shapes = append(shapes, s)
	}
	x := newRuleIndex(shapes)
	for i := range shapes {
		s := &shapes[i]
		j := x.dominator(i, s, s.prio)
		if j < 0 || s.quirk != nil && x.dominator(i, s.quirk, s.quirkPrio) < 0 {
			if rec.global && !s.rule.Allow && s.prefix && (s.norm == "" || s.norm == "/") {
				c.add(s.rule.Line, SeverityWarning, CodeDisallowAll, quote(ruleText(s.rule))+
					" in the group for \"*\" disallows the whole site to every crawler without a group of its own:"+
					" is this a staging file in production?")
			}
			continue
		}
		y := &shapes[j]
		if y.rule.Allow == s.rule.Allow && y.prio == s.prio && y.norm == s.norm && y.anchored == s.anchored {
			c.add(s.rule.Line, SeverityInfo, CodeDuplicateRule, quote(ruleText(s.rule))+" repeats line "+
				strconv.Itoa(y.rule.Line)+": it never decides")
			continue
		}
		sev := SeverityInfo
		if y.rule.Allow != s.rule.Allow {
			sev = SeverityWarning
		}
		c.add(s.rule.Line, sev, CodeShadowedRule, quote(ruleText(s.rule))+" never decides: "+
			quote(ruleText(y.rule))+" (line "+strconv.Itoa(y.rule.Line)+") matches whenever it does and takes precedence")
	}
}

// ruleText returns a rule as it would be written, such as "Disallow: /a".
func ruleText(r Rule) string {
	if r.Allow {
		return "Allow: " + r.Pattern
	}
	return "Disallow: " + r.Pattern
}
