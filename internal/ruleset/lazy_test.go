package ruleset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/corpus"
)

// TestCannotStart checks the glance by which a lazy set's first questions
// pass over rule lines: it must never pass over a line whose rule, or the
// directory of whose index.htm rule, may match the path.
func TestCannotStart(t *testing.T) {
	tests := []struct {
		p, path string
		want    bool
	}{
		{"/a", "/b", true},
		{"/a", "/a", false},
		{"/ab", "/a", false},
		{"/*a", "/b", false},     // a wildcard matches any second byte
		{"/$", "/x", true},       // "/" alone
		{"/$", "/", false},       // a path of one byte is not judged
		{"/$x", "/$x", false},    // "$" within a pattern stands for itself
		{"/%e9", "/%E9", false},  // "%" stays "%" escaped
		{"/%e9", "/x", true},     //
		{"/\xe9", "/%E9", false}, // a byte outside ASCII escapes to "%E9"
		{"/\xe9", "/\xe9", true}, // and never matches itself, raw
		{"/index.htm", "/", false},
		{"/index.htm", "/x", true}, // nor does its directory "/" match "/x"
		{"*a", "/b", false},
		{"/", "/b", false},
	}
	for _, tt := range tests {
		if got := cannotStart(tt.p, tt.path); got != tt.want {
			t.Errorf("cannotStart(%q, %q) = %t, want %t", tt.p, tt.path, got, tt.want)
		}
		s, rls := testSet(t, "user-agent: a\ndisallow: /\nallow: "+tt.p+"\n", 0)
		if best := bruteBest(s, rls, tt.path); tt.want && best.allow() {
			t.Errorf("cannotStart(%q, %q) passes over a rule that matches", tt.p, tt.path)
		}
	}
}

// BenchmarkLayout measures the layout of a large set, which its
// question after the first layoutQuestions pays (layOut): 10,000 wildcard rules of two
// of bench/'s adversarial shapes, and the largest set of the largest real
// file; ns/rule beside the time.
func BenchmarkLayout(b *testing.B) {
	shape := func(rule func(i int) string) string {
		var body strings.Builder
		body.WriteString("user-agent: *\n")
		for i := range 10000 {
			body.WriteString("disallow: " + rule(i) + "\n")
		}
		return body.String()
	}
	for _, f := range []struct{ name, body string }{
		{"prefix", shape(func(i int) string { return fmt.Sprintf("/de/shop/*%s-*/%s-%d/*/zz", letters(i%59), letters(i/59), i) })},
		{"disorder", shape(func(i int) string { return fmt.Sprintf("/*-%d/*-%d/", 97+i/97, i%97) })},
		{"largest", string(corpus.ReadBench(b, "../..", corpus.BenchFiles[len(corpus.BenchFiles)-1].File))},
	} {
		src, recs := testSource(f.body)
		rec := 0
		for i := range recs {
			if len(recs[i]) > len(recs[rec]) {
				rec = i
			}
		}
		b.Run("set="+f.name, func(b *testing.B) {
			for b.Loop() {
				s := lazySet(src, len(recs[rec]), nil, int32(rec), 0)
				s.layOut()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(recs[rec])), "ns/rule")
		})
	}
}
