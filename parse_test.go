package robots

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/internal/lines"
)

// TestParseDataReused checks that a parsed file does not refer to the bytes
// it was parsed from, which Parse reads in place: overwriting them changes
// no answer, record, extra or sitemap.
func TestParseDataReused(t *testing.T) {
	tests := []struct{ name, body string }{
		{"rules", "User-agent: Googlebot\nDisallow: /private\nAllow: /private/ok\n"},
		{"escaped", "User-agent: *\nDisallow: /caf\xc3\xa9\nDisallow: /a%2fb\n"},
		{"extras", "Sitemap: https://example.com/s.xml\nUser-agent: Bingbot\nCrawl-delay: 5\nDisallow: /x\n"},
	}
	for _, tt := range tests {
		data := []byte(tt.body)
		r := Parse(data)
		type view struct {
			Records  []Record
			Extras   []Extra
			Sitemaps []string
			Decision Decision
		}
		see := func() view {
			return view{r.Records(), r.Extras(""), r.Sitemaps(), r.Decide("googlebot", "/private/x")}
		}
		before := see()
		for i := range data {
			data[i] = 'z'
		}
		if diff := cmp.Diff(before, see()); diff != "" {
			t.Errorf("%s: overwriting the data changed the parsed file (-before +after):\n%s", tt.name, diff)
		}
	}
}

// A scannedLine is what the scanner reads of one physical line.
type scannedLine struct {
	N          int
	Text       string
	Kind       lines.Kind
	Key, Value string
}

// scanLines returns what the parser's scanner reads of each line of body.
func scanLines(body string) []scannedLine {
	var got []scannedLine
	ls := lines.NewScanner(lines.SkipBOM(body))
	for ls.Next() {
		kind, key, value := lines.SplitDirective(ls.Content())
		got = append(got, scannedLine{ls.Num(), ls.Text(), kind, key, value})
	}
	return got
}

// scanLinesSlow is scanLines done the obvious way, one line and one byte
// class at a time, as the parser did before it looked for each byte across
// lines: the reference the scanner must agree with.
func scanLinesSlow(body string) []scannedLine {
	var got []scannedLine
	s := lines.SkipBOM(body)
	n := 1
	for {
		i := strings.IndexAny(s, "\r\n")
		text := s
		if i >= 0 {
			text = s[:i]
		}
		kind, key, value := splitLineSlow(text)
		got = append(got, scannedLine{n, text, kind, key, value})
		if i < 0 {
			return got
		}
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++ // CRLF is one break
		}
		s = s[i+1:]
		n++
	}
}

// splitLineSlow splits one physical line as the grammar above splitDirective
// says, one step at a time.
func splitLineSlow(s string) (kind lines.Kind, key, value string) {
	s = s[:min(len(s), lines.MaxLineLen)]
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[:i]
	}
	s = lines.TrimSpace(s)
	sep := strings.IndexByte(s, ':')
	if sep < 0 {
		sep = strings.IndexAny(s, " \t")
		if sep < 0 || strings.ContainsAny(strings.TrimLeft(s[sep:], " \t"), " \t") {
			return lines.KindNone, "", ""
		}
	}
	key = lines.TrimSpace(s[:sep])
	if key == "" {
		return lines.KindNone, "", ""
	}
	return keyKindSlow(key), key, lines.TrimSpace(s[sep+1:])
}

// keyLists are the lists of keys of the grammar, in the order the
// reference tries them, with the kind of each.
var keyLists = []struct {
	keys []string
	kind lines.Kind
}{
	{lines.Keys[lines.KindUserAgent], lines.KindUserAgent},
	{lines.Keys[lines.KindAllow], lines.KindAllow},
	{lines.Keys[lines.KindDisallow], lines.KindDisallow},
	{lines.Keys[lines.KindSitemap], lines.KindSitemap},
}

// keyKindSlow tries each list of keys in the reference's order.
func keyKindSlow(key string) lines.Kind {
	for _, k := range keyLists {
		for _, p := range k.keys {
			if len(key) >= len(p) && lines.EqualFold(key[:len(p)], p) {
				return k.kind
			}
		}
	}
	return lines.KindOther
}

