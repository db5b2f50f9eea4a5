package lint

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots"
	"github.com/gorep/robots/internal/lines"
)

// A finding is a Diagnostic without its message, for comparisons.
type finding struct {
	Line     int
	Severity Severity
	Code     Code
}

func (f finding) String() string { return fmt.Sprintf("%d %s %s", f.Line, f.Severity, f.Code) }

// findings returns the findings of Check on body, without messages.
func findings(body string) []finding {
	var out []finding
	for _, d := range Check([]byte(body)) {
		out = append(out, finding{d.Line, d.Severity, d.Code})
	}
	return out
}

// Shorthands for the cases.
const (
	info = SeverityInfo
	warn = SeverityWarning
	erro = SeverityError
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []finding
	}{
		{"clean/google-example", googleExample, nil},
		{"clean/empty", "", nil},
		{"clean/comments-and-blank-lines", "# hello\n\n   \n# user-agent: *\n", nil},
		{"clean/bom-at-start", "\xEF\xBB\xBFuser-agent: *\ndisallow: /a\n", nil},
		{"clean/empty-disallow", "user-agent: *\ndisallow:\n", nil},
		{"clean/star-value-with-comment", "user-agent: * # everyone\ndisallow: /a\n", nil},
		{"clean/agents-stacked", "user-agent: a\nuser-agent: b\n\n# both\ndisallow: /a\n", nil},
		{"clean/crawl-delay-after-rules", "user-agent: a\ndisallow: /a\ncrawl-delay: 5\nuser-agent: b\ndisallow: /b\n",
			[]finding{{3, info, CodeIgnoredByGoogle}}},

		{"too-large", "user-agent: *\n" + strings.Repeat("# "+strings.Repeat("x", 98)+"\n", robots.MaxSize/100) + "disallow: /a\n",
			// 14 bytes on line 1, then lines of 101 bytes from line 2.
			[]finding{{2 + (robots.MaxSize-14)/101, erro, CodeTooLarge}}},
		{"line-too-long", "user-agent: *\ndisallow: /" + strings.Repeat("a", lines.MaxLineLen) + "\n",
			[]finding{{2, erro, CodeLineTooLong}}},
		{"nul-byte", "user-agent: *\ndisallow: /a\x00b\n", []finding{{2, erro, CodeNULByte}}},
		{"invalid-utf8", "user-agent: *\ndisallow: /caf\xE9\n", []finding{{2, warn, CodeInvalidUTF8}}},
		{"misplaced-bom/key", "user-agent: *\n\xEF\xBB\xBFdisallow: /a\n",
			[]finding{{2, warn, CodeMisplacedBOM}, {2, erro, CodeUnknownKey}}},
		{"misplaced-bom/value", "user-agent: *\ndisallow: /a\xEF\xBB\xBF\n", []finding{{2, warn, CodeMisplacedBOM}}},
		{"misplaced-bom/partial-at-start", "\xEF\xBBuser-agent: *\n", nil},
		{"html", "\n<!DOCTYPE html>\n<html><head><title>Not found</title>\n<body>\n<p>Sorry: no page.</p>\nUser-agent: *\n</body></html>\n",
			[]finding{{2, erro, CodeHTML}}},
		{"html/after-blank-lines", "\n\n\n<html>\n<head><title>x</title></head>\n</html>" + strings.Repeat("\n", 20), []finding{{4, erro, CodeHTML}}},
		{"binary/image", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10:\xff\n", []finding{{1, erro, CodeBinary}}},
		{"binary/utf-16", "\xFF\xFEu\x00s\x00e\x00r\x00-\x00a\x00g\x00e\x00n\x00t\x00:\x00 \x00*\x00\n\x00",
			[]finding{{1, erro, CodeBinary}}},
		{"binary/directive-still-read", "\x00\x00\x00\x00\nuser-agent: *\ndisallow: fish\n",
			[]finding{{1, erro, CodeBinary}, {3, erro, CodePatternNeverMatches}}},
		{"invalid-line/three-words", "user-agent: *\ndisallow /a /b\n", []finding{{2, warn, CodeInvalidLine}}},
		{"invalid-line/one-word", "user-agent: *\ndisallow\n", []finding{{2, warn, CodeInvalidLine}}},
		{"invalid-line/empty-key", "user-agent: *\n: /a\n", []finding{{2, warn, CodeInvalidLine}}},
		{"missing-colon", "user-agent *\ndisallow\t/a\n",
			[]finding{{1, warn, CodeMissingColon}, {2, warn, CodeMissingColon}}},
		{"missing-colon/value-with-colon", "user-agent: *\ndisallow https://example.com/a\n", []finding{{2, warn, CodeMissingColon}}},
		{"typo/misspelt", "useragent: *\ndissallow: /a\nsite-map: https://example.com/s.xml\n",
			[]finding{{1, warn, CodeTypo}, {2, warn, CodeTypo}, {3, warn, CodeTypo}}},
		{"typo/extended", "User-agents: *\nDisallowed: /a\nSitemaps: https://example.com/s.xml\n",
			[]finding{{1, warn, CodeTypo}, {2, warn, CodeTypo}, {3, warn, CodeTypo}}},
		{"typo/case-is-fine", "USER-AGENT: *\nDisAllow: /a\nSITEMAP: https://example.com/s.xml\n", nil},
		{"unknown-key/plain", "user-agent: *\nfavourite-colour: blue\n", []finding{{2, warn, CodeUnknownKey}}},
		{"unknown-key/misspelt-rule", "user-agent: *\ndsallow: /a\nalow: /b\n",
			[]finding{{2, erro, CodeUnknownKey}, {3, erro, CodeUnknownKey}}},
		{"unknown-key/stray-bytes", "user-agent: *\n\u200bDisallow: /a\n\u00ef\u00bb\u00bfUser-agent: b\n",
			[]finding{{2, erro, CodeUnknownKey}, {3, erro, CodeUnknownKey}}},
		{"unknown-key/misspelt-extension", "user-agent: *\ncrawl_delay: 5\n", []finding{{2, warn, CodeUnknownKey}}},
		{"ignored-by-google", "user-agent: *\ncrawl-delay: 5\nrequest-rate: 1/5\nvisit-time: 0600-0845\n" +
			"host: example.com\nclean-param: ref /a/\ncontent-signal: search=yes, ai-train=no\n" +
			"noindex: /a\nnofollow: /b\nnoarchive: /c\n",
			[]finding{{2, info, CodeIgnoredByGoogle}, {3, info, CodeIgnoredByGoogle}, {4, info, CodeIgnoredByGoogle},
				{5, info, CodeIgnoredByGoogle}, {6, info, CodeIgnoredByGoogle}, {7, info, CodeIgnoredByGoogle},
				{8, warn, CodeIgnoredByGoogle}, {9, warn, CodeIgnoredByGoogle}, {10, warn, CodeIgnoredByGoogle}}},
		{"invalid-value", "user-agent: *\ncrawl-delay: soon\nrequest-rate: fast\nvisit-time: 25:00-26:00\n" +
			"host: http://\nclean-param: &\n",
			[]finding{{2, info, CodeIgnoredByGoogle}, {2, warn, CodeInvalidValue}, {3, info, CodeIgnoredByGoogle},
				{3, warn, CodeInvalidValue}, {4, info, CodeIgnoredByGoogle}, {4, warn, CodeInvalidValue},
				{5, info, CodeIgnoredByGoogle}, {5, warn, CodeInvalidValue}, {6, info, CodeIgnoredByGoogle},
				{6, warn, CodeInvalidValue}}},
		{"key-outside-group", "crawl-delay: 5\nhost: example.com\nuser-agent: *\ndisallow: /a\n",
			[]finding{{1, info, CodeIgnoredByGoogle}, {1, warn, CodeKeyOutsideGroup}, {2, info, CodeIgnoredByGoogle}}},
		{"rule-outside-group", "disallow: /a\nallow: /b\nuser-agent: *\ndisallow: /c\n",
			[]finding{{1, erro, CodeRuleOutsideGroup}, {2, erro, CodeRuleOutsideGroup}}},
		{"pattern-never-matches/no-slash", "user-agent: *\ndisallow: private\nallow: $\n",
			[]finding{{2, erro, CodePatternNeverMatches}, {3, erro, CodePatternNeverMatches}}},
		{"pattern-never-matches/url", "user-agent: *\ndisallow: https://example.com/private\n",
			[]finding{{2, erro, CodePatternNeverMatches}}},
		{"pattern-never-matches/star-is-fine", "user-agent: *\ndisallow: *.pdf$\n", nil},
		{"literal-dollar", "user-agent: *\ndisallow: /a$b\ndisallow: /c$\n", []finding{{2, warn, CodeLiteralDollar}}},
		{"empty-user-agent", "user-agent:\ndisallow: /a\n", []finding{{1, warn, CodeEmptyUserAgent}}},
		{"cut-user-agent/inside-word", "user-agent: MJ12bot\ndisallow: /a\n", []finding{{1, warn, CodeCutUserAgent}}},
		{"cut-user-agent/version", "user-agent: Googlebot/2.1\ndisallow: /a\n", []finding{{1, info, CodeCutUserAgent}}},
		{"cut-user-agent/two-words", "user-agent: Foo Bar\ndisallow: /a\n", []finding{{1, info, CodeCutUserAgent}}},
		{"cut-user-agent/nothing-left", "user-agent: 008\nuser-agent: *bot\ndisallow: /a\n",
			[]finding{{1, warn, CodeCutUserAgent}, {2, warn, CodeCutUserAgent}}},
		{"group-not-ended/crawl-delay", "user-agent: a\ncrawl-delay: 5\nuser-agent: b\ndisallow: /\n",
			[]finding{{2, info, CodeIgnoredByGoogle}, {3, warn, CodeGroupNotEnded}}},
		{"group-not-ended/sitemap", "user-agent: a\nsitemap: https://example.com/s.xml\n\nuser-agent: b\nuser-agent: c\ndisallow: /\n",
			[]finding{{4, warn, CodeGroupNotEnded}}},
		{"sitemap-url", "sitemap: /sitemap.xml\nsitemap: example.com/s.xml\nsitemap: ftp://example.com/s.xml\nsitemap: https://example.com/s.xml\n",
			[]finding{{1, warn, CodeSitemapURL}, {2, warn, CodeSitemapURL}, {3, warn, CodeSitemapURL}}},
		{"duplicate-rule", "user-agent: *\ndisallow: /a\ndisallow: /b\ndisallow: /a\nallow: /c\nallow: /c\n",
			[]finding{{4, info, CodeDuplicateRule}, {6, info, CodeDuplicateRule}}},
		{"duplicate-rule/escaping", "user-agent: *\ndisallow: /%7e\ndisallow: /%7E\n", []finding{{3, info, CodeDuplicateRule}}},
		{"duplicate-rule/other-group", "user-agent: a\ndisallow: /a\nuser-agent: b\ndisallow: /a\n", nil},
		{"shadowed-rule/allow-wins-tie", "user-agent: *\ndisallow: /a\nallow: /a\n", []finding{{2, warn, CodeShadowedRule}}},
		{"shadowed-rule/trailing-star", "user-agent: *\nallow: /fish*\ndisallow: /fish\n", []finding{{3, warn, CodeShadowedRule}}},
		{"shadowed-rule/longer-prefix", "user-agent: *\nallow: /a/\ndisallow: /a/b\n", nil},
		{"shadowed-rule/prefix-covers", "user-agent: *\ndisallow: /ab*\nallow: /a*b\n", nil},
		{"shadowed-rule/star-allow", "user-agent: *\nallow: *\ndisallow: /\n", []finding{{3, warn, CodeShadowedRule}}},
		{"shadowed-rule/anchored", "user-agent: *\nallow: /a\ndisallow: /a$\n", nil},
		{"shadowed-rule/wildcard-same", "user-agent: *\ndisallow: /*.php\nallow: /*.php*\n", []finding{{2, warn, CodeShadowedRule}}},
		{"shadowed-rule/quirk-still-decides", "user-agent: *\nallow: /d/index.html\nallow: /d/index.html*\n", nil},
		{"shadowed-rule/quirk-shadowed-too", "user-agent: *\nallow: /d/*\nallow: /d/index.html*\nallow: /d/index.html\n",
			[]finding{{4, info, CodeShadowedRule}}},
		{"shadowed-rule/same-kind", "user-agent: *\ndisallow: /a/\ndisallow: /a/*\n", []finding{{2, info, CodeShadowedRule}}},
		{"disallow-all", "user-agent: *\ndisallow: /\n", []finding{{2, warn, CodeDisallowAll}}},
		{"disallow-all/star", "user-agent: *\ndisallow: /*\n", []finding{{2, warn, CodeDisallowAll}}},
		{"disallow-all/named-group", "user-agent: Googlebot\ndisallow: /\n", nil},
		{"disallow-all/allowed-back", "user-agent: *\ndisallow: /\nallow: /\n", []finding{{2, warn, CodeShadowedRule}}},
		{"disallow-all/exact-root", "user-agent: *\ndisallow: /$\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, findings(tt.body)); diff != "" {
				t.Errorf("Check(%q) mismatch (-want +got):\n%s", short(tt.body), diff)
			}
		})
	}
}

