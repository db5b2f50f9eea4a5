package robots

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/internal/floor"
)

// The floors of BenchmarkAllowed/file=: the least work a question takes, as
// the bench module's floors are (bench/doc.go says why each is the least).
// Neither is an answer: they count the heads that start the path, without
// precedence or wildcards.

// BenchmarkAllowedFloor is the least work of answering Allowed("Googlebot",
// url) from scratch, with the parsed file in the best layout for it (a
// floorFile): find the agent's heads among the file's tokens, and if
// there are any, split the path from the URL and test each head with
// strings.HasPrefix.
func BenchmarkAllowedFloor(b *testing.B) {
	for _, f := range benchFiles {
		r := Parse(readBench(b, f.File))
		urls := benchURLs(r)
		ff := newFloorFile(r)
		b.Run("file="+f.Name, func(b *testing.B) {
			i, n := 0, 0
			for b.Loop() {
				u := urls[i]
				if heads := ff.HeadsFor("Googlebot"); len(heads) > 0 {
					n += floor.CountPrefixes(floor.Path(u), heads)
				}
				if i++; i == len(urls) {
					i = 0
				}
			}
			floorSink = n
		})
	}
}

// BenchmarkAllowedMatchFloor is the least work of the match alone, the
// floor of Group.Allowed(path): the HasPrefix loop over the heads of
// Googlebot's group, found beforehand, on the paths of the same URLs,
// split beforehand.
func BenchmarkAllowedMatchFloor(b *testing.B) {
	for _, f := range benchFiles {
		r := Parse(readBench(b, f.File))
		urls := benchURLs(r)
		paths := make([]string, len(urls))
		for i, u := range urls {
			paths[i], _ = splitPath(u)
		}
		heads := newFloorFile(r).HeadsFor("Googlebot")
		b.Run("file="+f.Name, func(b *testing.B) {
			i, n := 0, 0
			for b.Loop() {
				n += floor.CountPrefixes(paths[i], heads)
				if i++; i == len(paths) {
					i = 0
				}
			}
			floorSink = n
		})
	}
}

// floorSink keeps the counts of the floors alive.
var floorSink int

// newFloorFile returns r in the layout of the floor: each token named with
// the heads of its group's compiled rules. r must not be a file built to
// defeat merging (a split group's other records are left out).
func newFloorFile(r *Robots) *floor.File {
	var g Group
	r.globalGroup(&g)
	f := &floor.File{Global: setHeads(&g)}
	for _, ng := range r.named {
		r.refOrGlobal(ng.ref(), true, &g)
		f.Add(strings.ToLower(ng.token(r.text())), func() []string { return setHeads(&g) })
	}
	return f
}

// setHeads returns the literal heads of the rules of g's set.
func setHeads(g *Group) []string {
	var heads []string
	if s := &g.set; !s.Empty() {
		for _, r := range s.Sorted() {
			heads = append(heads, s.Head(r))
		}
	}
	return heads
}

// TestFloor checks that the floor finds the heads Allowed uses and the
// path it matches, on the benchmark files.
func TestFloor(t *testing.T) {
	for _, f := range benchFiles {
		body, err := os.ReadFile("testdata/realworld/" + f.File)
		if err != nil {
			t.Fatal(err)
		}
		r := Parse(body)
		ff := newFloorFile(r)
		t.Run(f.Name, func(t *testing.T) {
			if diff := cmp.Diff(setHeads(r.Group("Googlebot")), ff.HeadsFor("gOOGLEBOT")); diff != "" {
				t.Errorf("heads (-want +got):\n%s", diff)
			}
			for _, u := range benchURLs(r) {
				if got, want := floor.Path(u), pathOf(u); got != want {
					t.Errorf("floor.Path(%q) = %q, want %q", u, got, want)
				}
			}
		})
	}
}