// scanCases are bodies whose lines the scanner must read as the reference
// does: every line break, the cut at NUL, '#' and maxLineLen, the BOM and
// its fragments, keys without a colon, misspelled and odd keys.
var scanCases = []struct{ name, body string }{
	{"empty", ""},
	{"lf", "User-agent: *\nDisallow: /a\n"},
	{"crlf", "User-agent: *\r\nDisallow: /a\r\n"},
	{"cr", "User-agent: *\rDisallow: /a\rAllow: /b"},
	{"mixed-breaks", "a: 1\r\n\rb: 2\n\r\nc: 3\n\n\rd: 4\r"},
	{"lf-cr", "a: 1\n\rb: 2"},
	{"no-final-break", "user-agent: x\ndisallow: /y"},
	{"bom", lines.UTF8BOM + "User-agent: *\nDisallow: /"},
	{"bom-fragment", "\xEF\xBBUser-agent: *\nDisallow: /"},
	{"bom-fragment-other", "\xEF\xBB\xBEUser-agent: *"},
	{"bom-twice", lines.UTF8BOM + lines.UTF8BOM + "User-agent: *"},
	{"bom-mid-file", "User-agent: *\n" + lines.UTF8BOM + "Disallow: /"},
	{"nul", "User-agent: *\nDisallow: /a\x00b\nAllow: /c\x00"},
	{"nul-before-colon", "Disallow\x00: /a\nDisallow: /b"},
	{"nul-only", "\x00\x00\x00\n\x00"},
	{"comment", "# hello: world\nUser-agent: * # all\nDisallow: /a#b\n#\n"},
	{"comment-before-colon", "Disallow # : /a\nAllow: /b"},
	{"colon-after-comment", "User-agent: x\n# a\nb\nDisallow: /c:d"},
	{"missing-colon", "User-agent *\nDisallow /tmp\nDisallow /a /b\n Allow\t/c \n"},
	{"missing-colon-tabs", "Disallow\t\t/x\t"},
	{"colon-in-value", "Sitemap: https://example.com:8080/s.xml\nDisallow: /a:b"},
	{"spaces", "  \t User-agent \t :  \v bot \f\n\v\f\r\n   \t"},
	{"empty-key", ": /a\n  : /b\n"},
	{"empty-value", "Disallow:\nAllow:   \n"},
	{"typos", "useragent: a\nuser agent: b\nUser-Agent: c\ndissallow: /d\ndissalow: /e\ndisalow: /f\ndiasllow: /g\ndisallaw: /h\nsite-map: /i\nDisallowed: /j\nSitemaps: /k\nALLOW: /l"},
	{"near-keys", "user-agen: a\ndisallo: /b\nallo: /c\nsitema: /d\nu: /e\nd: /f\na: /g\ns: /h\nxuser-agent: /i"},
	{"near-keys-last-byte", "User-agenx: a\nDisallox: /b\nAllox: /c\nSitemax: /d\nuser-agenT: e\nDisalloW: /f"},
	{"keys-cased", "USER-AGENT: a\nUser-Agent: b\nuSER aGENT: c\nDISALLOW: /d\nDisAllow: /e\nALLOW: /f\nSITE-MAP: /g\nDISSALLOW: /h"},
	{"other-keys", "Crawl-delay: 5\nHost: example.com\nClean-param: a /b\n\xff\xfe: x"},
	{"odd-bytes-in-keys", "\x15ser-agent: a\nUSER\x0dAGENT: b\n\xd5ser-agent: c"},
	{"common-keys-near", "disallow\x1a /a\nDisallow :/b\nuser-agent\x1a c\nuser-agenT\x1a: d\nuser-age\x0et: e\nallow\x1a /f\nsitemap\x1a /g\nAllow\x00: /h\nALLOW:/i\nAllow:\nallow:/\nSiteMap:x\n\tdisallow:/j"},
	{"long-line", "Disallow: /" + strings.Repeat("a", lines.MaxLineLen) + "\nAllow: /b"},
	{"long-line-comment", "Disallow: /" + strings.Repeat("a", lines.MaxLineLen-12) + "#bc\nAllow: /b"},
	{"long-line-colon-late", strings.Repeat("a", lines.MaxLineLen) + ":b\nAllow: /b"},
	{"long-line-nul-late", "Allow: /" + strings.Repeat("a", lines.MaxLineLen) + "\x00"},
	{"long-line-exact", "Allow: /" + strings.Repeat("a", lines.MaxLineLen-8) + "#\nDisallow: /z"},
	{"long-line-cr", "Allow: /" + strings.Repeat("a", 2*lines.MaxLineLen) + "\rDisallow: /z"},
}