func TestCheckMessages(t *testing.T) {
	tests := []struct {
		name, body, want string
	}{
		{"unknown-key", "user-agent: *\ndont-crawl: /\n", `robots: line 2: unknown key "dont-crawl": the line is ignored`},
		{"unknown-key/suggestion", "user-agent: *\ndsallow: /a\n", `robots: line 2: unknown key "dsallow" (did you mean "disallow"?): the line is ignored`},
		{"unknown-key/stray-bytes", "\u00ef\u00bb\u00bfUser-agent: *\n",
			`robots: line 1: key "ï»¿User-agent" has stray bytes before "User-agent" (a byte order mark?): the line is ignored`},
		{"missing-colon/value-with-colon", "user-agent: *\nDisallow https://example.com/a\n",
			`robots: line 2: no colon after "Disallow": the key read is "Disallow https" and the value "//example.com/a"`},
		{"typo", "user-agent: *\ndissalow: /a\n", `robots: line 2: key "dissalow" is read as "disallow" by Google, but other crawlers may ignore the line`},
		{"cut-user-agent", "user-agent: MJ12bot\n", `robots: line 1: user-agent "MJ12bot" is matched as "MJ": only the leading letters, "-" and "_" count`},
		{"pattern-never-matches/url", "user-agent: *\ndisallow: https://example.com/private\n",
			`robots: line 2: pattern "https://example.com/private" is a URL, not a path: it never matches (write "/private")`},
		{"shadowed-rule", "user-agent: *\nallow: /fish*\ndisallow: /fish\n",
			`robots: line 3: "Disallow: /fish" never decides: "Allow: /fish*" (line 2) matches whenever it does and takes precedence`},
		{"group-not-ended", "user-agent: a\ncrawl-delay: 5\nuser-agent: b\ndisallow: /\n",
			`robots: line 3: this user-agent line joins the group of line 1: the "crawl-delay" line 2 is not a rule, so it does not end the group, and the rules that follow apply to both`},
		{"invalid-value", "user-agent: *\ncrawl-delay: soon\n", `robots: line 2: "crawl-delay" value "soon" is not a number of seconds: the line is ignored`},
		{"quote-is-cut", "user-agent: *\n" + strings.Repeat("k", 100) + ": v\n",
			`robots: line 2: unknown key "` + strings.Repeat("k", maxQuoted) + `"...: the line is ignored`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, d := range Check([]byte(tt.body)) {
				got = append(got, d.String())
			}
			if !slices.Contains(got, tt.want) {
				t.Errorf("Check(%q) = %q, want it to hold %q", short(tt.body), got, tt.want)
			}
		})
	}
}

