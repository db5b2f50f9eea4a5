// Package corpus holds the files and examples the tests of several
// packages read (package robots, package lint): the seed files of
// testdata, the files the benchmarks run on, and the examples of Google's
// and the drafts' pages. No package of the library imports it.
package corpus

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A SeedFile is a file of testdata/realworld or testdata/golden.
type SeedFile struct {
	Name string // the file's path from the module's root
	Body []byte
}

// SeedFiles returns the files of testdata/realworld and testdata/golden
// (the .txt ones) of up to maxBytes, under root, the module's root from
// the test's directory ("." or "..").
func SeedFiles(tb testing.TB, root string, maxBytes int) []SeedFile {
	tb.Helper()
	files, _ := filepath.Glob(filepath.Join(root, "testdata/realworld/*"))
	golden, _ := filepath.Glob(filepath.Join(root, "testdata/golden/*.txt"))
	var seeds []SeedFile
	for _, file := range append(files, golden...) {
		body, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		if len(body) <= maxBytes {
			name, _ := filepath.Rel(root, file)
			seeds = append(seeds, SeedFile{filepath.ToSlash(name), body})
		}
	}
	return seeds
}

// BenchFiles are the real files the benchmarks run on, by size, in
// testdata/realworld.
var BenchFiles = []struct{ Name, File string }{
	{"small-670B", "bharath__shein.com.txt"},
	{"median-2.9KB", "egonkm__quebec-nttdata.icims.com.txt"},
	{"large-27KB", "bharath__wikipedia.org.txt"},
	{"largest-231KB", "avuim__www.expert.de.txt"},
}

// ReadBench returns the body of file, one of BenchFiles, under root.
func ReadBench(b *testing.B, root, file string) []byte {
	body, err := os.ReadFile(filepath.Join(root, "testdata/realworld", file))
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// Short cuts s for error messages.
func Short(s string) string {
	if len(s) > 80 {
		return s[:40] + "..." + s[len(s)-20:]
	}
	return s
}

// GoogleExample is the example file of Google's robots.txt page.
const GoogleExample = `# This robots.txt file controls crawling of URLs under https://example.com.
# All crawlers are disallowed to crawl files in the "includes" directory, such
# as .css, .js, but Google needs them for rendering, so Googlebot is allowed
# to crawl them.
User-agent: *
Disallow: /includes/

User-agent: Googlebot
Allow: /includes/

Sitemap: https://example.com/sitemap.xml
`

// AttachExample is the example of draft-ietf-aipref-attach.
const AttachExample = `User-Agent: *
Allow: /
Disallow: /never/
Content-Usage: train-ai=n
Content-Usage: /ai-ok/ train-ai=y

User-Agent: ExampleBot
Allow: /
Content-Usage: train-ai=y
`

// ContentSignalsExample is the file of Cloudflare's Content Signals Policy
// (contentsignals.org), without its comment.
const ContentSignalsExample = `User-Agent: *
Content-Signal: ai-train=no, search=yes, ai-input=yes
Allow: /
`

// Letters spells i in base 26 with Letters, so that it is a product token.
// Letters returns i written in base 26 with the letters a to z, lowest
// first: a distinct word for each i.
func Letters(i int) string {
	b := []byte{}
	for {
		b = append(b, byte('a'+i%26))
		i /= 26
		if i == 0 {
			return string(b)
		}
	}
}

// RawSetSizes are the sets each case of the raw-rule tests is asked in: the
// rules alone, a small set; with padPlain rules more, a large set laid out
// by head; and with padWild wildcard rules more too, whose wildcard rules
// go to the anchor table, anchored by grams of three bytes.
var RawSetSizes = []struct {
	Name              string
	PadPlain, PadWild int
}{
	{"small", 0, 0},
	{"large", 40, 0},
	{"large-wild", 40, 160},
}

// RawPadding returns plain and wild padding rules that match none of the
// paths of the tests (they hold "§" escaped, which no path holds).
func RawPadding(plain, wild int) string {
	var b strings.Builder
	for i := range plain {
		fmt.Fprintf(&b, "disallow: /pad%%C2%%A7%d\n", i)
	}
	for i := range wild {
		// One segment, or two: both kinds of anchored rules.
		fmt.Fprintf(&b, "disallow: /*pad%%C2%%A7%s%s\n", Letters(i), []string{"", "*x"}[i%2])
	}
	return b.String()
}
