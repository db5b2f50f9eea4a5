package robots

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
		r := Parse(readBench(b, f.file))
		urls := benchURLs(r)
		ff := newFloorFile(r)
		b.Run("file="+f.name, func(b *testing.B) {
			i, n := 0, 0
			for b.Loop() {
				u := urls[i]
				if heads := ff.headsFor("Googlebot"); len(heads) > 0 {
					n += countPrefixes(floorPath(u), heads)
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
		r := Parse(readBench(b, f.file))
		urls := benchURLs(r)
		paths := make([]string, len(urls))
		for i, u := range urls {
			paths[i], _ = splitPath(u)
		}
		heads := newFloorFile(r).headsFor("Googlebot")
		b.Run("file="+f.name, func(b *testing.B) {
			i, n := 0, 0
			for b.Loop() {
				n += countPrefixes(paths[i], heads)
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

// A floorFile is a parsed file in the best layout for the floor: the
// distinct tokens the file names, lower-cased, each with the literal heads
// of its group's compiled rules, and the heads of the group of "*".
type floorFile struct {
	tokens []string
	heads  [][]string
	global []string
}

// newFloorFile returns the floorFile of r, which must not be a file built
// to defeat merging (a split group's other records are left out).
func newFloorFile(r *Robots) *floorFile {
	var g Group
	r.globalGroup(&g)
	f := &floorFile{global: setHeads(&g.set)}
	for _, ng := range r.named {
		r.refGroup(ng.ref(), &g)
		f.tokens = append(f.tokens, strings.ToLower(ng.token(r.text)))
		f.heads = append(f.heads, setHeads(&g.set))
	}
	return f
}

// setHeads returns the literal heads of the rules of s.
func setHeads(s *ruleSet) []string {
	var heads []string
	if s.n > 0 {
		for _, r := range s.sorted() {
			heads = append(heads, s.head(r))
		}
	}
	return heads
}

// headsFor returns the heads that answer agent: those of the token equal
// to agent, ignoring ASCII case, else those of "*". A linear scan that
// compares lengths first is cheaper than a map on files naming a few
// agents: a map must lower-case the agent, then hash it.
func (f *floorFile) headsFor(agent string) []string {
	for i, t := range f.tokens {
		if len(t) == len(agent) && equalLower(t, agent) {
			return f.heads[i]
		}
	}
	return f.global
}

// equalLower reports whether s equals the lower-cased token t, ignoring
// ASCII case; s is as long as t.
func equalLower(t, s string) bool {
	for i := 0; i < len(t); i++ {
		if lower(s[i]) != t[i] {
			return false
		}
	}
	return true
}

// floorPath returns the path, parameters and query of url, an absolute
// URL "scheme://authority/path": the minimal scan, which looks at each
// byte of the scheme and authority once, up to the first '/', '?' or ';'
// that does not start "://", then cuts at the first '#'.
func floorPath(url string) string {
	for i := 0; i < len(url); i++ {
		if c := url[i]; c == '/' || c == '?' || c == ';' {
			if c == '/' && i > 0 && url[i-1] == ':' && i+1 < len(url) && url[i+1] == '/' {
				i++
				continue
			}
			url = url[i:]
			if j := strings.IndexByte(url, '#'); j >= 0 {
				url = url[:j]
			}
			return url
		}
	}
	return "/"
}

// countPrefixes returns how many of heads are prefixes of path.
func countPrefixes(path string, heads []string) int {
	n := 0
	for _, h := range heads {
		if strings.HasPrefix(path, h) {
			n++
		}
	}
	return n
}

// TestFloor checks that the floor finds the heads Allowed uses and the
// path it matches, on the benchmark files.
func TestFloor(t *testing.T) {
	for _, f := range benchFiles {
		body, err := os.ReadFile("testdata/realworld/" + f.file)
		if err != nil {
			t.Fatal(err)
		}
		r := Parse(body)
		ff := newFloorFile(r)
		t.Run(f.name, func(t *testing.T) {
			if diff := cmp.Diff(setHeads(&r.Group("Googlebot").set), ff.headsFor("gOOGLEBOT")); diff != "" {
				t.Errorf("heads (-want +got):\n%s", diff)
			}
			for _, u := range benchURLs(r) {
				if got, want := floorPath(u), pathOf(u); got != want {
					t.Errorf("floorPath(%q) = %q, want %q", u, got, want)
				}
			}
		})
	}
}