// TestCheckGolden compares the findings of Check on every seed file, with
// their messages, with testdata/check.golden: a guard against any change to
// what Check says about real files. go test -run TestCheckGolden -update
// rewrites it.
func TestCheckGolden(t *testing.T) {
	var b strings.Builder
	for _, seed := range seedFiles(t, math.MaxInt) {
		diags := Check(seed.Body)
		fmt.Fprintf(&b, "# %s: %d findings\n", seed.Name, len(diags))
		for _, d := range diags {
			fmt.Fprintf(&b, "%d: %s: %s [%s]\n", d.Line, d.Severity, d.Message, d.Code)
		}
	}
	const golden = "testdata/check.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("Check on the seed files mismatch with %s (-want +got):\n%s", golden, diff)
	}
}

// TestCheckLineBreaks checks that findings are on the lines an editor
// shows, whatever the line breaks.
func TestCheckLineBreaks(t *testing.T) {
	for name, br := range map[string]string{"LF": "\n", "CRLF": "\r\n", "CR": "\r"} {
		body := strings.ReplaceAll("user-agent: *\n\ndisallow: fish\n", "\n", br)
		want := []finding{{3, erro, CodePatternNeverMatches}}
		if diff := cmp.Diff(want, findings(body)); diff != "" {
			t.Errorf("%s: mismatch (-want +got):\n%s", name, diff)
		}
	}
	if got := findings("user-agent: *\r\r\ndisallow: fish"); len(got) != 1 || got[0].Line != 3 {
		t.Errorf(`CR CR LF: findings = %v, want one on line 3`, got)
	}
}

