package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestFoldedDirs checks the directories with a "*" of index.htm allow
// rules, which a large set folds into their index.htm rules (dirs.go, tryFolded),
// against bruteDecision and the slow model, in every state of the set
// (rawStates): index.htm rules under wildcard directories, anchored or
// not, some raw (never folded), others written twice, among disallow
// rules of the directories' own patterns (a tie of rank with a directory
// rule, which the allow wins) and of other wildcard rules, in sets of
// more wildcard rules than a layout files by anchor (minFloating) and of
// fewer; asked paths that are those directories, and others.
func TestFoldedDirs(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	const alphabet = "ab/*\xe9"
	word := func(n int) string { return randomWord(rng, alphabet, n) }
	dir := func() string {
		d := word(rng.IntN(3)) + "*" + word(rng.IntN(3))
		if rng.IntN(2) == 0 {
			d = "/" + d
		}
		return d + "/"
	}
	for file := range sample(120, 16) {
		var b strings.Builder
		b.WriteString("user-agent: a\n")
		n := smallSet + 1 + rng.IntN(40)
		if file%2 == 1 {
			n = minFloating + 10 + rng.IntN(200)
		}
		var dirs []string
		for range n {
			var line string
			switch rng.IntN(6) {
			case 0, 1, 2:
				d := dir()
				dirs = append(dirs, d)
				line = "allow: " + d + []string{"index.htm", "index.html", "index.htm$", "index.html*", "index.htm*b"}[rng.IntN(5)]
			case 3:
				line = "disallow: /" + word(3)
				if len(dirs) > 0 {
					line = "disallow: " + dirs[rng.IntN(len(dirs))] + "$"
				}
			case 4:
				line = "disallow: " + dir()
			default:
				line = fmt.Sprintf("%s: /%s", []string{"allow", "disallow"}[rng.IntN(2)], word(1+rng.IntN(4)))
			}
			b.WriteString(line + "\n")
			if rng.IntN(8) == 0 {
				b.WriteString(line + "\n") // the same line again
			}
		}
		body := b.String()
		var paths []string
		for range 80 {
			p := "/" + word(rng.IntN(8))
			if rng.IntN(3) > 0 {
				p += "/"
			}
			if len(dirs) > 0 && rng.IntN(2) == 0 {
				// A directory, its "*" some bytes, or a path under it,
				// after some bytes, so that its anchor may stand after a
				// gram of the same bucket.
				p = "/" + word(rng.IntN(8)) + strings.TrimPrefix(dirs[rng.IntN(len(dirs))], "/") + []string{"", "", "x", "index.htm"}[rng.IntN(4)]
			}
			p = strings.ReplaceAll(p, "*", word(rng.IntN(3)))
			paths = append(paths, strings.NewReplacer("*", "b", "\xe9", "%E9").Replace(p))
		}
		for how, r := range rawStates(body) {
			for _, path := range paths {
				want, ok := bruteDecision(r, "a", slowPathOf(path))
				d := r.Decide("a", path)
				slow := slowAllowed([]byte(body), []string{"a"}, path)
				if ok && (d.Reason != ReasonRule || d.Rule != want) || !ok && d.Reason == ReasonRule || d.Allowed != slow {
					t.Fatalf("file %d, %s: Decide(a, %q) = %v, want %v (deciding: %t), slow model %t; file:\n%s",
						file, how, path, d, want, ok, slow, body)
				}
				if got := r.Allowed("a", path); got != slow {
					t.Fatalf("file %d, %s: Allowed(a, %q) = %t, slow model %t; file:\n%s", file, how, path, got, slow, body)
				}
			}
		}
	}
}

// TestFoldDirsCompiles checks what compile folds (leaveOut, htmDir): the directory rules
// of the index.htm allow rules under a "*" that are not raw, in a set that
// stays large without them; not in a small set, nor in a set that would
// be small without them.
func TestFoldDirsCompiles(t *testing.T) {
	lines := func(n int, line func(i int) string) string {
		var b strings.Builder
		b.WriteString("user-agent: *\n")
		for i := range n {
			b.WriteString(line(i) + "\n")
		}
		return b.String()
	}
	wild := func(i int) string { return "allow: *" + letters(i) + "/index.htm" }
	tests := []struct {
		name       string
		body       string
		rules      int
		dirsFolded bool
		dir        string // of lines 3, 5 and 21, before the index of the line
	}{
		{"large", lines(40, wild), 40, true, "/x"},
		{"small-without", lines(20, wild), 40, false, "/x"},
		{"large-without", lines(33, wild), 33, true, "/x"},
		{"raw", lines(40, func(i int) string { return "allow: *\xe9" + letters(i) + "/index.htm" }), 80, false, "/x%E9"},
		{"plain", lines(40, func(i int) string { return "allow: /" + letters(i) + "/index.htm" }), 40, false, "/"},
		{"mixed", lines(40, func(i int) string {
			if i%2 == 0 {
				return "allow: *\xe9" + letters(i) + "/index.htm"
			}
			return wild(i)
		}), 60, true, "/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Parse([]byte(tt.body))
			if n := compiledRules(r); n != tt.rules {
				t.Errorf("%d compiled rules, want %d", n, tt.rules)
			}
			folded := false
			for _, s := range largeSets(r) {
				folded = folded || s.big.folded()
			}
			if folded != tt.dirsFolded {
				t.Errorf("dirsFolded = %t, want %t", folded, tt.dirsFolded)
			}
			for _, i := range []int{1, 3, 19} {
				path := tt.dir + letters(i) + "/"
				if d := r.Decide("a", path); d.Reason != ReasonRule || d.Rule.Line != i+2 || !d.Allowed {
					t.Errorf("Decide(%q) = %v, want the allow of line %d", path, d, i+2)
				}
			}
		})
	}
}

// TestFoldedDirsAfterCollision checks a folded directory found on a later
// look-up of its index.htm rule's bucket: for each folded rule of a
// laid-out set, a path that ends with its directory and starts with
// another gram of the rule's bucket, which a question looks up first,
// against bruteDecision.
func TestFoldedDirsAfterCollision(t *testing.T) {
	var b strings.Builder
	b.WriteString("user-agent: a\ndisallow: /\n")
	for i := range 600 { // enough for anchors of three bytes
		fmt.Fprintf(&b, "allow: *%s/index.htm\n", letters(i))
	}
	r := Parse([]byte(b.String()))
	layOutAll(r)
	s := largeSet(r, "a")
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
		dir := rl.written(r.text)[:d]
		w := collider(bucketOf(int32(j)), dir)
		if w == "" {
			continue
		}
		built++
		path := "/" + w + "-" + dir[strings.LastIndexByte(dir, '*')+1:]
		want, ok := bruteDecision(r, "a", path)
		if d := r.Decide("a", path); !ok || d.Reason != ReasonRule || d.Rule != want {
			t.Errorf("Decide(a, %q) = %v, want %v (deciding: %t)", path, d, want, ok)
		}
	}
	if built < 10 {
		t.Errorf("%d paths built with a colliding gram first, want 10 or more", built)
	}
}
