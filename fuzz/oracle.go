package fuzz

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"

	"github.com/jimsmart/grobotstxt"
)

// The oracle is github.com/jimsmart/grobotstxt v1.0.3, a line-by-line Go port
// of Google's C++ reference parser. It differs from the reference in a few
// known ways (../../shared/spec/NOTES.md, section 10). NewOracle and
// Oracle.Allowed hide each of them, either by rewriting the input into one on
// which the port and the reference agree, or by refusing the input with an
// *ExcludedError. Per divergence:
//
//   - %xx: the port upper-cases hex digits with c&^0x20, which turns a
//     decimal digit into a control byte, and it does so for every %xx of a
//     pattern as soon as the pattern has a lower-case hex letter after a '%'
//     or a byte >= 0x80 to escape. NORMALISED: the hex digits after every
//     '%' of an allow or disallow line are upper-cased before the port sees
//     them, and when the value also has a %xx with a digit, its bytes >= 0x80
//     are escaped as %XX. The reference does both itself (NOTES §12, §13)
//     and leaves %XX as is, so the pattern it builds is unchanged; the port
//     then has nothing to rewrite. Elsewhere, non-ASCII bytes are left for
//     the port to escape, so that its escaping is exercised.
//   - User-agent tokens: the port keeps RFC 7230 token characters (digits,
//     '.', '~', '*', ...) where the reference keeps [A-Za-z_-] only, and it
//     takes any byte that unicode.IsSpace calls a space (0x85, 0xA0) after a
//     leading '*' as the space of "* foo". NORMALISED: a user-agent line on
//     which the two disagree is rewritten as "user-agent: " followed by the
//     reference's token (or "*" when the reference sees the global agent).
//   - The extra typo "diaslow": the reference sees an unknown key, which
//     affects nothing. NORMALISED: the line is replaced by an empty line
//     (same numbering, same meaning for the reference).
//   - Unicode whitespace: the port trims with strings.TrimSpace, so a
//     non-breaking space (and U+0085, U+2000..., U+3000) at either end of a
//     line, key or value is trimmed; the reference trims ASCII whitespace
//     only. When that changes what a line means, it is NORMALISED: a line
//     the reference ignores (or reads as sitemap or unknown) becomes an
//     empty line; a user-agent line is rewritten as above; in an allow or
//     disallow line the bytes >= 0x80 are escaped as %XX, which the
//     reference would do and the port cannot trim.
//   - NUL: the port keeps the bytes after a NUL. NORMALISED: every line is
//     cut at its first NUL before the port sees it (NOTES §6), after the cut
//     at 16,663 bytes that both apply (NOTES §5).
//   - URL normalisation: the port passes the caller's URL through url.Parse
//     and url.URL.String, escaping raw non-ASCII and refusing (disallowing)
//     what does not parse; the reference uses the URL as given. EXCLUDED:
//     only URLs that are pure ASCII and come back from url.Parse and String
//     byte for byte (or without a trailing empty fragment "#") are given to
//     the port.
//   - Caller agents: the port compares them with strings.EqualFold, which
//     folds some non-ASCII letters to ASCII ones (U+212A KELVIN SIGN is 'k').
//     EXCLUDED: only ASCII agents are given to the port.
//   - The 500 KiB cap is not a divergence of the port (the reference library
//     has no cap either), but Google and the robots package read only the
//     first 512,000 bytes. NORMALISED: the file is cut there first.
//
// Our own deliberate deviation, "/robots.txt" always allowed, is not the
// oracle's business: the differential tests do not put to it the questions
// that the robots package answers with ReasonRobotsTxt (and check that their
// URLs do name /robots.txt).
//
// A line that none of the rewritings above makes the port read as the
// reference does would make the whole file EXCLUDED (ExcludeRewrite); none
// is known.
//
// After the rewriting, the port gets the lines of the file joined by LF, so
// that line breaks, byte order marks and overlong lines are handled by this
// file (as the reference does, NOTES §1) and never reinterpreted.

// maxSize is the number of bytes of a robots.txt that Google reads (500 KiB).
const maxSize = 512000

// maxLineLen is the number of bytes of a physical line that the reference
// keeps: its buffer holds 2083*8 bytes including the terminating NUL.
const maxLineLen = 2083*8 - 1

// utf8BOM is the UTF-8 byte order mark; each of its bytes that is present at
// the start of the file, in order, is skipped.
const utf8BOM = "\xEF\xBB\xBF"

// Reasons for which the oracle refuses an input.
const (
	ExcludeURL     = "url"          // a URL the port would normalise or refuse
	ExcludeAgent   = "agent"        // a non-ASCII caller agent
	ExcludeRewrite = "rewrite"      // a line no rewriting could make the port read as the reference does
	ExcludePanic   = "oracle-panic" // the port panicked
)

// An ExcludedError reports an input on which the oracle cannot stand in for
// the reference.
type ExcludedError struct {
	Reason string // one of the Exclude constants
	Detail string // the line or URL concerned
}

func (e *ExcludedError) Error() string {
	return fmt.Sprintf("oracle: excluded (%s): %q", e.Reason, e.Detail)
}

