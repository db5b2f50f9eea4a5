package lint

import (
	"strings"
	"testing"

	"github.com/gorep/robots/internal/corpus"
	"github.com/gorep/robots/internal/lines"
	"github.com/gorep/robots/internal/ruleset"
)

// TestRedundant checks what redundant finds in sets compiled with
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
			b += "disallow: /zz" + corpus.Letters(i) + "\n"
		}
		// The rule lines of the one record, their values kept in text.
		var text []byte
		var rules []lines.Line
		lineOf := map[uint32]int{}
		for n, l := range strings.Split(b, "\n") {
			kind, _, value := lines.SplitDirective(l)
			if kind != lines.KindAllow && kind != lines.KindDisallow {
				continue
			}
			lineOf[uint32(len(text))] = n + 1
			rules = append(rules, lines.NewLine(len(text), len(value), n+1, kind == lines.KindAllow))
			text = append(text, value...)
		}
		var src ruleset.Source
		src.SetText(string(text), uint32(len(text)), uint32(len(text)))
		var s ruleset.Set
		sc := ruleset.KeepAll()
		ruleset.Compile(&s, &src, rules, &sc)
		got := map[int]found{}
		for _, d := range redundant(&s, src.Text()) {
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
