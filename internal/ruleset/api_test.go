package ruleset

import (
	"fmt"
	"strings"
	"testing"
)

// TestDoor asks sets through the door the model uses (Compile, LazySet,
// NewSet, Set.Match, NewMatch, Match.Best) the deciding rule of paths, in
// a small set and in a large one before and after its layout, against
// bruteBest, and checks that NewSet rebuilds a set from its Parts.
func TestDoor(t *testing.T) {
	rules := "allow: /p\ndisallow: /\nallow: /folder\ndisallow: /folder\nallow: /page\ndisallow: /*.htm\n" +
		"allow: /$\nallow: /d/index.html\ndisallow: /caf\xc3\xa9\n"
	paths := []string{"/page", "/folder/page", "/page.htm", "/", "/x", "/d/", "/caf%C3%A9", "/p"}
	for _, pad := range []int{0, 40} {
		var b strings.Builder
		b.WriteString("user-agent: *\n" + rules)
		for i := range pad {
			fmt.Fprintf(&b, "disallow: /zz%s\n", letters(i))
		}
		src, recs := testSource(b.String())
		var s Set
		if pad == 0 {
			var sc Scratch
			Compile(&s, src, recs[0], &sc)
		} else {
			s = LazySet(src, len(recs[0]), nil, 0, 0)
		}
		lo, n, big := s.Parts()
		if again := NewSet(src, lo, n, big); again != s {
			t.Errorf("pad %d: NewSet(Parts()) = %+v, want %+v", pad, again, s)
		}
		for q := range LayoutQuestions + 2 { // a lazy set scans, then is laid out
			for _, p := range paths {
				m := NewMatch(true)
				s.Match(p, &m)
				want := bruteBest(&s, recs[0], p)
				if got := m.Best(); got == 0 || got.Allow() != want.Allow() || got.Off() != want.Off() || got.rank() != want.rank() {
					t.Fatalf("pad %d, question %d: %s decided by %q (allow %t), want %q (allow %t)",
						pad, q, p, got.written(src.text), got.Allow(), want.written(src.text), want.Allow())
				}
			}
		}
		if pad > 0 && !s.Inspect().Laid {
			t.Errorf("pad %d: not laid out after %d questions", pad, LayoutQuestions+2)
		}
	}
}