// knownCodes are all the codes of Check.
var knownCodes = []Code{
	CodeTooLarge, CodeLineTooLong, CodeNULByte, CodeInvalidUTF8, CodeMisplacedBOM, CodeHTML, CodeBinary, CodeInvalidLine,
	CodeMissingColon, CodeTypo, CodeUnknownKey, CodeIgnoredByGoogle, CodeInvalidValue, CodeKeyOutsideGroup,
	CodeRuleOutsideGroup, CodePatternNeverMatches, CodeLiteralDollar, CodeEmptyUserAgent, CodeCutUserAgent,
	CodeGroupNotEnded, CodeSitemapURL, CodeDuplicateRule, CodeShadowedRule, CodeDisallowAll,
}

// FuzzCheck checks that Check terminates without panic on any input, and
// checkFindings of what it finds, on inputs of up to fuzzMaxBytes (see
// there why). TestCheckFindingsRealWorld checks the larger ones.
func FuzzCheck(f *testing.F) {
	addSeeds(f, checkFuzzMaxBytes)
	f.Add([]byte("user-agent: *\nallow: /a*\ndisallow: /a\nallow: /d/index.html\ndisallow: /d/\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) <= checkFuzzMaxBytes {
			checkFindings(t, body)
		}
	})
}

// checkFuzzMaxBytes bounds the inputs of FuzzCheck and FuzzCheckMore: half
// fuzzMaxBytes (see there), as Check costs several times a parse, and its
// findings need no more than a few groups. At 512 bytes, minimising held
// both workers at 0 executions a second for 6 to 9 s of a 60 s run under
// load (issue 33).
const checkFuzzMaxBytes = fuzzMaxBytes / 2

