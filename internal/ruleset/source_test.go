package ruleset

import (
	"testing"

	"github.com/gorep/robots/internal/lines"
)

// testSource reads the user-agent, allow and disallow lines of body as
// the parser keeps them (package robots; here without its shortcuts) into
// a source of its own: values, line table and index. It returns the
// source and the rule lines of each record.
func testSource(body string) (*source, [][]lines.Line) {
	var text []byte
	var w lines.Writer
	var starts []uint32
	var recs [][]lines.Line
	ruled := false
	ls := lines.NewScanner(body)
	for ls.Next() {
		kind, _, v := lines.SplitDirective(ls.Content())
		switch kind {
		case lines.KindUserAgent:
			if len(starts) == 0 || ruled {
				starts, recs, ruled = append(starts, w.N), append(recs, nil), false
			}
		case lines.KindAllow, lines.KindDisallow:
			if len(starts) == 0 {
				continue
			}
			ruled = true
		default:
			continue
		}
		l := lines.NewLine(len(text), len(v), ls.Num(), kind == lines.KindAllow)
		text = append(text, v...)
		w.Add(kind, l, 0)
		if kind != lines.KindUserAgent {
			recs[len(recs)-1] = append(recs[len(recs)-1], l)
		}
	}
	linesAt, indexAt := uint32(len(text)), uint32(len(text)+len(w.Buf))
	if len(w.Buf) > 0 {
		text = lines.AppendIndex(append(text, w.Buf...), starts, w.Marks)
	}
	src := new(source)
	src.SetText(string(text), linesAt, indexAt)
	return src, recs
}

// testSet returns the set of record rec of body as Parse makes the set of
// a record alone, compiled, or lazy if of more than smallSet rule lines,
// and its rule lines.
func testSet(t testing.TB, body string, rec int) (*ruleSet, []lines.Line) {
	t.Helper()
	src, recs := testSource(body)
	if rec >= len(recs) {
		t.Fatalf("no record %d in %q", rec, body)
	}
	var s ruleSet
	if n := len(recs[rec]); n > smallSet {
		s = lazySet(src, n, nil, int32(rec), 0)
	} else {
		var sc scratch
		compile(&s, src, recs[rec], &sc)
	}
	return &s, recs[rec]
}

// bruteBest returns the rule of the rule lines rls of s that decides path
// as Decide quotes it, found by trying each rule of every line, compiled
// with KeepAll (the directory rules of index.htm rules as rules), or the
// zero rule.
func bruteBest(s *ruleSet, rls []lines.Line, path string) rule {
	src := &source{text: s.src.text}
	var all ruleSet
	sc := KeepAll()
	compile(&all, src, rls, &sc)
	var best rule
	for _, r := range src.compiled {
		m := match{}
		if !all.matches(r, path, &m) {
			continue
		}
		if best == 0 || r.rank() > best.rank() || r.rank() == best.rank() && r.off() < best.off() {
			best = r
		}
	}
	return best
}

// TestTestSource checks the fixture: the rule lines of each record, read
// back from the line table as a lazy set reads them.
func TestTestSource(t *testing.T) {
	src, recs := testSource("sitemap: /s\nuser-agent: a\ndisallow: /x\nuser-agent: b\nallow: /y\n# c\nuser-agent: c\n\ndisallow: /z\nallow: /w\n")
	want := []int{1, 1, 2}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	rr := lines.NewRuleReader(src.table())
	for rec, n := range want {
		rr.Start(int32(rec))
		var got []lines.Line
		for l, ok := rr.Next(); ok; l, ok = rr.Next() {
			got = append(got, l)
		}
		if len(got) != n || len(recs[rec]) != n {
			t.Fatalf("record %d: %d rule lines read, %d kept, want %d", rec, len(got), len(recs[rec]), n)
		}
		for i := range got {
			if got[i] != recs[rec][i] {
				t.Errorf("record %d, rule %d: read %q, kept %q", rec, i, got[i].Value(src.text), recs[rec][i].Value(src.text))
			}
		}
	}
}
