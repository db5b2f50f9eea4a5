package robots

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// readyFiles are the files the tests of ready.go read: the hostile files,
// the kept shapes, a sample of the real-world corpus, and files of small
// records of repeated, index.htm and raw rules.
func readyFiles(t *testing.T) map[string]string {
	files := hostileFiles()
	for name, body := range keptShapes() {
		files["shape-"+name] = body
	}
	for i, body := range realWorldBodies(t) {
		if i%7 == 0 {
			files[fmt.Sprintf("realworld-%d", i)] = string(body)
		}
	}
	rng := rand.New(rand.NewPCG(5, 8))
	dirs := []string{"/", "/a/", "/a$/", "/*/", "/\xe9/", "/%e9/", "/%E9/", "//"}
	pattern := func() string {
		d := dirs[rng.IntN(len(dirs))]
		switch rng.IntN(5) {
		case 0:
			return d + "index.htm" + []string{"", "l", "l$", "\xe9", "x"}[rng.IntN(5)]
		case 1:
			return d + "$"
		case 2:
			return randomWord(rng, "ab/", rng.IntN(3)) // short: repeats, or never compiled
		case 3:
			return d + randomWord(rng, "ab*$\xe9", rng.IntN(3))
		}
		return d
	}
	for file := range 60 {
		var b strings.Builder
		for rec := range 1 + rng.IntN(8) {
			fmt.Fprintf(&b, "user-agent: %s\n", letters(rec%4))
			for range rng.IntN(smallSet + 4) {
				fmt.Fprintf(&b, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], pattern())
			}
		}
		files[fmt.Sprintf("random-%d", file)] = b.String()
	}
	return files
}

// TestMayMatchAtParse checks Robots.mayMatch, which Parse sets from the
// rule lines it reads, against what the groups made of them hold: a
// compiled rule, or a set left to its questions to compile.
func TestMayMatchAtParse(t *testing.T) {
	files := readyFiles(t)
	for name, body := range map[string]string{
		"empty-disallow":     "user-agent: *\ndisallow:\n",
		"rule-before-agents": "disallow: /x\n",
		"no-slash":           "user-agent: a\nallow: x\ndisallow: ?y\n",
		"star":               "user-agent: a\nallow: *x\n",
		"slash":              "user-agent: a\ndisallow: /\n",
	} {
		files[name] = body
	}
	for name, body := range files {
		r := Parse([]byte(body))
		got := r.mayMatch
		r.ready()
		if want := len(r.compiled) > 0 || len(largeSets(r)) > 0; got != want {
			t.Errorf("%s: mayMatch %t at Parse, want %t", name, got, want)
		}
	}
}

// TestFirstQuestionsConcurrent asks fresh files from several goroutines
// at once, so that their first questions race to make the groups (run
// with -race by CI), and checks every
// answer against those of the same file asked from one goroutine.
func TestFirstQuestionsConcurrent(t *testing.T) {
	paths := []string{"/", "/a", "/a/", "/index.html", "/search?q=1", "/wp-admin/x.php", "/\xe9/"}
	n := 0
	for name, body := range readyFiles(t) {
		if n++; n%3 != 0 && !strings.HasPrefix(name, "random") {
			continue
		}
		serial := Parse([]byte(body))
		agents := []string{"googlebot", "*", "a", "b", "bingbot"}
		serial.ready()
		for _, g := range serial.named[:min(len(serial.named), 6)] {
			agents = append(agents, g.token(serial.text))
		}
		want := map[string]bool{}
		for _, a := range agents {
			for _, p := range paths {
				want[a+" "+p] = serial.Allowed(a, p)
			}
		}
		r := Parse([]byte(body))
		var wg sync.WaitGroup
		var wrong atomic.Int32
		for w := range 4 {
			wg.Go(func() {
				for k := range agents {
					a := agents[(k+w)%len(agents)]
					for _, p := range paths {
						if r.Allowed(a, p) != want[a+" "+p] {
							wrong.Add(1)
						}
					}
				}
			})
		}
		wg.Wait()
		if wrong.Load() > 0 {
			t.Errorf("%s: %d answers differ from those asked in turn", name, wrong.Load())
		}
	}
}

// TestMemSizeMakesGroups checks that MemSize counts the groups of a file
// no question has asked yet: the same bytes as once a question made them.
func TestMemSizeMakesGroups(t *testing.T) {
	for name, body := range map[string]string{
		"agents-only": "user-agent: a\nuser-agent: b\n\nuser-agent: c\n",
		"small":       "user-agent: *\ndisallow: /a\nallow: /a/b\n\nuser-agent: x\ndisallow: /\n",
		"merged":      "user-agent: x\ndisallow: /a\n\nuser-agent: x\nuser-agent: y\nallow: /b\n",
	} {
		asked := Parse([]byte(body))
		asked.Decide("x", "/")
		parsed := Parse([]byte(body))
		if parsed.grouped.Load() != 0 {
			t.Fatalf("%s: Parse made the groups", name)
		}
		if got, want := parsed.MemSize(), asked.MemSize(); got != want {
			t.Errorf("%s: MemSize() = %d before any question, want %d, as once asked", name, got, want)
		}
	}
}
