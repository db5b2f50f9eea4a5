package lint

// What Check reports: severities, codes and findings.

import (
	"slices"
	"strconv"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/lines"
)

// A Severity says how much a finding matters.
type Severity uint8

const (
	// SeverityInfo: the line works for Google; other crawlers may differ.
	SeverityInfo Severity = iota + 1
	// SeverityWarning: the line probably does not do what its author meant,
	// or other crawlers may not read it.
	SeverityWarning
	// SeverityError: the line, or part of the file, has no effect.
	SeverityError
)

var severityNames = [...]string{SeverityInfo: "info", SeverityWarning: "warning", SeverityError: "error"}

// String returns "info", "warning" or "error".
func (s Severity) String() string { return enumName(severityNames[:], s, "severity") }

// enumName returns names[v], or typ(v) if v has no name.
func enumName[T ~uint8](names []string, v T, typ string) string {
	if int(v) < len(names) && names[v] != "" {
		return names[v]
	}
	return typ + "(" + strconv.Itoa(int(v)) + ")"
}

// MarshalText encodes s as its name, such as "error".
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText decodes a name written by MarshalText.
func (s *Severity) UnmarshalText(b []byte) error {
	i := slices.Index(severityNames[:], string(b))
	if i <= 0 { // severityNames[0] is not a name
		return strconv.ErrSyntax
	}
	*s = Severity(i)
	return nil
}

// A Code names the kind of a finding. Codes are stable: tools may select or
// silence findings by code.
type Code string

