package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/gorep/robots/internal/ruleset"
)

// TestFloatTableMatchesBruteForce checks the decisions of large sets whose
// wildcard rules are filed in an anchor table against brute force, on long
// paths over few bytes, where the anchors of rules occur many times, share
// buckets and fingerprints, and a segment stands at several places of the
// path, some before the end of the rule's head.
func TestFloatTableMatchesBruteForce(t *testing.T) {
	tests := []struct {
		name     string
		alphabet string
		segment  int // the longest segment of a pattern
		segments int // the most segments after the head
		head     int // the longest head after "/"
		dollar   bool
		pathLen  int
	}{
		{name: "single-segment/short", alphabet: "ab/c", segment: 4, segments: 1, head: 2, pathLen: 12},
		{name: "single-segment/long", alphabet: "ab/c", segment: 5, segments: 1, head: 3, pathLen: 400},
		{name: "single-byte", alphabet: "abcdefgh", segment: 1, segments: 1, head: 1, pathLen: 60},
		{name: "multi-segment", alphabet: "ab/c", segment: 3, segments: 3, head: 2, pathLen: 100},
		{name: "anchored", alphabet: "abc", segment: 3, segments: 2, head: 2, dollar: true, pathLen: 50},
		{name: "wide", alphabet: "abcdefghijklmnopqrstuvwxyz/.-ABC0123", segment: 6, segments: 2, head: 4, pathLen: 300},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(11, uint64(i)))
			word := func(n int) string {
				b := make([]byte, n)
				for i := range b {
					b[i] = tt.alphabet[rng.IntN(len(tt.alphabet))]
				}
				return string(b)
			}
			tables := 0
			for file := range sample(8, 3) {
				var body strings.Builder
				body.WriteString("user-agent: a\n")
				for range ruleset.MinFloating + rng.IntN(200) {
					p := "/" + word(rng.IntN(tt.head+1))
					for range 1 + rng.IntN(tt.segments) {
						p += "*" + word(1+rng.IntN(tt.segment))
					}
					if tt.dollar && rng.IntN(2) == 0 {
						p += "$"
					}
					fmt.Fprintf(&body, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], p)
				}
				var paths []string
				for range 40 {
					paths = append(paths, "/"+word(rng.IntN(tt.pathLen)))
				}
				checkDecisions(t, body.String(), "a", paths)
				if t.Failed() {
					t.Fatalf("file %d:\n%s", file, body.String())
				}
				r := Parse([]byte(body.String()))
				layOutAll(r)
				var g Group
				if r.group("a", &g); g.set.Inspect().Float > 0 {
					tables++
				}
			}
			if tables == 0 {
				t.Errorf("no file has an anchor table")
			}
		})
	}
}

// TestMaxLaid checks that the largest sets of files of MaxSize bytes, of
// the shortest rule lines that each compile to a rule, or to two, are
// laid out: fewer than ruleset.MaxLaid rules, whose links and bucket starts fit
// in 2 bytes.
func TestMaxLaid(t *testing.T) {
	for name, line := range map[string]func(b *strings.Builder, i int){
		"shortest":      func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:/%s\n", letters(i)) },
		"index-htm":     func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:/%s/index.htm\n", letters(i)) },
		"wildcard":      func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:*%s\n", letters(i)) },
		"index-htm-dir": func(b *strings.Builder, i int) { fmt.Fprintf(b, "allow:*%s/index.htm\n", letters(i)) },
	} {
		r := Parse([]byte(fillMaxSize("user-agent: *\n", line)))
		layOutAll(r)
		largest := 0
		for _, s := range largeSets(r) {
			n := len(s.CompileAside())
			largest = max(largest, n)
			if laid := s.Inspect().Laid; n >= ruleset.MaxLaid || !laid {
				t.Errorf("%s: a set of %d rules (%d lines), laid out %t, want fewer than %d", name, n, setLen(&s), laid, ruleset.MaxLaid)
			}
		}
		if largest < 20000 {
			t.Errorf("%s: the largest set has %d rules, want a file of MaxSize to make 20,000 or more", name, largest)
		}
	}
}

// TestMarkedRules checks that the rules of a laid-out set read, through
// sorted, as compiled, though its table keeps its single rules marked
// (unmark): the same rules as the set keeps before its layout, on
// files whose tables hold marked rules, raw or not, beside others.
func TestMarkedRules(t *testing.T) {
	shapes := keptShapes()
	tests := []struct {
		name, body, agent string
	}{
		{"raw-wildcard-short", shapes["raw-wildcard-short"][:16<<10], "googlebot"},
		{"index-htm-wildcard-dir", shapes["index-htm-wildcard-dir"][:16<<10], "googlebot"},
		{"mixed", fillMaxSize("user-agent: a\n", func(b *strings.Builder, i int) {
			w := letters(i)
			fmt.Fprintf(b, "allow: /x*%sab\ndisallow: *\xe9%s$\nallow: /*d%s*e\ndisallow: /p*%%41%sq\n", w, w, w, w)
		})[:8<<10], "a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parsed := Parse([]byte(tt.body))
			want := largeSet(parsed, tt.agent).Sorted()
			r := Parse([]byte(tt.body))
			layOutAll(r)
			s := largeSet(r, tt.agent)
			if st := s.Inspect(); st.Marked == 0 {
				t.Fatalf("no marked rule among the %d of the table", st.Float)
			}
			if diff := cmp.Diff(want, (s).Sorted()); diff != "" {
				t.Errorf("rules of the laid-out set (-before layout +after):\n%s", diff)
			}
		})
	}
}
