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
		// compiles two rules a line (the page, and its directory with
		// "$"), both wildcard rules, not filed as a plain directory is.
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
// set of its own, compiled and laid out (a bigSet is 240 bytes).
func TestKeptPerByteShapes(t *testing.T) {
	const bound = 1.5
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
			if got := float64(r.MemSize()) / float64(len(body)); got > bound {
				t.Errorf("%.2f bytes kept per input byte, over %.1f", got, bound)
			}
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
	const bound = 1.5
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
				if got := float64(r.MemSize()) / float64(len(cut)); got > bound {
					t.Errorf("%.2f bytes kept per input byte, over %.1f", got, bound)
				}
			})
		}
	}
}
