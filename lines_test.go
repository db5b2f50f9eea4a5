package robots

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A testLine is a line-table entry with its fields spelled out, for cmp.
type testLine struct {
	Kind                    lineKind
	Line, Off, Size, KeyLen int
	Allow                   bool
}

// testLineOf returns e as a testLine.
func testLineOf(e entry) testLine {
	l := e.l
	return testLine{Kind: e.kind, Line: l.line(), Off: int(l.off()), Size: int(l.size()), KeyLen: int(e.keyLen),
		Allow: l.allow()}
}

// randomTable writes n random lines to a table as the parser does, with
// the text they refer to, and returns the Robots that holds them and the
// lines written. gaps are the line gaps it draws from; long values have
// up to maxLen bytes.
func randomTable(rng *rand.Rand, n int, gaps []int, maxLen int) (*Robots, []testLine) {
	var text []byte
	var w lineWriter
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
		t := testLine{Kind: lineKind(1 + rng.IntN(int(kindOther))), Line: line, Size: size}
		switch t.Kind {
		case kindUserAgent:
			if len(agents) > 0 && rng.IntN(3) == 0 {
				a := agents[rng.IntN(len(agents))]
				t.Off, t.Size = a.Off, a.Size // kept once (agentText)
			} else {
				t.Off = keep(size)
				agents = append(agents, t)
			}
		case kindAllow, kindDisallow:
			t.Allow = t.Kind == kindAllow
			t.Off = keep(size)
		case kindOther:
			t.KeyLen = rng.IntN(20)
			keep(t.KeyLen)
			t.Off = keep(size)
		default:
			t.Off = keep(size)
		}
		l := newSrcLine(t.Off, t.Size, t.Line, t.Allow)
		w.add(t.Kind, l, t.KeyLen)
		want = append(want, t)
	}
	linesAt := len(text)
	text = appendLines(text, w.buf, nil, w.marks)
	return &Robots{source: source{text: string(text)}, linesAt: uint32(linesAt), indexAt: uint32(linesAt + len(w.buf))}, want
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
		{"long-values", 300, []int{1, 7}, maxLineLen},
		{"huge-gaps", 40, []int{1, 20000}, maxLineLen},
	}
	for k, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(k), 11))
			r, want := randomTable(rng, tt.n, tt.gaps, tt.maxLen)
			var got []testLine
			r.eachLine(func(e *entry, _ int) { got = append(got, testLineOf(*e)) })
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("lines read back (-want +got):\n%s", diff)
			}
			for i := range want {
				d := r.readerAt(i)
				var e entry
				if !d.next(&e) || testLineOf(e) != want[i] {
					t.Fatalf("readerAt(%d) reads %+v, want %+v", i, testLineOf(e), want[i])
				}
			}
			if d := r.readerAt(len(want)); d.next(nil) {
				t.Errorf("readerAt(%d) reads a line past the last", len(want))
			}
			for i, w := range want {
				if w.Kind != kindAllow && w.Kind != kindDisallow || w.Size == 0 {
					continue // a compiled rule's pattern is never empty
				}
				l := r.ruleAt(uint32(w.Off))
				if got := testLineOf(entry{kind: w.Kind, l: l}); got != w {
					t.Errorf("ruleAt(%d) of line %d = %+v, want %+v", w.Off, i, got, w)
				}
			}
		})
	}
}

// TestLineTableSize checks what the table spends on the commonest lines,
// those that follow the previous one: a byte for a value of up to 30
// bytes, else a byte and two varints; an extra has one more for its key.
func TestLineTableSize(t *testing.T) {
	tests := []struct {
		name         string
		kind         lineKind
		size, keyLen int
		want         int
	}{
		{"disallow", kindDisallow, 30, 0, 1},
		{"allow", kindAllow, 0, 0, 1},
		{"user-agent", kindUserAgent, 12, 0, 1},
		{"sitemap", kindSitemap, 29, 0, 1},
		{"extra", kindOther, 3, 11, 2},
		{"disallow-long", kindDisallow, 31, 0, 3},
		{"sitemap-long", kindSitemap, 127, 0, 3},
		{"sitemap-longer", kindSitemap, 128, 0, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var w lineWriter
			off := 0
			for i := range 64 {
				off += tt.keyLen
				w.add(tt.kind, newSrcLine(off, tt.size, i+1, tt.kind == kindAllow), tt.keyLen)
				off += tt.size
			}
			if got := len(w.buf) / 64; got != tt.want {
				t.Errorf("%d bytes of table for 64 lines: %d a line, want %d", len(w.buf), got, tt.want)
			}
		})
	}
}

// appendLines appends to text, the kept values, the table lines, of the
// records starts and the marks marks, and its index.
func appendLines(text, lines []byte, starts []uint32, marks []lineMark) []byte {
	if len(lines) == 0 {
		return text
	}
	return appendIndex(append(text, lines...), starts, marks)
}
