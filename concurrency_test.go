package robots

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/gorep/robots/internal/ruleset"
)

// Concurrency: files asked from many goroutines from their first question,
// while their sets lay themselves out (go test -race).

// raceShapes are files whose sets are laid out by their first questions
// (lazy.go), in the shapes where questions racing to lay a set out once
// went wrong (issue 30): the 81 lines that kept a parse wrong, wildcard
// anchors, %-encodings and raw bytes, index.htm directories (left out and
// folded), directory-heavy sets, split groups, sets of 20 to 20,000 rules
// and a file cut at the cap.
func raceShapes() map[string]string {
	rng := rand.New(rand.NewPCG(30, 8))
	shapes := map[string]string{}
	var b strings.Builder
	b.WriteString("User-agent: *\n")
	for i := range 20 {
		fmt.Fprintf(&b, "Allow: /\nDisallow: /\nAllow: /a%d\nDisallow: /a%d/b\n", i%5, i%7)
	}
	shapes["issue-81-lines"] = b.String()

	words := []string{"a", "b", "ab", "img", "x.php", "%2F", "%e9", "\xe9", "~", "index.html", "-", "q=1"}
	word := func() string { return words[rng.IntN(len(words))] }
	kinds := map[string]func(i int) string{
		"wildcards": func(int) string {
			p := "/" + word()
			for range rng.IntN(3) {
				p += "*" + word()
			}
			if rng.IntN(3) == 0 {
				p += "$"
			}
			return p
		},
		"escapes": func(int) string {
			return "/" + word() + "/" + word() + []string{"", "%41", "%7e", "\xe9\xe9", "%2f"}[rng.IntN(5)]
		},
		"index-htm": func(i int) string {
			return []string{"/d%d/index.html", "/*/x%d/index.htm", "/d%d/", "*/y%d/index.html$", "/%%e9%d/index.htm"}[rng.IntN(5)]
		},
		"dirs": func(i int) string { return fmt.Sprintf("/%s/%s%d/", word(), word(), i%97) },
	}
	for name, pattern := range kinds {
		for _, n := range []int{20, 40, 300, 3000} {
			b.Reset()
			for rec := range 1 + n/1000 { // several records: split and merged groups
				fmt.Fprintf(&b, "user-agent: %s\nuser-agent: *\n", []string{"googlebot", "a", "b"}[rec%3])
				for i := range n / (1 + n/1000) {
					p := pattern(i)
					if strings.Contains(p, "%d") {
						p = fmt.Sprintf(p, i)
					}
					fmt.Fprintf(&b, "%s: %s\n", []string{"allow", "disallow"}[rng.IntN(2)], p)
				}
			}
			shapes[fmt.Sprintf("%s-%d", name, n)] = b.String()
		}
	}
	b.Reset()
	b.WriteString("user-agent: *\n")
	for i := 0; b.Len() < MaxSize+1000; i++ { // cut at the cap, mid-line
		fmt.Fprintf(&b, "disallow: /%s*%s/%d\nallow: /%s/%d/index.html\n", word(), word(), i, word(), i)
	}
	shapes["cut-at-cap"] = b.String()
	return shapes
}

// raceQuestions returns paths for body: one from each of its first rule
// lines, with its wildcards filled in, and a few of every file.
func raceQuestions(body string, rng *rand.Rand) []string {
	paths := []string{"/", "/a3/b", "/a1", "/index.html", "/d3/", "/x/x3/", "/%E9/", "/\xe9/", "/a/b/c"}
	for line := range strings.Lines(body) {
		_, v, ok := strings.Cut(line, ":")
		if !ok || len(paths) >= 72 || strings.HasPrefix(strings.ToLower(line), "user-agent") {
			continue
		}
		v = strings.TrimSpace(v)
		v = strings.ReplaceAll(strings.TrimSuffix(v, "$"), "*", randomWord(rng, "ab/", rng.IntN(3)))
		v = strings.TrimSuffix(v, "index.html")
		if rng.IntN(2) == 0 {
			v += randomWord(rng, "ab/", 2)
		}
		paths = append(paths, v)
	}
	return paths
}

// askRacing asks r every question of agents and paths from workers
// goroutines at once, each in its own order, and returns the answers that
// differ from want and the panics.
func askRacing(r *Robots, agents, paths []string, want map[string]bool, workers int) (wrong []string, panics []any) {
	var mu sync.Mutex
	var start sync.WaitGroup
	start.Add(1)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					mu.Lock()
					panics = append(panics, p)
					mu.Unlock()
				}
			}()
			start.Wait()
			for k := range len(agents) * len(paths) {
				k = (k + w*7) % (len(agents) * len(paths))
				a, p := agents[k%len(agents)], paths[k/len(agents)]
				if got := r.Allowed(a, p); got != want[a+" "+p] {
					mu.Lock()
					wrong = append(wrong, fmt.Sprintf("Allowed(%q, %q) = %v", a, p, got))
					mu.Unlock()
				}
			}
		})
	}
	runtime.Gosched()
	start.Done()
	wg.Wait()
	return wrong, panics
}

