package signals

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorep/robots"
)

// manyTDMRules returns a tdmrep.json of n rules of 20 wildcards each, none
// of which matches the URLs of BenchmarkTDMRepMatch but the last (issue 32,
// item 4: 5,000 such rules, 390 KB, cost 25-37 ms a URL).
func manyTDMRules(n int) []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range n {
		loc := "/"
		for j := range 20 {
			loc += fmt.Sprintf("*%c", 'a'+j)
		}
		loc += fmt.Sprintf("%d", i) // no two alike, none with a literal head
		fmt.Fprintf(&b, `{"location":%q,"tdm-reservation":1},`, loc)
	}
	b.WriteString(`{"location":"/","tdm-reservation":0}]`)
	return []byte(b.String())
}

func BenchmarkTDMRepMatch(b *testing.B) {
	f, err := ParseTDMRep(manyTDMRules(5000))
	if err != nil {
		b.Fatal(err)
	}
	for _, url := range []string{"/articles/2024/some-page.html", "/" + strings.Repeat("abcdefghijklmnopqrs", 10) + "t4999", "/" + strings.Repeat("abcdefghijklmnopqrst", 10)} {
		b.Run(url[:min(len(url), 24)], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f.Match(url)
			}
		})
	}
}

// BenchmarkTDMRepRulesInRobots asks the same locations as one robots.txt
// group, the cost a URL should have (issue 32, item 4).
func BenchmarkTDMRepRulesInRobots(b *testing.B) {
	f, err := ParseTDMRep(manyTDMRules(5000))
	if err != nil {
		b.Fatal(err)
	}
	var sb strings.Builder
	sb.WriteString("User-agent: *\n")
	for _, r := range f.Rules {
		sb.WriteString("Disallow: " + r.Location + "\n")
	}
	r := robots.Parse([]byte(sb.String()))
	for _, url := range []string{"/articles/2024/some-page.html", "/" + strings.Repeat("abcdefghijklmnopqrst", 10)} {
		b.Run(url[:min(len(url), 24)], func(b *testing.B) {
			for b.Loop() {
				r.Decide("a", url)
			}
		})
	}
}