// An Oracle answers, for one robots.txt file, as Google's C++ reference
// would, using grobotstxt on a rewritten copy of the file.
type Oracle struct {
	body      string // the file as given to grobotstxt
	rewritten int    // number of lines rewritten or blanked
}

// NewOracle prepares data for the oracle. It returns an *ExcludedError when
// the file contains a line that the port cannot be made to read as the
// reference does.
func NewOracle(data []byte) (*Oracle, error) {
	lines := splitLines(data)
	o := &Oracle{}
	var b strings.Builder
	b.Grow(len(data) + 1)
	if len(lines) > 0 && strings.HasPrefix(lines[0], "\xEF") {
		// The reference has already skipped the BOM bytes it skips; what is
		// left is data of line 1. An empty line in front keeps the port from
		// skipping it again (it shifts line numbers, which Allowed ignores).
		b.WriteByte('\n')
	}
	for i, line := range lines {
		out, rewritten, err := prepareLine(line)
		if err != nil {
			return nil, err
		}
		if rewritten {
			o.rewritten++
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(out)
	}
	o.body = b.String()
	return o, nil
}

// Body returns the file as handed to grobotstxt.
func (o *Oracle) Body() string { return o.body }

// Rewritten returns the number of lines that were rewritten or blanked.
func (o *Oracle) Rewritten() int { return o.rewritten }

// Allowed reports whether any of agents may fetch rawURL. It returns an
// *ExcludedError when the port would not see rawURL or the agents as the
// reference does.
func (o *Oracle) Allowed(rawURL string, agents ...string) (allowed bool, err error) {
	for _, a := range agents {
		if !isASCII(a) {
			return false, &ExcludedError{ExcludeAgent, a}
		}
	}
	if !isASCII(rawURL) {
		return false, &ExcludedError{ExcludeURL, rawURL}
	}
	u, perr := url.Parse(rawURL)
	if perr != nil {
		return false, &ExcludedError{ExcludeURL, rawURL}
	}
	// url.URL.String drops an empty fragment: "/a#" becomes "/a", which
	// has the same path for the reference.
	if s := u.String(); s != rawURL && s+"#" != rawURL {
		return false, &ExcludedError{ExcludeURL, rawURL}
	}
	defer func() {
		if v := recover(); v != nil {
			allowed, err = false, &ExcludedError{ExcludePanic, fmt.Sprint(v)}
		}
	}()
	return grobotstxt.AgentsAllowed(o.body, agents, rawURL), nil
}

// splitLines cuts data into the lines the reference sees: at most maxSize
// bytes, leading BOM bytes skipped, broken at LF, CR and CRLF, each line cut
// to maxLineLen bytes and at its first NUL.
func splitLines(data []byte) []string {
	if len(data) > maxSize {
		data = data[:maxSize]
	}
	for i := 0; i < len(utf8BOM) && len(data) > 0 && data[0] == utf8BOM[i]; i++ {
		data = data[1:]
	}
	var lines []string
	start := 0
	lastCR := false
	for i, c := range data {
		if c != '\n' && c != '\r' {
			continue
		}
		// An LF right after a CR, with nothing between, ends no line.
		if !(c == '\n' && lastCR && i == start) {
			lines = append(lines, cutLine(data[start:i]))
		}
		start = i + 1
		lastCR = c == '\r'
	}
	return append(lines, cutLine(data[start:]))
}

// cutLine applies the reference's line buffer: maxLineLen bytes, and a C
// string ends at NUL.
func cutLine(line []byte) string {
	if len(line) > maxLineLen {
		line = line[:maxLineLen]
	}
	for i, c := range line {
		if c == 0 {
			line = line[:i]
			break
		}
	}
	return string(line)
}

// prepareLine returns line as the port must see it to act as the reference
// does, and whether it had to be rewritten.
func prepareLine(line string) (string, bool, error) {
	ref, port := refEffect(line), portEffect(line)
	if ref.kind == lineAllow || ref.kind == lineDisallow {
		out, want := upperHex(line), upperHex(ref.value)
		rewritten := false
		if ref != port || hasNonASCII(ref.value) && hasDigitEscape(ref.value) {
			// Either the port would trim a Unicode space at an end of the
			// value, or its escaping of the non-ASCII bytes would corrupt a
			// %xx with a digit. The reference escapes each byte >= 0x80 as
			// %XX and keeps %XX as is, so escaping them ourselves does not
			// change the pattern it builds; the port then has nothing to
			// escape and no non-ASCII space to trim.
			out, want = escapeNonASCII(out), escapeNonASCII(want)
			rewritten = true
		}
		if e := portEffect(out); e.kind != ref.kind || e.value != want {
			return "", false, &ExcludedError{ExcludeRewrite, line}
		}
		return out, rewritten, nil
	}
	if ref == port {
		return line, false, nil
	}
	var alt string
	switch ref.kind {
	case lineOther:
		// The reference ignores this line ("diaslow: /x", or a key the
		// port finds only after trimming a non-breaking space): so may the
		// port.
		alt = ""
	case lineUserAgent:
		alt = "user-agent: " + ref.value
	}
	if portEffect(alt) != ref {
		return "", false, &ExcludedError{ExcludeRewrite, line}
	}
	return alt, true, nil
}

// escapeNonASCII replaces each byte >= 0x80 of s with %XX.
func escapeNonASCII(s string) string {
	if !hasNonASCII(s) {
		return s
	}
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 {
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// hasDigitEscape reports whether s has a %xx escape with a decimal digit,
// which the port's escaping corrupts.
func hasDigitEscape(s string) bool {
	for i := 0; i+2 < len(s); i++ {
		if s[i] == '%' && isHex(s[i+1]) && isHex(s[i+2]) && (isDigit(s[i+1]) || isDigit(s[i+2])) {
			return true
		}
	}
	return false
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func hasNonASCII(s string) bool { return !isASCII(s) }

// upperHex upper-cases the two hex digits after each '%' that has them.
func upperHex(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' && isHex(b[i+1]) && isHex(b[i+2]) {
			b[i+1] = upperASCII(b[i+1])
			b[i+2] = upperASCII(b[i+2])
			i += 2
		}
	}
	return string(b)
}

// lineKind is what a line does for Allowed: sitemap and unknown lines, and
// lines that are not directives, do nothing, so they share lineOther.
type lineKind int

const (
	lineOther lineKind = iota
	lineUserAgent
	lineAllow
	lineDisallow
)

// effect is what a line means for Allowed. For a user-agent line, global
// says whether it names '*', and value is the token compared with the
// caller's agent; for allow and disallow, value is the pattern before
// escaping.
type effect struct {
	kind   lineKind
	global bool
	value  string
}

// refEffect reads line as the C++ reference does (NOTES §7–11, §20, §21).
func refEffect(line string) effect {
	key, value, ok := splitKeyValue(line, trimASCII)
	if !ok {
		return effect{}
	}
	switch {
	case hasPrefixASCIIFold(key, "user-agent", "useragent", "user agent"):
		if value == "*" || len(value) > 1 && value[0] == '*' && isASCIISpace(value[1]) {
			return effect{kind: lineUserAgent, global: true, value: "*"}
		}
		i := 0
		for i < len(value) && isRefAgentByte(value[i]) {
			i++
		}
		return effect{kind: lineUserAgent, value: value[:i]}
	case hasPrefixASCIIFold(key, "allow"):
		return effect{kind: lineAllow, value: value}
	case hasPrefixASCIIFold(key, "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"):
		return effect{kind: lineDisallow, value: value}
	}
	return effect{}
}

// portEffect reads line as grobotstxt v1.0.3 does.
func portEffect(line string) effect {
	key, value, ok := splitKeyValue(line, strings.TrimSpace)
	if !ok {
		return effect{}
	}
	lower := strings.ToLower(key)
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(lower, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("user-agent", "useragent", "user agent"):
		if len(value) >= 1 && value[0] == '*' && (len(value) == 1 || unicode.IsSpace(rune(value[1]))) {
			return effect{kind: lineUserAgent, global: true, value: "*"}
		}
		i := 0
		for i < len(value) && isPortAgentByte(value[i]) {
			i++
		}
		return effect{kind: lineUserAgent, value: value[:i]}
	case has("allow"):
		return effect{kind: lineAllow, value: value}
	case has("disallow", "dissallow", "dissalow", "disalow", "diaslow", "diasllow", "disallaw"):
		return effect{kind: lineDisallow, value: value}
	}
	return effect{}
}

// splitKeyValue splits a line into key and value as the reference's
// ParseKeyAndValue does, with the given trimming function: comment cut at the
// first '#', separator at the first ':', or else at a run of spaces and tabs
// when the line is exactly two runs of non-blanks.
func splitKeyValue(line string, trim func(string) string) (key, value string, ok bool) {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	line = trim(line)
	sep := strings.IndexByte(line, ':')
	if sep < 0 {
		sep = strings.IndexAny(line, " \t")
		if sep < 0 {
			return "", "", false
		}
		if strings.ContainsAny(trim(line[sep:]), " \t") {
			return "", "", false
		}
	}
	key = trim(line[:sep])
	if key == "" {
		return "", "", false
	}
	return key, trim(line[sep+1:]), true
}

// trimASCII trims the bytes C's isspace accepts: SP, HT, LF, VT, FF, CR.
func trimASCII(s string) string {
	i, j := 0, len(s)
	for i < j && isASCIISpace(s[i]) {
		i++
	}
	for j > i && isASCIISpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

func isASCIISpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// isRefAgentByte reports whether c may appear in a user-agent token for the
// reference: [A-Za-z_-].
func isRefAgentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == '-'
}

// isPortAgentByte reports whether grobotstxt keeps c in a user-agent token:
// ALPHA, DIGIT and "~#$%'*+-.^_`|".
func isPortAgentByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("~#$%'*+-.^_`|", c) >= 0
}

func hasPrefixASCIIFold(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if len(s) >= len(p) && equalASCIIFold(s[:len(p)], p) {
			return true
		}
	}
	return false
}

func equalASCIIFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerASCII(a[i]) != lowerASCII(b[i]) {
			return false
		}
	}
	return true
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
