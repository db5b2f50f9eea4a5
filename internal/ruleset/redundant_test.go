package ruleset

import "testing"

// TestRedundant checks what Redundant finds in sets compiled with
// KeepAll, small and large: a repeat, a shadowed rule, a rule that
// matches every path, an index.htm rule dominated only with its
// directory's, and rules that never match left out.
func TestRedundant(t *testing.T) {
	type found struct {
		line, by    int // by 0: not dominated
		repeat, all bool
	}
	body := "user-agent: *\n" +
		"disallow: /a\n" + // 2
		"disallow: /a\n" + // 3: repeats 2
		"allow: /a/b\n" + // 4
		"disallow: /a/b/c\n" + // 5
		"allow: /ab*\n" + // 6: not dominated (longer)
		"disallow: /\n" + // 7: all
		"disallow: private\n" + // 8: never matches, left out
		"allow: /d/index.html\n" + // 9: its "/d/$" is not dominated
		"disallow: /d/\n" // 10
	want := []found{
		{line: 2}, {line: 3, by: 2, repeat: true}, {line: 4}, {line: 5}, {line: 6}, {line: 7, all: true}, {line: 9}, {line: 10},
	}
	for _, pad := range []int{0, 40} {
		b := body
		for i := range pad {
			b += "disallow: /zz" + letters(i) + "\n"
		}
		src, recs := testSource(b)
		var s ruleSet
		sc := KeepAll()
		compile(&s, src, recs[0], &sc)
		lineOf := map[uint32]int{}
		for _, l := range recs[0] {
			if l.Size() > 0 {
				lineOf[l.Off()] = l.Num()
			}
		}
		got := map[int]found{}
		for _, d := range Redundant(&s) {
			f := found{line: lineOf[d.Off], repeat: d.Repeat, all: d.All}
			if d.Dominated {
				f.by = lineOf[d.By]
			}
			got[f.line] = f
		}
		for _, w := range want {
			if got[w.line] != w {
				t.Errorf("pad %d, line %d: %+v, want %+v", pad, w.line, got[w.line], w)
			}
		}
		if _, ok := got[8]; ok {
			t.Errorf("pad %d: line 8, which never matches, reported", pad)
		}
		if n := len(got) - pad; n != len(want) {
			t.Errorf("pad %d: %d rules found, want %d and the padding", pad, len(got), len(want))
		}
	}
}
