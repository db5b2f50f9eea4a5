package bench

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gorep/robots"
)

// Shapes of wildcard rules built to defeat the matching of a large set,
// beside BenchmarkWorstCase's, which real sites write. Each is a file of n
// distinct rules, none of which matches the path: a path of the words the
// rules use (longPath), so that the pieces of the rules recur in it.
//
//	prefix     every rule's head is a prefix of the path ("/de/shop/"),
//	           its pieces words and numbers of the path in order but for
//	           the last, which the path never holds after them;
//	recurring  short pieces ("-1", "/a") that recur all along the path,
//	           then a last piece the path lacks;
//	disorder   pieces that the path holds, each once, in the other order;
//	suffix     anchored rules whose pieces recur, and whose end the path
//	           holds, but not at its end.
var adversarialShapes = []struct {
	name string
	rule func(i int) string
}{
	{"prefix", func(i int) string {
		return fmt.Sprintf("/de/shop/*%s-*/%s-%d/*/zz", words[i%len(words)], words[i/len(words)%len(words)], i)
	}},
	{"recurring", func(i int) string {
		return fmt.Sprintf("/*-%d*/%c*-%d*/%c*%d-q", i%10, 'a'+i%26, i%7, 'a'+i/26%26, i)
	}},
	{"disorder", func(i int) string {
		// -k/ and -j/ each occur once in the path, -k/ after -j/.
		j, k := i%97, 97+i/97
		return fmt.Sprintf("/*-%d/*-%d/", k, j)
	}},
	{"suffix", func(i int) string {
		return fmt.Sprintf("/*%s-*-%d*/%s-%d/$", words[i%len(words)], i%10, words[i/len(words)%len(words)], i)
	}},
}

// adversarialFile returns the file of n rules of shape rule.
func adversarialFile(n int, rule func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range n {
		b.WriteString("Disallow: " + rule(i) + "\n")
	}
	return capped([]byte(b.String()))
}

// BenchmarkAdversarialWildcards measures, on each of adversarialShapes with
// 1,000 and 10,000 rules, a question for a path of 1 to 8 KB: warm (the set
// laid out), and first (Parse untimed, then the file's first question).
// Issue 34 asks for at most 200 µs at 8 KB, and at most about 2.2 times the
// time for each doubling of the path.
func BenchmarkAdversarialWildcards(b *testing.B) {
	for _, s := range adversarialShapes {
		for _, n := range []int{1000, 10000} {
			body := adversarialFile(n, s.rule)
			r := robots.Parse(body)
			for _, size := range worstLens {
				u := "https://example.com" + longPath(size)
				for range warmQuestions {
					if !r.Allowed("Googlebot", u) {
						b.Fatalf("%s: a rule matches the path", s.name)
					}
				}
				name := "shape=" + s.name + "/rules=" + strconv.Itoa(n) + "/len=" + strconv.Itoa(size>>10) + "KB"
				b.Run(name+"/q=warm", func(b *testing.B) {
					b.ReportAllocs()
					for b.Loop() {
						sinkBool = r.Allowed("Googlebot", u)
					}
				})
				b.Run(name+"/q=first", func(b *testing.B) {
					for b.Loop() {
						b.StopTimer()
						f := robots.Parse(body)
						b.StartTimer()
						sinkBool = f.Allowed("Googlebot", u)
					}
				})
			}
		}
	}
}