// TestFirstQuestionsRace asks fresh parses of raceShapes and of the
// real-world files with large sets from 8 goroutines at once, their first
// questions racing to lay the sets out, and checks every answer, during the
// race and after it, against those of a parse asked from one goroutine
// (issue 30: a losing question laid out the rules another had published,
// in place). Run with -race by CI.
func TestFirstQuestionsRace(t *testing.T) {
	files := raceShapes()
	for i, body := range realWorldBodies(t) {
		if len(body) > 8<<10 && i%sample(1, 4) == 0 {
			files[fmt.Sprintf("realworld-%d", i)] = string(body)
		}
	}
	agents := []string{"googlebot", "*", "a", "b"}
	rng := rand.New(rand.NewPCG(30, 9))
	var parses, questions atomic.Int64
	for name, body := range files {
		paths := raceQuestions(body, rng)
		serial := Parse([]byte(body))
		want := map[string]bool{}
		for _, a := range agents {
			for _, p := range paths {
				want[a+" "+p] = serial.Allowed(a, p)
			}
		}
		rounds := sample(400, 40) * 20_000 / (len(body) + 20_000)
		for round := range max(rounds, 3) {
			r := Parse([]byte(body))
			wrong, panics := askRacing(r, agents, paths, want, 8)
			parses.Add(1)
			questions.Add(int64(8 * len(agents) * len(paths)))
			if len(panics) > 0 {
				t.Fatalf("%s, round %d: questions panicked: %v", name, round, panics[0])
			}
			for _, a := range agents { // after the race: the parse stays right
				for _, p := range paths {
					if got := r.Allowed(a, p); got != want[a+" "+p] {
						wrong = append(wrong, fmt.Sprintf("after the race: Allowed(%q, %q) = %v", a, p, got))
					}
				}
			}
			if len(wrong) > 0 {
				t.Fatalf("%s, round %d: %d answers differ from those of one goroutine, first %s", name, round, len(wrong), wrong[0])
			}
		}
	}
	t.Logf("%d files, %d fresh parses, %d questions", len(files), parses.Load(), questions.Load())
}

// TestLayoutBuiltAside checks the invariant that TestFirstQuestionsRace
// tests by chance: once a set's layout is published, a question that
// builds another (one that found none published an instant before) builds
// it in rules of its own, so that nothing a question reads is written
// again. Before issue 30's fix, the second layOut's rules were those
// published, rewritten in place.
func TestLayoutBuiltAside(t *testing.T) {
	for name, body := range raceShapes() {
		r := Parse([]byte(body))
		layOutAll(r)
		for _, s := range largeSets(r) {
			published := s.Inspect().Rules
			aside := s.CompileAside()
			if len(aside) == 0 || len(published) == 0 {
				continue
			}
			if &aside[0] == &published[0] {
				t.Fatalf("%s: compileAside returned the published rules", name)
			}
			before := slices.Clone(published)
			s.Relayout(aside) // what a question that lost the race does
			if !slices.Equal(before, published) {
				t.Fatalf("%s: laying out a set again wrote over its published rules", name)
			}
		}
	}
}

// TestFirstQuestionsConcurrent asks fresh files from several goroutines
// at once, so that their first questions race to compile and lay out
// their large sets (run with -race by CI), and checks every
// answer against those of the same file asked from one goroutine.
func TestFirstQuestionsConcurrent(t *testing.T) {
	paths := []string{"/", "/a", "/a/", "/index.html", "/search?q=1", "/wp-admin/x.php", "/\xe9/"}
	n := 0
	for name, body := range tableFiles(t) {
		if n++; n%3 != 0 && !strings.HasPrefix(name, "random") {
			continue
		}
		serial := Parse([]byte(body))
		agents := []string{"googlebot", "*", "a", "b", "bingbot"}

		for _, g := range serial.named[:min(len(serial.named), 6)] {
			agents = append(agents, g.token(serial.text()))
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

// TestZeroRobotsConcurrent asks the zero Robots, an empty file, every
// question from several goroutines at once (run with -race by CI).
func TestZeroRobotsConcurrent(t *testing.T) {
	var r Robots
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			r.MemSize()
			r.Allowed("a", "/")
			r.Decide("a", "/")
			r.Group("a", "b").Allowed("/")
			r.Group().Allowed("/")
			r.GroupExtras("a", "")
			r.Preferences("a", "/")
			r.CrawlDelay("a")
		})
	}
	wg.Wait()
	want := Decision{Allowed: true, Reason: ReasonNoGroup}
	if diff := cmp.Diff(want, r.Decide("a", "/x")); diff != "" {
		t.Errorf("zero Robots: Decide (-want +got):\n%s", diff)
	}
	if got := r.MemSize(); got != 0 {
		t.Errorf("zero Robots: MemSize() = %d, want 0", got)
	}
}

