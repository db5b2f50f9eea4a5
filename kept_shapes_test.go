package robots

import (
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
)

// fillMaxSize returns head followed by the lines that line writes for i =
// 0, 1, ..., cut at MaxSize bytes.
func fillMaxSize(head string, line func(b *strings.Builder, i int)) string {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; b.Len() < MaxSize; i++ {
		line(&b, i)
	}
	return b.String()[:MaxSize]
}

// recordsOf returns a file of MaxSize bytes of records of n short rules
// each, the ith named by the user-agent lines agents(i) returns.
func recordsOf(n int, agents func(i int) string) string {
	return fillMaxSize("", func(b *strings.Builder, i int) {
		b.WriteString(agents(i))
		for j := range n {
			fmt.Fprintf(b, "allow:/%s%s\n", letters(j), letters(i))
		}
	})
}

// ownAndGlobal names record i by "*" and by a token of its own.
func ownAndGlobal(i int) string { return "user-agent:*\nuser-agent:b" + letters(i) + "\n" }

// keptShapes are files of MaxSize bytes, beside hostileFiles, whose kept
// bytes per input byte issue 11 bounds by 1.5 once warm: shapes that
// compile a rule line more than once, or that keep more per line than a
// plain rule. Each call returns a map of its own, of strings made once.
func keptShapes() map[string]string { return maps.Clone(keptShapesOnce()) }

var keptShapesOnce = sync.OnceValue(makeKeptShapes)

// makeKeptShapes makes the files of keptShapes.
func makeKeptShapes() map[string]string {
	return map[string]string{
		// Each record's rules are compiled in the merged set of "*";
		// its own set, asked for its own token, reads its rule lines
		// from the line table up to scannedMax of them, else is
		// compiled and laid out on its own (once asked).
		"records-own-and-global":   recordsOf(32, ownAndGlobal),
		"records-own33-and-global": recordsOf(33, ownAndGlobal),
		"records-own65-and-global": recordsOf(scannedMax+1, ownAndGlobal),
		// googlebot's group and zz's, all its records but the first,
		// each compile every rule: the merge budget allows both.
		"records-split-lazy": recordsOf(33, func(i int) string {
			if i == 0 {
				return "user-agent:googlebot\n"
			}
			return "user-agent:googlebot\nuser-agent:zz\n"
		}),
		// An allow of an index.htm page under a wildcard directory
		// implies two rules a line (the page, and its directory with
		// "$"), both wildcard rules: a large set compiles one, which
		// stands for both (dirs.go, tryFolded).
		"index-htm-wildcard-dir": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:*%s/index.htm\n", letters(i))
		}),
		"raw-short": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:/\xe9%s\n", letters(i))
		}),
		"raw-wildcard-short": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:*\xe9%s\n", letters(i))
		}),
		"raw-index-htm": fillMaxSize("user-agent: *\n", func(b *strings.Builder, i int) {
			fmt.Fprintf(b, "allow:/%s\xe9/index.htm\n", letters(i))
		}),
	}
}

// TestKeptPerByteShapes checks the bytes kept per input byte, warm for
// Googlebot, of keptShapes against issue 11's bound for any file of 4 KiB
// or more, as TestKeptPerByte does for hostileFiles; and warm for zz in
// records-split-lazy, whose group compiles every rule but the first
// record's again.
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

// BenchmarkSplitGroups asks, warm, the groups that a merge budget of one
// compile a rule line split (resolve.go: split), whose sets were asked
// one by one, and which that of mergeBudget merges: zz in
// records-split-lazy (named in all records but the first, beside
// googlebot, which is named in all) and a b-token of the hostile
// one-agent-many; googlebot beside them. And the own sets that read their
// rule lines from the line table (scanRecord): a b-token of
// records-own-and-global, of 32 rule lines, and of scannedMax. Issue 11
// asks for at most 1 µs a query on every hostile shape.
func BenchmarkSplitGroups(b *testing.B) {
	cases := []struct{ file, body, agent string }{
		{"records-split-lazy", keptShapes()["records-split-lazy"], "zz"},
		{"records-split-lazy", keptShapes()["records-split-lazy"], "googlebot"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "bq"},
		{"one-agent-many", hostileFiles()["one-agent-many"], "googlebot"},
		{"records-own-and-global", keptShapes()["records-own-and-global"], "bq"},
		{"records-own64-and-global", recordsOf(scannedMax, ownAndGlobal), "bq"},
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
// stays open on them. None today.
var keptOverGoal = map[string]float64{}

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
	case over && got > keptGoal:
		t.Logf("%.2f bytes kept per input byte: issue 11's goal of %.1f not met (held to %.2f)", got, keptGoal, bound)
	}
}

// keptEveryAgent is the bound on the bytes kept per input byte of any file
// of 4 KiB or more once every agent it names, and "*", has been asked
// warm: each rule line compiled at most mergeBudget times (resolve), and
// the layouts of the sets so compiled.
const keptEveryAgent = 3.0

// TestKeptEveryAgent checks keptEveryAgent on the hostile files and
// keptShapes, at MaxSize and cut at 4 KiB: a crawler that asks for every
// agent a file names must not make it keep more than a few times its size.
func TestKeptEveryAgent(t *testing.T) {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for name, body := range files {
		for _, size := range []int{4 << 10, MaxSize} {
			cut := body[:min(size, len(body))]
			if i := strings.IndexByte(body[len(cut):], '\n'); i >= 0 {
				cut = body[:len(cut)+i+1]
			}
			name := fmt.Sprintf("%s/%dKiB", name, size>>10)
			t.Run(name, func(t *testing.T) {
				r := Parse([]byte(cut))
				warmAll(r, "/some/page.html")
				got := float64(r.MemSize()) / float64(len(cut))
				if got > keptEveryAgent {
					t.Errorf("%.2f bytes kept per input byte once every agent is asked, over %.1f", got, keptEveryAgent)
				}
				t.Logf("kept %s %.2f", name, got)
			})
		}
	}
}

// warmAll warms r for every agent it names and for "*".
func warmAll(r *Robots, url string) {

	for _, g := range r.named {
		warm(r, g.token(r.text()), url)
	}
	warm(r, "", url)
}
