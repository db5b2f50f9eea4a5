package robots

// What Check reports: severities, codes and findings.

import (
	"slices"
	"strconv"
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
	// CodeTooLarge (error): the file is longer than MaxSize; the rest is
	// ignored. The finding is on the line where the cut falls.
	CodeTooLarge Code = "too-large"
	// CodeLineTooLong (error): a line is longer than 16,663 bytes; the rest
	// of it is ignored.
	CodeLineTooLong Code = "line-too-long"
	// CodeNULByte (error): a NUL byte ends the line; what follows is ignored.
	CodeNULByte Code = "nul-byte"
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
	// CodePatternNeverMatches (error): a pattern that starts with neither "/" nor
	// "*" can never match, since every path starts with "/".
	CodePatternNeverMatches Code = "pattern-never-matches"
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
	errs := slices.DeleteFunc(slices.Clone(l), func(d Diagnostic) bool { return d.Severity != SeverityError })
	if len(errs) == 0 {
		return nil
	}
	return errs
}