// TestScanMatchesSlow checks the scanner against scanLinesSlow on the
// cases above, the real-world corpus (a quarter of it by default, see
// sample) and the hostile files.
func TestScanMatchesSlow(t *testing.T) {
	type named struct{ name, body string }
	var all []named
	for _, c := range scanCases {
		all = append(all, named{"case/" + c.name, c.body})
	}
	for name, body := range hostileFiles() {
		all = append(all, named{"hostile/" + name, body})
	}
	for i, body := range realWorldBodies(t) {
		if i%sample(1, 4) != 0 {
			continue
		}
		all = append(all, named{"realworld/" + strconv.Itoa(i), string(body)})
	}
	for _, c := range all {
		// cmp.Diff only to explain a difference: it is slow on the corpus.
		want, got := scanLinesSlow(c.body), scanLines(c.body)
		if !slices.Equal(want, got) {
			t.Errorf("%s: scanner disagrees with the reference (-want +got):\n%s", c.name, cmp.Diff(want, got))
		}
	}
}

// TestKeyKind checks every key of the grammar as the lists spell it, in
// other cases and with a suffix, and keys that differ from one by a byte.
func TestKeyKind(t *testing.T) {
	for _, l := range keyLists {
		for _, k := range l.keys {
			title := strings.ToUpper(k[:1]) + k[1:]
			last := len(k) - 1
			tests := []struct {
				name, key string
				want      lines.Kind
			}{
				{"lower", k, l.kind},
				{"title", title, l.kind},
				{"upper", strings.ToUpper(k), l.kind},
				{"suffix", title + "s", l.kind},
				{"short", title[:last], lines.KindOther},
				{"last-byte", title[:last] + "x", lines.KindOther},
				{"first-byte", "x" + k[1:], lines.KindOther},
				{"space-first", " " + k, lines.KindOther},
			}
			for _, tt := range tests {
				if got := lines.KeyKind(tt.key); got != tt.want {
					t.Errorf("%s/%s: keyKind(%q) = %d, want %d", k, tt.name, tt.key, got, tt.want)
				}
			}
		}
	}
}

