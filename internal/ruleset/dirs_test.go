package ruleset

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gorep/robots/internal/corpus"
)

// TestFileDirsAllocatesOnce checks that the directories a layout files
// are allocated once, at their size, then packed once (packDirs): memSize
// counts the capacity of bigSet.dirs, and a slice grown by append, then
// clipped, holds more heap than its capacity says.
func TestFileDirsAllocatesOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: *\n")
	for i := range 300 {
		fmt.Fprintf(&b, "allow: /%d/index.html\n", i)
	}
	s, _ := testSet(t, b.String(), 0)
	x := s.layOut()
	if x.dirs.len() != 300 {
		t.Fatalf("%d directories filed, want 300", x.dirs.len())
	}
	rules := x.rules[:x.nLive] // as newLayout files them
	allocs := testing.AllocsPerRun(10, func() {
		y := bigSet{}
		s.fileDirs(&y, rules)
	})
	if allocs != 2 {
		t.Errorf("fileDirs allocates %v times, want twice", allocs)
	}
	if cap(x.dirs.b) != 3*300 {
		t.Errorf("directories filed in %d bytes, want 3 each", cap(x.dirs.b))
	}
}

// TestFoldedDirsAfterCollision checks a folded directory found on a later
// look-up of its index.htm rule's bucket: for each folded rule of a
// laid-out set, a path that ends with its directory and starts with
// another gram of the rule's bucket, which a question looks up first,
// against bruteBest.
func TestFoldedDirsAfterCollision(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: a\ndisallow: /\n")
	for i := range 600 { // enough for anchors of three bytes
		fmt.Fprintf(&b, "allow: *%s/index.htm\n", letters(i))
	}
	s, rls := testSet(t, b.String(), 0)
	s.layOut()
	if s.big == nil || !s.big.folded() || s.big.Load().float == nil {
		t.Fatal("the set folds no directory into a float table")
	}
	lay := s.big.Load()
	ft := lay.float
	bucketOf := func(j int32) uint32 {
		for bk := uint32(0); ; bk++ {
			if int32(ft.start[bk]) <= j && j < int32(ft.start[bk+1]) {
				return bk
			}
		}
	}
	const bytes = "abcdefghijklmnopqrstuvwxyz0123456789-._~"
	collider := func(bk uint32, dir string) string {
		for n := 1; n <= 3; n++ {
			for _, c0 := range []byte(bytes) {
				for _, c1 := range []byte(bytes) {
					for _, c2 := range []byte(bytes) {
						w := string([]byte{c0, c1, c2})[:n]
						if !ft.heads[n-1].has(c0) || ft.bucket(gram(w, 0, n)) != bk || strings.Contains(dir, w) {
							continue
						}
						return w
					}
				}
			}
		}
		return ""
	}
	built := 0
	for j, marked := range lay.rules[:lay.nFloat] {
		rl, _, single := unmark(marked)
		d := s.foldedDir(rl)
		if d == 0 || !single {
			continue
		}
		dir := rl.written(s.src.text)[:d]
		w := collider(bucketOf(int32(j)), dir)
		if w == "" {
			continue
		}
		built++
		path := "/" + w + "-" + dir[strings.LastIndexByte(dir, '*')+1:]
		want := bruteBest(s, rls, path)
		m := match{quote: true}
		s.match(path, &m)
		if want == 0 || m.rule.rank() != want.rank() || m.rule.off() != want.off() {
			t.Errorf("path %q: the set's rule %q (rank %d), want %q (rank %d)", path,
				m.rule.written(s.src.text), m.rule.rank(), want.written(s.src.text), want.rank())
		}
	}
	if built < 10 {
		t.Errorf("%d paths built with a colliding gram first, want 10 or more", built)
	}
}

// letters is corpus.Letters.
func letters(i int) string { return corpus.Letters(i) }