// checkFindings checks that the findings of Check on body are sorted, on
// existing lines, with known codes and severities, and that its claims
// that a rule never decides hold (on files of up to 4 KiB).
func checkFindings(t *testing.T, body []byte) {
	t.Helper()
	diags := Check(body)
	lines := lineAt(string(body), len(body))
	for i, d := range diags {
		if d.Line < 1 || d.Line > lines || i > 0 && d.Line < diags[i-1].Line {
			t.Fatalf("finding %d on line %d of %d, after line %d", i, d.Line, lines, diags[max(i-1, 0)].Line)
		}
		if !slices.Contains(knownCodes, d.Code) || d.Severity < SeverityInfo || d.Severity > SeverityError || d.Message == "" {
			t.Fatalf("bad finding %+v", d)
		}
	}
	if len(body) <= 4<<10 {
		neverDecidesHolds(t, body)
	}
}

// TestCheckFindingsRealWorld runs checkFindings on every seed file, the
// large ones that FuzzCheck leaves out included.
func TestCheckFindingsRealWorld(t *testing.T) {
	for _, seed := range seedFiles(t, math.MaxInt) {
		t.Run(filepath.Base(seed.Name), func(t *testing.T) { checkFindings(t, seed.Body) })
	}
}

func BenchmarkCheck(b *testing.B) {
	benchEachFile(b, func(body []byte) { Check(body) })
}