// TestFirstEntriesConcurrent races the entry points (MemSize, Allowed,
// Decide, Group of several agents, GroupExtras) on
// fresh files, with questions that compile and lay out large sets (run
// with -race by CI), and checks Decide and the union's answers against
// those of the file asked in turn.
func TestFirstEntriesConcurrent(t *testing.T) {
	ask := func(r *Robots) string {
		return fmt.Sprint(r.Decide("a", "/a/x"), r.Group("a", "b", "googlebot").Decide("/a/x"), r.GroupExtras("a", ""))
	}
	n := 0
	for name, body := range tableFiles(t) {
		if n++; n%3 != 0 {
			continue
		}
		want := ask(Parse([]byte(body)))
		r := Parse([]byte(body))
		var wg sync.WaitGroup
		var got string
		wg.Go(func() { r.MemSize() })
		wg.Go(func() { got = ask(r) })
		wg.Go(func() {
			for range ruleset.LayoutQuestions + 2 {
				r.Allowed("a", "/a/x")
				r.Allowed("zz", "/")
				r.Group("googlebot", "*", "a").Allowed("/a/x")
			}
		})
		wg.Wait()
		if got != want {
			t.Errorf("%s: asked concurrently %s, want %s", name, got, want)
		}
	}
}

// TestLazyLayoutRace asks a large set from many goroutines at once across
// its layout: every answer must be the one the laid-out set gives, and
// the set must be laid out once.
func TestLazyLayoutRace(t *testing.T) {
	body := layoutBody()
	paths := []string{"/p3/4x123yb", "/p1/1", "/x", "/p7/", "/p3/4", "/p0/0"}
	ref := Parse([]byte(body))
	layOutAll(ref)
	for round := range 4 {
		r := Parse([]byte(body))
		var wg sync.WaitGroup
		for g := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 3 * ruleset.LayoutQuestions {
					p, a := paths[(i+g)%len(paths)], []string{"a", "b", "z"}[(i+round)%3]
					if got, want := r.Decide(a, p), ref.Decide(a, p); got != want {
						t.Errorf("round %d: Decide(%q, %q) = %v, want %v", round, a, p, got, want)
						return
					}
				}
			}()
		}
		wg.Wait()
		if got, want := r.MemSize(), ref.MemSize(); got != want {
			t.Errorf("round %d: MemSize() = %d, want %d, that of the file laid out once", round, got, want)
		}
	}
}

// TestFirstQueriesRace asks a file of large sets (merged, split, global,
// with float and headed runs) from many goroutines at once, from
// their very first question, while others quote rules, copy groups and
// read MemSize: each answer must be the one a file asked by one goroutine
// gives, and (under -race) no reader may see a set's rules while its first
// question lays them out in place.
func TestFirstQueriesRace(t *testing.T) {
	body := []byte(layoutBody())
	rng := rand.New(rand.NewPCG(8, 10))
	var paths []string
	for range 200 {
		paths = append(paths, fmt.Sprintf("/p%d/%dx%03dy%c", rng.IntN(20), rng.IntN(20), rng.IntN(500), 'a'+rng.IntN(26)))
	}
	agents := []string{"a", "b", "z"}
	want := map[string]Decision{}
	ref := Parse(body)
	for _, a := range agents {
		for _, p := range paths {
			want[a+" "+p] = ref.Decide(a, p)
		}
	}
	for round := range 5 {
		r := Parse(body)
		var start, wg sync.WaitGroup
		start.Add(1)
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				for i := range paths {
					p, a := paths[(i*7+g*31)%len(paths)], agents[(i+g)%len(agents)]
					if got := r.Decide(a, p); got != want[a+" "+p] {
						t.Errorf("round %d: Decide(%q, %q) = %v, want %v", round, a, p, got, want[a+" "+p])
						return
					}
					if g%2 == 0 {
						if got := r.Group(a).Allowed(p); got != want[a+" "+p].Allowed {
							t.Errorf("round %d: Group(%q).Allowed(%q) = %t", round, a, p, got)
						}
					}
					_ = r.MemSize()
				}
			}()
		}
		start.Done()
		wg.Wait()
	}
}