// The codes of the findings of Check, with their severity.
const (
	// CodeTooLarge (error): the file is over robots.MaxSize; the rest is ignored.
	CodeTooLarge Code = "too-large"
	// CodeLineTooLong (error): a line's bytes past 16,663 are ignored.
	CodeLineTooLong Code = "line-too-long"
	// CodeNULByte (error): a NUL byte ends the line; what follows is ignored.
	CodeNULByte Code = "nul-byte"
	// CodeInvalidUTF8 (warning): the line is not valid UTF-8.
	CodeInvalidUTF8 Code = "invalid-utf8"
	// CodeMisplacedBOM (warning): a byte order mark after the start of the
	// file is data; at the start of a line it spoils the key.
	CodeMisplacedBOM Code = "misplaced-bom"
	// CodeHTML (error): the body looks like an HTML page; its lines that are
	// not directives are not reported one by one.
	CodeHTML Code = "html"
	// CodeBinary (error): the body is not text (NUL bytes near its start);
	// its lines are not reported one by one for NUL bytes, byte order marks,
	// bad UTF-8, unknown keys or not being directives.
	CodeBinary Code = "binary"
	// CodeInvalidLine (warning): a line that is not blank, a comment or a
	// key and value ("Disallow /a /b") is ignored.
	CodeInvalidLine Code = "invalid-line"
	// CodeMissingColon (warning): whitespace instead of a colon after a key
	// ("Disallow /tmp"), which Google accepts and others may not, or a
	// rule's first colon inside its value ("Disallow https://example.com/a").
	CodeMissingColon Code = "missing-colon"
	// CodeTypo (warning): a misspelt or extended key that Google accepts
	// ("Dissallow", "User agent", "Disallowed"), and others may not.
	CodeTypo Code = "typo"
	// CodeUnknownKey (warning; error when it looks like a misspelt rule or
	// user-agent key, or follows stray bytes): a key nobody reads.
	CodeUnknownKey Code = "unknown-key"
	// CodeIgnoredByGoogle (info; warning for noindex and its kind): a key
	// that Google ignores and other crawlers may read, such as crawl-delay.
	CodeIgnoredByGoogle Code = "ignored-by-google"
	// CodeInvalidValue (warning): a crawl-delay, request-rate, visit-time,
	// host or clean-param value that the accessors of Robots ignore.
	CodeInvalidValue Code = "invalid-value"
	// CodeKeyOutsideGroup (warning): a crawl-delay, request-rate or
	// visit-time line before the first user-agent line belongs to no group.
	CodeKeyOutsideGroup Code = "key-outside-group"
	// CodeRuleOutsideGroup (error): a rule before any user-agent line.
	CodeRuleOutsideGroup Code = "rule-outside-group"
	// CodePatternNeverMatches (error): a pattern not starting "/" or "*".
	CodePatternNeverMatches Code = "pattern-never-matches"
	// CodeLiteralDollar (warning): a "$" before a pattern's end is literal.
	CodeLiteralDollar Code = "literal-dollar"
	// CodeEmptyUserAgent (warning): a user-agent line without a value.
	CodeEmptyUserAgent Code = "empty-user-agent"
	// CodeCutUserAgent (info when cut at a separator, as "Googlebot/2.1";
	// warning when cut inside a word, as "MJ12bot", or naming no crawler):
	// only the leading letters, "-" and "_" of a user-agent are matched.
	CodeCutUserAgent Code = "cut-user-agent"
	// CodeGroupNotEnded (warning): a user-agent line joins the group above
	// it because only non-rule lines came between.
	CodeGroupNotEnded Code = "group-not-ended"
	// CodeSitemapURL (warning): a sitemap is not an absolute http(s) URL.
	CodeSitemapURL Code = "sitemap-url"
	// CodeDuplicateRule (info): a rule repeats an earlier one of its group.
	CodeDuplicateRule Code = "duplicate-rule"
	// CodeShadowedRule (info; warning when the winner is of the other kind):
	// another rule of the group matches whenever it does and takes precedence.
	CodeShadowedRule Code = "shadowed-rule"
	// CodeDisallowAll (warning): the group for "*" disallows the whole site.
	CodeDisallowAll Code = "disallow-all"
	// CodeUnknownSignal (warning): a Content-Signal key other than search,
	// ai-input, ai-train and Cloudflare's "use", or a Content-Usage category
	// other than train-ai, ai-use and search; crawlers ignore it.
	CodeUnknownSignal Code = "unknown-signal"
	// CodeInvalidSignal (warning): a Content-Signal value other than "yes"
	// and "no", a Content-Usage value other than the tokens y and n, or a
	// Content-Usage line that is not a path and a dictionary.
	CodeInvalidSignal Code = "invalid-signal"
	// CodeDuplicateSignal (warning): a signal given twice in a group, or a
	// Content-Usage category twice in a line.
	CodeDuplicateSignal Code = "duplicate-signal"
	// CodeSignalContradictsRules (warning): a preference in a group that
	// disallows the whole site, or for a path the group disallows.
	CodeSignalContradictsRules Code = "signal-contradicts-rules"
	// CodeLongCrawlDelay (warning): a crawl-delay over a minute.
	CodeLongCrawlDelay Code = "long-crawl-delay"
	// CodeDuplicateCrawlDelay (warning): a second crawl-delay line in a group.
	CodeDuplicateCrawlDelay Code = "duplicate-crawl-delay"
	// CodeSpaceInPattern (warning): a space or a tab in a pattern.
	CodeSpaceInPattern Code = "space-in-pattern"
	// CodeCrawlerToken (info): a user-agent value, not a token (and a
	// version), that names a known crawler ("Brightbot 1.0").
	CodeCrawlerToken Code = "crawler-token"
	// CodeRetiredCrawler (warning): a retired token ("anthropic-ai").
	CodeRetiredCrawler Code = "retired-crawler"
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
	errs := slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != SeverityError })
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// A checker collects the findings of one file.
type checker struct {
	diags        Diagnostics
	html, binary bool // CodeHTML, CodeBinary found: the per-line findings they cover are left out
	// rules holds the rule lines of each record, their patterns in text,
	// global whether each names "*", byOff the rule of each pattern's
	// offset; ruled reports that the current record has a rule line.
	rules      [][]lines.Line
	global     []bool
	text       []byte
	byOff      map[uint32]robots.Rule
	ruled      bool
	recordLine int // the first user-agent line of the current record
	// between is the line of the last non-rule directive between the
	// user-agent lines of the current record and its first rule, or 0.
	between    int
	betweenKey string // the key of line between
	delayLine  int    // the first crawl-delay line of the current record, or 0
}

func (c *checker) add(line int, sev Severity, code Code, msg string) {
	c.diags = append(c.diags, Diagnostic{Line: line, Severity: sev, Code: code, Message: msg})
}

const maxQuoted = 80

func quoteValue(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}
