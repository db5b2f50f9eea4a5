package lines

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A testLine is a line-table entry with its fields spelled out, for cmp.
type testLine struct {
	Kind                    Kind
	Line, Off, Size, KeyLen int
	Allow                   bool
}

// testLineOf returns e as a testLine.
func testLineOf(e Entry) testLine {
	l := e.L
	return testLine{Kind: e.Kind, Line: l.Num(), Off: int(l.Off()), Size: int(l.Size()), KeyLen: int(e.KeyLen),
		Allow: l.Allow()}
}

// randomTable writes n random lines to a table as the parser does, with
// the text they refer to, and returns the Table that holds them and the
// lines written. gaps are the line gaps it draws from; long values have
// up to maxLen bytes.
func randomTable(rng *rand.Rand, n int, gaps []int, maxLen int) (Table, []testLine) {
	var text []byte
	var w Writer
	var want []testLine
	var agents []testLine // those whose value is at the running offset
	keep := func(size int) int {
		off := len(text)
		text = append(text, strings.Repeat("x", size)...)
		return off
	}
	line := 0
	for range n {
		line += gaps[rng.IntN(len(gaps))]
		size := rng.IntN(40)
		if rng.IntN(8) == 0 {
			size = rng.IntN(maxLen + 1)
		}
		t := testLine{Kind: Kind(1 + rng.IntN(int(KindOther))), Line: line, Size: size}
		switch t.Kind {
		case KindUserAgent:
			if len(agents) > 0 && rng.IntN(3) == 0 {
				a := agents[rng.IntN(len(agents))]
				t.Off, t.Size = a.Off, a.Size // kept once (agentText)
			} else {
				t.Off = keep(size)
				agents = append(agents, t)
			}
		case KindAllow, KindDisallow:
			t.Allow = t.Kind == KindAllow
			t.Off = keep(size)
		case KindOther:
			t.KeyLen = rng.IntN(20)
			keep(t.KeyLen)
			t.Off = keep(size)
		default:
			t.Off = keep(size)
		}
		l := NewLine(t.Off, t.Size, t.Line, t.Allow)
		w.Add(t.Kind, l, t.KeyLen)
		want = append(want, t)
	}
	linesAt := len(text)
	text = appendLines(text, w.Buf, nil, w.Marks)
	return NewTable(string(text), uint32(linesAt), uint32(linesAt+len(w.Buf))), want
}

// TestLineTable writes random lines to a line table and reads them back:
// all of them in order, each one from its index (on both sides of every
// mark), and each rule from the offset of its pattern, as ruleAt does.
func TestLineTable(t *testing.T) {
	tests := []struct {
		name   string
		n      int
		gaps   []int
		maxLen int
	}{
		{"empty", 0, []int{1}, 10},
		{"one", 1, []int{1}, 10},
		{"one-mark", markEvery, []int{1}, 30},
		{"past-one-mark", markEvery + 1, []int{1, 2}, 30},
		{"consecutive-short", 1000, []int{1}, 30},
		{"gaps", 1000, []int{1, 2, 3, 200, 5000}, 100},
		{"long-values", 300, []int{1, 7}, MaxLineLen},
		{"huge-gaps", 40, []int{1, 20000}, MaxLineLen},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(k), 11))
			r, want := randomTable(rng, tt.n, tt.gaps, tt.maxLen)
			var got []testLine
			r.EachLine(func(e *Entry, _ int) { got = append(got, testLineOf(*e)) })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("lines read back (-want +got):\n%s", diff)
			}
			for i := range want {
				d := r.readerAt(i)
				var e Entry
				if !d.next(&e) || testLineOf(e) != want[i] {
					t.Fatalf("readerAt(%d) reads %+v, want %+v", i, testLineOf(e), want[i])
				}
			}
			if d := r.readerAt(len(want)); d.next(nil) {
				t.Errorf("readerAt(%d) reads a line past the last", len(want))
			}
			for i, w := range want {
				if w.Kind != KindAllow && w.Kind != KindDisallow || w.Size == 0 {
					continue // a compiled rule's pattern is never empty
				}
				l := r.RuleAt(uint32(w.Off))
				if got := testLineOf(Entry{Kind: w.Kind, L: l}); got != w {
					t.Errorf("ruleAt(%d) of line %d = %+v, want %+v", w.Off, i, got, w)
				}
			}
		})
	}
}

// appendLines appends to text, the kept values, the table lines, of the
// records starts and the marks marks, and its index.
func appendLines(text, table []byte, starts []uint32, marks []Mark) []byte {
	if len(table) == 0 {
		return text
	}
	return AppendIndex(append(text, table...), starts, marks)
}

// TestRuleReader checks that a RuleReader reads each record's rule lines,
// records asked in file order, some skipped, from the marks and past them.
func TestRuleReader(t *testing.T) {
	var text []byte
	var w Writer
	var starts []uint32
	var want [][]Line
	n := 0
	for rec := range 40 {
		starts = append(starts, w.N)
		w.Add(KindUserAgent, NewLine(len(text), 1, n+1, false), 0)
		text = append(text, 'a')
		n++
		want = append(want, nil)
		for i := range rec % 7 {
			kind := []Kind{KindAllow, KindDisallow, KindSitemap}[i%3]
			l := NewLine(len(text), 2, n+1, kind == KindAllow)
			text = append(text, "/x"...)
			w.Add(kind, l, 0)
			n++
			if kind != KindSitemap {
				want[rec] = append(want[rec], l)
			}
		}
	}
	linesAt := len(text)
	text = appendLines(text, w.Buf, starts, w.Marks)
	tb := NewTable(string(text), uint32(linesAt), uint32(linesAt+len(w.Buf)))
	if tb.RecordCount() != len(want) {
		t.Fatalf("%d records, want %d", tb.RecordCount(), len(want))
	}
	for _, step := range []int{1, 3, 7} {
		rr := NewRuleReader(tb)
		for rec := 0; rec < len(want); rec += step {
			rr.Start(int32(rec))
			var got []Line
			for l, ok := rr.Next(); ok; l, ok = rr.Next() {
				got = append(got, l)
			}
			if !cmp.Equal(got, want[rec]) {
				t.Errorf("step %d, record %d: rule lines %v, want %v", step, rec, got, want[rec])
			}
		}
	}
}