// scanCommonCases are bodies at the edges of scanCommon: values that end
// at and around word boundaries, at the end of the body, at each byte
// that ends a line or its content, with whitespace around them, rules
// before any user-agent line, and lines at maxLineLen.
func scanCommonCases() map[string]string {
	cases := map[string]string{
		"no-agent":        "Disallow: /a\nAllow: /b\nUser-agent: *\nDisallow: /c\n",
		"blanks":          "User-agent: *\nDisallow:\t\v /a \f\t\nAllow:/b\nDisallow:   \nAllow:\v\n",
		"stops":           "User-agent: *\nDisallow: /a\x00b\nAllow: /c#d\nDisallow: /e\rAllow: /f\r\nDisallow: /g\x00#\n",
		"tabs-in-value":   "User-agent: *\nDisallow: /a\tb\t\tc\x0b\x0cd\x0ee\n",
		"keys-cased":      "User-agent: *\nDISALLOW: /a\nallow: /b\nDisAllow:/c\nALLOW:\n",
		"not-common":      "User-agent: *\n Disallow: /a\nDisallow : /b\nDisallowed: /c\nAllow /d\nAllowed: /e\n",
		"high-bytes":      "User-agent: *\nDisallow: /\xff\xfe\x80#\x80\nAllow: /é\n",
		"long-exact":      "User-agent: *\nDisallow: /" + strings.Repeat("a", lines.MaxLineLen-11) + "\nAllow: /b",
		"long-over":       "User-agent: *\nDisallow: /" + strings.Repeat("a", lines.MaxLineLen-10) + "\nAllow: /b",
		"long-comment":    "User-agent: *\nAllow: /" + strings.Repeat("a", lines.MaxLineLen) + "#x\nAllow: /b",
		"long-blanks":     "User-agent: *\nAllow:" + strings.Repeat(" ", lines.MaxLineLen) + "/a\nAllow: /b",
		"short-at-end":    "User-agent: *\nAllow:",
		"long-at-end":     "User-agent: *\nAllow: /" + strings.Repeat("a", lines.MaxLineLen-8),
		"long-over-end":   "User-agent: *\nAllow: /" + strings.Repeat("a", lines.MaxLineLen-7),
		"long-blanks-end": "User-agent: *\nAllow:" + strings.Repeat(" ", lines.MaxLineLen),
		"long-cr-comment": "User-agent: *\r#" + strings.Repeat("a", 3*lines.MaxLineLen) + "\rAllow: /b\r#c\rAllow: /d",
		"agent-then-rule": "User-agent: a\nDisallow: /x\nUser-agent: b\nUser-agent: a\nAllow: /y\n",
		"agents-reused":   "User-agent: a\nUser-agent: a \nUser-agent:a#x\nDisallow: /\nuser-agent: A\nUSER-AGENT: a\n",
		"agents-many":     strings.Repeat("User-agent: a\nUser-agent: b\nUser-agent: c\nUser-agent: d\nUser-agent: e\nUser-agent: f\nUser-agent: g\nUser-agent: h\nUser-agent: i\nDisallow: /x\n", 3),
		"agents-odd":      "User-agent:\nUser-agent: *\nUser-agent: * \nUser-agent: Googlebot/2.1 (+http://x)\nUser-agent:\tbot\x00y\nAllow: /\n",
		"agents-no-rules": "User-agent: a\nUser-agent: b",
		"sitemaps":        "Sitemap: https://x/s.xml\nSitemap:\nSitemap:   \nsitemap:https://y#z\nSITEMAP: /s\r\nUser-agent: *\nSitemap: /t\nDisallow: /\n",
	}
	for n := range 20 {
		v := "/" + strings.Repeat("v", n)
		name := "value-" + strconv.Itoa(n)
		cases[name+"-end"] = "User-agent: *\nDisallow: " + v
		cases[name+"-lf"] = "User-agent: *\nDisallow: " + v + "\nAllow: " + v + " \n"
		cases[name+"-crlf"] = "User-agent: *\r\nAllow:" + v + "\r\nDisallow: " + v + "\t#c\r\n"
		cases[name+"-agent"] = "User-agent: " + v[1:] + "\nSitemap: " + v + "\nUser-agent: " + v[1:]
	}
	return cases
}

// oddTableFiles are random files of the shapes the parser must collect:
// user-agent values kept once for several lines (agentText), short,
// medium and long values, records of no rules, rules and extras before
// the first user-agent line and between agent lines, "*" among tokens,
// and enough lines to pass several marks.
func oddTableFiles() map[string]string {
	files := map[string]string{}
	rng := rand.New(rand.NewPCG(9, 1))
	agents := []string{"a", "b", "*", "* x", "Googlebot/2.1", "123", "", strings.Repeat("c", 40),
		strings.Repeat("d", 300), strings.Repeat("e", 20000)}
	for file := range 200 {
		var b strings.Builder
		for range rng.IntN(3) {
			fmt.Fprintf(&b, "disallow: /pre%d\nsitemap: /s\nfoo: bar\n", rng.IntN(9))
		}
		for range 1 + rng.IntN(80) {
			switch rng.IntN(9) {
			case 0, 1, 2:
				fmt.Fprintf(&b, "user-agent: %s\n", agents[rng.IntN(len(agents))])
			case 3, 4, 5:
				n := []int{0, 3, 28, 29, 30, 200, 286, 300}[rng.IntN(8)]
				fmt.Fprintf(&b, "%s: /%s\n", []string{"allow", "disallow"}[rng.IntN(2)], strings.Repeat("x", n))
			case 6:
				b.WriteString("\n\n# c\n")
			case 7:
				fmt.Fprintf(&b, "crawl-delay: %d\n", rng.IntN(9))
			default:
				fmt.Fprintf(&b, "disallow: %s\n", []string{"", "x", "*", "$", "/"}[rng.IntN(5)])
			}
		}
		files[fmt.Sprintf("odd-%d", file)] = b.String()
	}
	return files
}
